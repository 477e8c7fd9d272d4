/**
 * Command-line parsing (node:util parseArgs, no dependency): one command, its positionals, its options, and the
 * global options, which are accepted anywhere on the line. Pure: bad input becomes a UsageError naming the problem.
 */
import { parseArgs } from "node:util";
import { BUDGET_BOUNDS, DEFAULT_BUDGETS } from "../config/budgets.js";
import { echo } from "../query/errors.js";
import { SEARCH_FILTERS } from "../query/search/filters.js";
import { SESSION_FILTER_FIELDS, SESSION_LIST_LIMIT } from "../query/sessions.js";
import { didYouMean } from "../text/did-you-mean.js";
import { UsageError } from "./errors.js";

/** How an option takes its value. `strings` is repeatable and collects a list. */
type OptionKind = "string" | "strings" | "boolean";

/** One option of the command line. */
export interface OptionSpec {
	kind: OptionKind;
	/** Placeholder for the help text, e.g. "DIR". */
	value?: string;
	help: string;
}

/** The program's commands. */
export type CommandName =
	| "reindex"
	| "status"
	| "verify"
	| "search"
	| "sessions"
	| "read"
	| "trace"
	| "forget"
	| "unforget"
	| "help";

/** One command: its positionals and the options only it accepts. */
export interface CommandSpec {
	summary: string;
	/** Positional arguments as shown in the usage line. */
	args: string;
	minArgs: number;
	/** Upper bound on positionals (Infinity: the rest is joined, e.g. a search query). */
	maxArgs: number;
	options: Record<string, OptionSpec>;
}

/** Options every command accepts, anywhere on the line. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
	"agent-dir": { kind: "string", value: "DIR", help: "Pi's agent dir (default $PI_CODING_AGENT_DIR or ~/.pi/agent)" },
	"index-dir": {
		kind: "string",
		value: "DIR",
		help: "index directory (default $PI_EVENT_INDEX_DIR, the config's indexDir, or <agent-dir>/event-index)",
	},
	root: { kind: "strings", value: "DIR", help: "extra or archive session directory to index (repeatable)" },
	workspace: { kind: "string", value: "DIR", help: "workspace whose sessions may be read (default: current dir)" },
	all: { kind: "boolean", help: "read the sessions of every workspace (your own history; default: this workspace's)" },
	json: { kind: "boolean", help: "print the result as JSON (the structures the tools return in details)" },
	debug: { kind: "boolean", help: "show stack traces of internal errors" },
	help: { kind: "boolean", help: "show help" },
	version: { kind: "boolean", help: "print the version" },
};

/** The flags of the search filters (all, or those in `fields`), derived from their declarations (filters.ts). */
function searchFilterOptions(fields?: readonly string[]): Record<string, OptionSpec> {
	const kind = (type: string): OptionKind =>
		type === "strings" ? "strings" : type === "boolean" ? "boolean" : "string";
	return Object.fromEntries(
		SEARCH_FILTERS.filter((f) => fields === undefined || fields.includes(f.field)).flatMap((f) =>
			f.flags.map((flag) => [
				flag.flag,
				{ kind: kind(f.shape.type), ...(flag.value ? { value: flag.value } : {}), help: flag.help },
			]),
		),
	);
}

/** `--limit` of search: the searchLimit budget's bounds (the tools' own maximum). */
export const SEARCH_LIMIT_BOUNDS = { max: BUDGET_BOUNDS.searchLimit[1], default: DEFAULT_BUDGETS.searchLimit };

const SYNC_OPTION: OptionSpec = {
	kind: "boolean",
	help: "answer from the index as it is, without the incremental catch-up first",
};

