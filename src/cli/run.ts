/**
 * The program without the process: parse, resolve, run one command, print its result (human or `--json`) and
 * turn every failure into one clear stderr line. Returns the exit code; only the boundary (boundary.ts) exits.
 */
import type { Env } from "../config/pi-paths.js";
import { DriverLoadError } from "../index-admin.js";
import { packageVersion } from "../package-version.js";
import { clipText, echo, QueryError } from "../query/errors.js";
import {
	COMMANDS,
	type CommandLine,
	type CommandName,
	flagOption,
	intOption,
	parseCommandLine,
	SEARCH_LIMIT_BOUNDS,
	stringOption,
} from "./args.js";
import { styleFor } from "./colour.js";
import { CliError, type CliErrorReport, EXIT, MAX_CLI_ERROR_CHARS, UsageError } from "./errors.js";
import { flagOfField } from "./fields.js";
import { commandHelp, programHelp } from "./help.js";
import type { ProgressMode } from "./progress.js";

/** The process as the program sees it. */
export interface CliIO {
	stdout(text: string): void;
	stderr(text: string): void;
	/** stderr is a terminal: progress is a redrawn bar. */
	stderrIsTTY: boolean;
	/** stdout is a terminal: the human output may be coloured (see colour.ts for NO_COLOR and FORCE_COLOR). */
	stdoutIsTTY: boolean;
	columns(): number;
	env: Env;
	cwd: string;
	/** Aborted on SIGINT. */
	signal: AbortSignal;
}

/** Environment variable that turns on stack traces for internal errors (like --debug). */
const ENV_DEBUG = "PI_EVENT_INDEX_DEBUG";

/** A command's result: the data (`--json`), its human view, and the exit code. */
interface Outcome {
	data: unknown;
	text: string;
	exitCode: number;
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
			if (!Object.hasOwn(COMMANDS, topic))
				throw new UsageError(`no help for unknown command "${echo(topic)}"`, "unknown_command", "COMMAND");
			return { data: null, text: commandHelp(topic as CommandName), exitCode: EXIT.ok };
		}
		return { data: null, text: programHelp(), exitCode: EXIT.ok };
	}
	// Each command's modules are loaded only when it runs: `--version` and `--help` stay instant.
	const [{ resolveContext }, { createProgress }] = await Promise.all([import("./context.js"), import("./progress.js")]);
	const ctx = resolveContext(line.globals, { env: io.env, cwd: io.cwd });
	if (ctx.refused) io.stderr(`pi-event-index: ${clipText(ctx.refused, MAX_CLI_ERROR_CHARS)}\n`);
	for (const p of ctx.problems)
		io.stderr(`pi-event-index: config problem (defaults used): ${clipText(p, MAX_CLI_ERROR_CHARS)}\n`);
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
	const style = styleFor(io.env, io.stdoutIsTTY, json);
	switch (command) {
		case "reindex": {
			const { formatReindex, reindexCommand } = await import("./reindex.js");
			const r = await reindexCommand(ctx, { full: flagOption(o, "full"), noWait: flagOption(o, "no-wait") }, hooks);
			return { data: r, text: formatReindex(r), exitCode: r.result.failed > 0 ? EXIT.failure : EXIT.ok };
		}
		case "status": {
			const { statusText, statusCommand } = await import("./status.js");
			const r = await statusCommand(ctx);
			return { data: r, text: statusText(r), exitCode: EXIT.ok };
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
			const limit = intOption(o, "limit", true, SEARCH_LIMIT_BOUNDS.max);
			const r = await searchCommand(ctx, req, { noSync, limit }, hooks);
			return { data: r.result, text: formatSearch(req.query, r.result, r.extras, style), exitCode: EXIT.ok };
		}
		case "sessions": {
			const [{ sessionsCommand, sessionsRequest }, { formatSessions }] = await Promise.all([
				import("./query.js"),
				import("./format.js"),
			]);
			const r = await sessionsCommand(ctx, sessionsRequest(o, io.cwd), noSync, hooks);
			return { data: r.list, text: formatSessions(r.list, r.files, style), exitCode: EXIT.ok };
		}
		case "read": {
			const [{ readCommand, readRequest }, { formatRead }] = await Promise.all([
				import("./query.js"),
				import("./format.js"),
			]);
			const r = await readCommand(ctx, readRequest(line.positionals, o), noSync, hooks);
			return { data: r, text: formatRead(r), exitCode: EXIT.ok };
		}
		case "forget": {
			const { forgetCommand, formatForget } = await import("./forget.js");
			const r = await forgetCommand(ctx, {
				session: line.positionals[0],
				workspace: line.globals.workspace === undefined ? undefined : ctx.workspace,
				before: stringOption(o, "before"),
				yes: flagOption(o, "yes"),
			});
			return { data: r, text: formatForget(r), exitCode: EXIT.ok };
		}
		case "unforget": {
			const { formatUnforget, unforgetCommand } = await import("./forget.js");
			const r = await unforgetCommand(ctx, line.positionals[0] ?? "");
			return { data: r, text: formatUnforget(r), exitCode: EXIT.ok };
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
	// Known before parsing, so a bad command line is reported as JSON too.
	let json = argv.slice(0, argv.includes("--") ? argv.indexOf("--") : undefined).includes("--json");
	let command: string | undefined;
	try {
		const line = parseCommandLine(argv);
		debug ||= line.globals.debug;
		json = line.globals.json;
		command = line.command;
		const outcome = await dispatch(line, io);
		const asJson = json && outcome.data !== null;
		io.stdout(`${asJson ? JSON.stringify(outcome.data, null, 2) : outcome.text}\n`);
		return outcome.exitCode;
	} catch (err) {
		return reportError(err, io, { debug, json, command });
	}
}

/** A QueryError as the CLI reports it: the field named by the flag the user typed. */
function fromQueryError(err: QueryError, command: string | undefined): CliError {
	const flag = err.field === undefined ? undefined : flagOfField(err.field, command);
	const message =
		flag !== undefined && err.message.startsWith(`"${err.field}"`)
			? `${flag}${err.message.slice(`"${err.field}"`.length)}`
			: err.message;
	return err.code === "invalid_request"
		? new UsageError(message, "invalid_value", flag ?? err.field)
		: new CliError(message, "not_found", EXIT.failure, flag ?? err.field);
}

/** The error as data: a CliError as is, a QueryError by its field, anything else an internal error. */
function asCliError(err: unknown, opts: ErrorContext): CliError {
	if (err instanceof CliError) return err;
	if (err instanceof QueryError) return fromQueryError(err, opts.command);
	// Not the program's fault, and its message says what to run.
	if (err instanceof DriverLoadError) return new CliError(err.message, "internal");
	const why = err instanceof Error ? err.message : String(err);
	return new CliError(`internal error: ${why}${opts.debug ? "" : " (run with --debug for details)"}`, "internal");
}

/** What the error report depends on besides the error. */
interface ErrorContext {
	debug: boolean;
	json: boolean;
	command?: string;
}

function reportError(err: unknown, io: CliIO, opts: ErrorContext): number {
	const e = asCliError(err, opts);
	const message = e.message.replace(/\s*\n\s*/g, " ");
	if (opts.json) {
		const report: CliErrorReport = {
			error: { code: e.code, message, ...(e.field !== undefined ? { field: e.field } : {}) },
		};
		io.stdout(`${JSON.stringify(report, null, 2)}\n`);
	} else io.stderr(`pi-event-index: ${message}\n`);
	if (opts.debug && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
	return e.exitCode;
}
