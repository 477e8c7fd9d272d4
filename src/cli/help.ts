/** Help texts, generated from the command table so they never drift from what the parser accepts. */
import { COMMANDS, type CommandName, GLOBAL_OPTIONS, type OptionSpec } from "./args.js";

function optionLines(options: Record<string, OptionSpec>): string[] {
	const rows = Object.entries(options).map(([name, o]) => {
		const flag = `--${name}${o.value ? ` ${o.value}` : ""}${name === "help" ? ", -h" : ""}`;
		return [flag, o.help] as const;
	});
	const width = Math.max(...rows.map(([f]) => f.length));
	return rows.map(([f, h]) => `  ${f.padEnd(width)}  ${h}`);
}

/** Help for the whole program. */
export function programHelp(): string {
	const names = Object.keys(COMMANDS) as CommandName[];
	const width = Math.max(...names.map((n) => n.length + COMMANDS[n].args.length + 1));
	return [
		"pi-event-index: the persistent search index of your Pi sessions",
		"",
		"usage: pi-event-index COMMAND [ARGS] [OPTIONS]",
		"",
		"commands:",
		...names.map((n) => `  ${`${n} ${COMMANDS[n].args}`.trimEnd().padEnd(width)}  ${COMMANDS[n].summary}`),
		"",
		"global options (anywhere on the line):",
		...optionLines(GLOBAL_OPTIONS),
		"",
		"exit codes: 0 ok, 1 failure or verify found differences, 2 bad command line, 130 interrupted",
		"run pi-event-index help COMMAND for a command's options; docs/cli.md has examples",
	].join("\n");
}

/** Help for one command. */
export function commandHelp(name: CommandName): string {
	const spec = COMMANDS[name];
	const lines = [`usage: pi-event-index ${name}${spec.args ? ` ${spec.args}` : ""} [OPTIONS]`, "", spec.summary];
	if (Object.keys(spec.options).length) lines.push("", "options:", ...optionLines(spec.options));
	lines.push("", "global options:", ...optionLines(GLOBAL_OPTIONS));
	return lines.join("\n");
}