/** Every command and what it accepts. */
export const COMMANDS: Record<CommandName, CommandSpec> = {
	reindex: {
		summary: "bring the index up to date with every session file (--full: rebuild it from scratch)",
		args: "",
		minArgs: 0,
		maxArgs: 0,
		options: {
			full: { kind: "boolean", help: "build a new index beside the current one, then switch to it" },
			"no-wait": {
				kind: "boolean",
				help: "fail at once when another process (a running Pi) holds the catch-up lock, instead of waiting",
			},
		},
	},
	status: {
		summary: "where the index is, its format, counts, coverage, size, last sync and lock holders",
		args: "",
		minArgs: 0,
		maxArgs: 0,
		options: {},
	},
	verify: {
		summary: "compare the index with the session files; exit 1 and list every difference",
		args: "",
		minArgs: 0,
		maxArgs: 0,
		options: {},
	},
	search: {
		summary: "search events of the sessions this workspace may read",
		args: "QUERY",
		// No words with --path: a look-up by file (searchRequest says what is missing otherwise).
		minArgs: 0,
		maxArgs: Number.POSITIVE_INFINITY,
		options: {
			...searchFilterOptions(),
			limit: {
				kind: "string",
				value: "N",
				help: `hits to show, 1 to ${SEARCH_LIMIT_BOUNDS.max} (default: the searchLimit budget, ${SEARCH_LIMIT_BOUNDS.default})`,
			},
			"no-sync": SYNC_OPTION,
		},
	},
	sessions: {
		summary: "list the sessions this workspace may read, newest activity first",
		args: "",
		minArgs: 0,
		maxArgs: 0,
		options: {
			...searchFilterOptions(SESSION_FILTER_FIELDS),
			limit: {
				kind: "string",
				value: "N",
				help: `sessions to show, 1 to ${SESSION_LIST_LIMIT.max} (default ${SESSION_LIST_LIMIT.default})`,
			},
			"no-sync": SYNC_OPTION,
		},
	},
	read: {
		summary: "read one event: its fragments, neighbours and fork receipts",
		args: "SESSION ENTRY",
		minArgs: 2,
		maxArgs: 2,
		options: {
			fragment: { kind: "string", value: "ID", help: "read one fragment through a window (e.g. ENTRY#0)" },
			offset: { kind: "string", value: "N", help: "code-point offset of the window (with --fragment)" },
			before: { kind: "string", value: "N", help: "neighbour events before" },
			after: { kind: "string", value: "N", help: "neighbour events after" },
			order: { kind: "string", value: "branch|append", help: "neighbours along the branch (default) or file order" },
			"no-sync": SYNC_OPTION,
		},
	},
	trace: {
		summary: "one event's parent, children, branch siblings and related events",
		args: "SESSION ENTRY",
		minArgs: 2,
		maxArgs: 2,
		options: {
			depth: { kind: "string", value: "N", help: "follow related edges transitively up to N (capped by budget)" },
			"no-sync": SYNC_OPTION,
		},
	},
	forget: {
		summary: "take sessions out of the index for good (--workspace DIR / --before TIME: list, then act with --yes)",
		args: "[SESSION]",
		minArgs: 0,
		maxArgs: 1,
		options: {
			before: { kind: "string", value: "TIME", help: "sessions last active before TIME (a date, or an age like 90d)" },
			yes: { kind: "boolean", help: "forget what --workspace / --before select (without it they are only listed)" },
		},
	},
	unforget: {
		summary: "undo forget: index a forgotten session again",
		args: "SESSION",
		minArgs: 1,
		maxArgs: 1,
		options: {},
	},
	help: { summary: "show help for the program or one command", args: "[COMMAND]", minArgs: 0, maxArgs: 1, options: {} },
};

/** The global options after parsing. */
export interface GlobalOptions {
	agentDir?: string;
	indexDir?: string;
	roots: string[];
	workspace?: string;
	/** Every workspace's sessions may be read (`--all`). */
	all: boolean;
	json: boolean;
	debug: boolean;
	help: boolean;
	version: boolean;
}

/** Values of a command's own options, by option name. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** A parsed command line. `command` is undefined only for a bare `--help` or `--version`. */
export interface CommandLine {
	command?: CommandName;
	positionals: string[];
	options: OptionValues;
	globals: GlobalOptions;
}

function isCommand(name: string): name is CommandName {
	return Object.hasOwn(COMMANDS, name);
}

/** An option as typed on the line. */
interface SeenOption {
	name: string;
	raw: string;
	value?: string;
	inline: boolean;
}

/** Every token of `argv`: positionals, and options checked against the known ones (names and values). */
function scanTokens(argv: string[]): { positionals: string[]; seen: SeenOption[] } {
	const all = new Map<string, OptionSpec>(Object.entries(GLOBAL_OPTIONS));
	for (const spec of Object.values(COMMANDS)) for (const [n, o] of Object.entries(spec.options)) all.set(n, o);
	const parseOptions = Object.fromEntries(
		[...all].map(([n, o]) => [
			n,
			o.kind === "boolean"
				? { type: "boolean" as const, ...(n === "help" ? { short: "h" } : {}) }
				: { type: "string" as const, multiple: o.kind === "strings" },
		]),
	);
	// Loose parsing gives every token; the checks below are stricter and say exactly what is wrong.
	const { tokens } = parseArgs({
		args: argv,
		options: parseOptions,
		strict: false,
		allowPositionals: true,
		tokens: true,
	});
	const positionals: string[] = [];
	const seen: SeenOption[] = [];
	for (const t of tokens) {
		if (t.kind === "positional") positionals.push(t.value);
		else if (t.kind === "option") {
			const spec = all.get(t.name);
			if (!spec) throw new UsageError(unknownOption(t.rawName, [...all.keys()]), "unknown_option", t.rawName);
			if (spec.kind === "boolean" && t.value !== undefined) {
				throw new UsageError(`option ${echo(t.rawName)} takes no value`, "unexpected_value", t.rawName);
			}
			if (spec.kind !== "boolean" && (t.value === undefined || (!t.inlineValue && t.value.startsWith("--")))) {
				throw new UsageError(
					`option ${echo(t.rawName)} needs a value (${echo(t.rawName)} ${spec.value ?? "VALUE"})`,
					"missing_value",
					t.rawName,
				);
			}
			seen.push({ name: t.name, raw: t.rawName, value: t.value, inline: t.inlineValue ?? false });
		}
	}
	return { positionals, seen };
}

