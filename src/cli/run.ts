/**
 * The program without the process: parse, resolve, run one command, print its result (human or `--json`) and
 * turn every failure into one clear stderr line. Returns the exit code; only main.ts exits.
 */
import type { Env } from "../config/pi-paths.js";
import { packageVersion } from "../package-version.js";
import { QueryError } from "../query/errors.js";
import { COMMANDS, type CommandLine, type CommandName, flagOption, parseCommandLine } from "./args.js";
import { CliError, EXIT, UsageError } from "./errors.js";
import { commandHelp, programHelp } from "./help.js";
import type { ProgressMode } from "./progress.js";

/** The process as the program sees it. */
export interface CliIO {
	stdout(text: string): void;
	stderr(text: string): void;
	/** stderr is a terminal: progress is a redrawn bar. */
	stderrIsTTY: boolean;
	columns(): number;
	env: Env;
	cwd: string;
	/** Aborted on SIGINT. */
	signal: AbortSignal;
}

/** Environment variable that turns on stack traces for internal errors (like --debug). */
export const ENV_DEBUG = "PI_EVENT_INDEX_DEBUG";

/** A command's result: the data (`--json`), its human view, and the exit code. */
interface Outcome {
	data: unknown;
	text: string;
	exitCode: number;
}

/** Service messages name request fields; on the command line the user typed flags. */
const FIELD_TO_FLAG: Array<[string, string]> = [
	['"time.from"', "--from"],
	['"time.to"', "--to"],
	['"sessionId"', "SESSION"],
	['"entryId"', "ENTRY"],
	['"matchingFragmentId"', "--fragment"],
	['"offset"', "--offset"],
	['"before"', "--before"],
	['"after"', "--after"],
	['"order"', "--order"],
	['"depth"', "--depth"],
	['"kinds"', "--kind"],
	['"roles"', "--role"],
	['"toolNames"', "--tool"],
	['"errorOnly"', "--error-only"],
	['"branchStates"', "--branch-state"],
	['"selectionStates"', "--selection-state"],
	['"cwd"', "--cwd"],
	['"query"', "QUERY"],
];

function cliMessage(message: string): string {
	let m = message;
	for (const [field, flag] of FIELD_TO_FLAG) m = m.split(field).join(flag);
	return m;
}

function progressMode(io: CliIO, json: boolean): ProgressMode {
	if (io.stderrIsTTY) return "bar";
	// Piped output stays quiet; with --json nothing but the JSON is printed.
	return json ? "silent" : "lines";
}

async function dispatch(line: CommandLine, io: CliIO): Promise<Outcome> {
	const command = line.command;
	if (line.globals.version) return { data: { version: packageVersion() }, text: packageVersion(), exitCode: EXIT.ok };
	if (command === undefined || command === "help" || line.globals.help) {
		const topic = command === "help" ? line.positionals[0] : command;
		if (topic !== undefined && topic !== "help") {
			if (!Object.hasOwn(COMMANDS, topic)) throw new UsageError(`no help for unknown command "${topic}"`);
			return { data: null, text: commandHelp(topic as CommandName), exitCode: EXIT.ok };
		}
		return { data: null, text: programHelp(), exitCode: EXIT.ok };
	}
	// Each command's modules are loaded only when it runs: `--version` and `--help` stay instant.
	const [{ resolveContext }, { createProgress }] = await Promise.all([import("./context.js"), import("./progress.js")]);
	const ctx = resolveContext(line.globals, { env: io.env, cwd: io.cwd });
	for (const p of ctx.problems) io.stderr(`pi-event-index: config problem (defaults used): ${p}\n`);
	const o = line.options;
	const json = line.globals.json;
	const label = command === "reindex" ? (flagOption(o, "full") ? "rebuilding" : "indexing") : "syncing";
	const hooks = {
		progress: createProgress({ write: (t: string) => io.stderr(t) }, progressMode(io, json), label, {
			columns: io.columns,
		}),
		signal: io.signal,
	};
	const noSync = flagOption(o, "no-sync");
	switch (command) {
		case "reindex": {
			const { formatReindex, reindexCommand } = await import("./reindex.js");
			const r = await reindexCommand(ctx, { full: flagOption(o, "full"), noWait: flagOption(o, "no-wait") }, hooks);
			return { data: r, text: formatReindex(r), exitCode: r.result.failed > 0 ? EXIT.failure : EXIT.ok };
		}
		case "status": {
			const { formatStatus, statusCommand } = await import("./status.js");
			const r = await statusCommand(ctx);
			return { data: r, text: formatStatus(r), exitCode: EXIT.ok };
		}
		case "verify": {
			const { formatVerify, verifyCommand } = await import("./verify.js");
			const r = await verifyCommand(ctx);
			return { data: r, text: formatVerify(r), exitCode: r.ok ? EXIT.ok : EXIT.failure };
		}
		case "search": {
			const [{ searchCommand, searchRequest }, { formatSearch }] = await Promise.all([
				import("./query.js"),
				import("./format.js"),
			]);
			const req = searchRequest(line.positionals, o, io.cwd);
			const r = await searchCommand(ctx, req, noSync, hooks);
			return { data: r, text: formatSearch(req.query, r), exitCode: EXIT.ok };
		}
		case "read": {
			const [{ readCommand, readRequest }, { formatRead }] = await Promise.all([
				import("./query.js"),
				import("./format.js"),
			]);
			const r = await readCommand(ctx, readRequest(line.positionals, o), noSync, hooks);
			return { data: r, text: formatRead(r), exitCode: EXIT.ok };
		}
		case "trace": {
			const [{ traceCommand, traceRequest }, { formatTrace }] = await Promise.all([
				import("./query.js"),
				import("./format.js"),
			]);
			const r = await traceCommand(ctx, traceRequest(line.positionals, o), noSync, hooks);
			return { data: r, text: formatTrace(r), exitCode: EXIT.ok };
		}
	}
}

/** Run the program on `argv` (without node and the script path); resolves with the exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
	let debug = argv.includes("--debug") || io.env[ENV_DEBUG] === "1";
	try {
		const line = parseCommandLine(argv);
		debug ||= line.globals.debug;
		const outcome = await dispatch(line, io);
		const json = line.globals.json && outcome.data !== null;
		io.stdout(`${json ? JSON.stringify(outcome.data, null, 2) : outcome.text}\n`);
		return outcome.exitCode;
	} catch (err) {
		return reportError(err, io, debug);
	}
}

function reportError(err: unknown, io: CliIO, debug: boolean): number {
	let message: string;
	let code: number;
	if (err instanceof CliError) {
		message = err.message;
		code = err.exitCode;
	} else if (err instanceof QueryError) {
		message = cliMessage(err.message);
		code = err.code === "invalid_request" ? EXIT.usage : EXIT.failure;
	} else {
		message = `internal error: ${err instanceof Error ? err.message : String(err)}${debug ? "" : ` (run with --debug for details)`}`;
		code = EXIT.failure;
	}
	io.stderr(`pi-event-index: ${message.replace(/\s*\n\s*/g, " ")}\n`);
	if (debug && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
	return code;
}