/** Parse `argv` (without node and the script). Throws UsageError with one clear line. */
export function parseCommandLine(argv: string[]): CommandLine {
	const { positionals, seen } = scanTokens(argv);
	const globals: GlobalOptions = { roots: [], all: false, json: false, debug: false, help: false, version: false };
	const options: OptionValues = {};
	const first = positionals.shift();
	let command: CommandName | undefined;
	if (first !== undefined) {
		if (!isCommand(first))
			throw new UsageError(
				`unknown command "${echo(first)}"${didYouMean(first, Object.keys(COMMANDS))}; commands: ${Object.keys(COMMANDS).join(", ")}`,
				"unknown_command",
				"COMMAND",
			);
		command = first;
	}
	const own = command ? COMMANDS[command].options : {};
	for (const o of seen) {
		const global = GLOBAL_OPTIONS[o.name];
		if (global) {
			setGlobal(globals, o.name, o.value);
			continue;
		}
		if (!Object.hasOwn(own, o.name)) {
			throw new UsageError(
				command
					? `option ${echo(o.raw)} does not apply to ${command}`
					: `option ${echo(o.raw)} needs a command before it`,
				command ? "option_not_applicable" : "missing_command",
				o.raw,
			);
		}
		const spec = own[o.name] as OptionSpec;
		if (spec.kind === "boolean") options[o.name] = true;
		else if (spec.kind === "strings")
			options[o.name] = [...((options[o.name] as string[] | undefined) ?? []), o.value ?? ""];
		else if (options[o.name] !== undefined)
			throw new UsageError(`option ${echo(o.raw)} given twice`, "duplicate_option", o.raw);
		else options[o.name] = o.value;
	}
	if (command === undefined) {
		if (!globals.help && !globals.version)
			throw new UsageError("missing command; run pi-event-index help", "missing_command");
		return { positionals, options, globals };
	}
	if (!globals.help) {
		const spec = COMMANDS[command];
		if (positionals.length < spec.minArgs || positionals.length > spec.maxArgs) {
			const usage = `pi-event-index ${command}${spec.args ? ` ${spec.args}` : ""}`;
			const got = positionals.length === 0 ? "none" : positionals.map((p) => JSON.stringify(echo(p))).join(" ");
			throw new UsageError(`${command} takes ${describeCount(spec)} (usage: ${usage}); got ${got}`, "wrong_arguments");
		}
	}
	return { command, positionals, options, globals };
}

/** "unknown option -x", with the closest option and, for a word starting with "-", how to search for it. */
function unknownOption(raw: string, known: string[]): string {
	const name = raw.replace(/^-+/, "");
	const hint = raw.startsWith("--") ? didYouMean(name, known, (k) => `--${k}`) : "";
	const shown = echo(raw);
	return `unknown option ${shown}${hint}; a search term that starts with "-" goes after --, e.g. pi-event-index search -- ${raw.startsWith("--") ? shown : `${shown}…`}`;
}

function describeCount(spec: CommandSpec): string {
	if (spec.maxArgs === 0) return "no arguments";
	if (spec.maxArgs === Number.POSITIVE_INFINITY) return `${spec.args}`;
	if (spec.minArgs === spec.maxArgs) return spec.args;
	return `at most ${spec.maxArgs} argument`;
}

function setGlobal(g: GlobalOptions, name: string, value: string | undefined): void {
	switch (name) {
		case "agent-dir":
			g.agentDir = value;
			break;
		case "index-dir":
			g.indexDir = value;
			break;
		case "workspace":
			g.workspace = value;
			break;
		case "root":
			if (value !== undefined) g.roots.push(value);
			break;
		case "all":
		case "json":
		case "debug":
		case "help":
		case "version":
			g[name] = true;
			break;
	}
}

/** A string option's value, or undefined. */
export function stringOption(options: OptionValues, name: string): string | undefined {
	const v = options[name];
	return typeof v === "string" ? v : undefined;
}

/** A boolean option. */
export function flagOption(options: OptionValues, name: string): boolean {
	return options[name] === true;
}

/** A non-negative (or, with `positive`, ≥ 1) integer option, at most `max`; a clear UsageError otherwise. */
export function intOption(options: OptionValues, name: string, positive = false, max?: number): number | undefined {
	const v = stringOption(options, name);
	if (v === undefined) return undefined;
	const min = positive ? 1 : 0;
	if (max !== undefined && /^\d+$/.test(v.trim()) && Number(v) > max) {
		throw new UsageError(`option --${name} must be at most ${max}, got "${echo(v)}"`, "invalid_value", `--${name}`);
	}
	if (!/^\d+$/.test(v.trim()) || Number(v) < min || !Number.isSafeInteger(Number(v))) {
		throw new UsageError(
			`option --${name} must be ${positive ? "a positive" : "a non-negative"} integer, got "${echo(v)}"`,
			"invalid_value",
			`--${name}`,
		);
	}
	return Number(v);
}
