/**
 * Runs the real `pi-event-index` program (bin/pi-event-index.cjs, a real node child process) in a hermetic
 * environment, and lays out real Pi session fixtures in a temporary agent dir the way Pi does.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import { collectOutput } from "../helpers/children.js";
import { CURRENT_RUNTIME, runtimeBin } from "../helpers/runtime.js";
import { lineFactory } from "../helpers/session-lines.js";

/** Repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The program's launcher, as installed by the package's `bin`. */
export const BIN = join(ROOT, "bin", "pi-event-index.cjs");

/** What one run of the program did. */
export interface CliRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Variables that decide colour: a test sets them itself (the runner's own FORCE_COLOR must not leak in). */
const COLOUR_VARIABLES = new Set(["FORCE_COLOR", "NO_COLOR"]);
/** Variables a test sets itself when it wants them: the colour ones, and where the program keeps its code cache. */
const OWN_VARIABLES = new Set([...COLOUR_VARIABLES, "XDG_CACHE_HOME"]);

/**
 * The environment minus every PI_*, colour and cache-folder variable, with HOME moved into `home` (no real ~/.pi or
 * ~/.cache is ever touched).
 */
export function hermeticEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (v !== undefined && !k.startsWith("PI_") && !OWN_VARIABLES.has(k)) env[k] = v;
	}
	return { ...env, HOME: home, ...extra };
}

/** Start the program with `args` (as another user when `ids` says so; needs root). */
export function startCli(
	args: string[],
	opts: { env: Record<string, string>; cwd?: string; ids?: { uid?: number; gid?: number } },
): ChildProcess {
	// The runtime running the tests (under `bun --bun`, process.execPath is a node shim that cannot be spawned).
	return spawn(runtimeBin(CURRENT_RUNTIME), [BIN, ...args], {
		cwd: opts.cwd ?? ROOT,
		env: opts.env,
		stdio: ["ignore", "pipe", "pipe"],
		...opts.ids,
	});
}

/** Collect a started child's output and exit code. */
export async function finished(child: ChildProcess): Promise<CliRun> {
	const { exitCode, stdout, stderr } = await collectOutput(child);
	return { code: exitCode, stdout, stderr };
}

/** Run the program to completion. */
export function cli(args: string[], opts: { env: Record<string, string>; cwd?: string }): Promise<CliRun> {
	return finished(startCli(args, opts));
}

/** Parse a run's stdout as JSON, with the run in the message when it is not JSON. */
export function json<T = Record<string, unknown>>(run: CliRun): T {
	try {
		return JSON.parse(run.stdout) as T;
	} catch {
		throw new Error(`not JSON (exit ${run.code}): ${run.stdout.slice(0, 500)} ${run.stderr.slice(0, 500)}`);
	}
}

/** Session ids of the fixtures the tests use. */
export const RICH = "01a236bd-dcb7-7287-9588-bf4e8d79a767";
export const FORK_FROM = "01a236bd-dce0-7166-9686-a20b6acb7c19";
export const PRINT_TOOL = "01a236bd-583b-73d6-bbe4-1debacdfe641";
export const ERRS = "0e0e0e0e-0000-4000-8000-00000000e225";
export const ARCHIVED = "0a0a0a0a-0000-4000-8000-0000000a2c41";

/** A tool result longer than one read window (entry r0000004 of the ERRS session, fragment r0000004#0). */
export const LONG_TEXT = Array.from({ length: 900 }, (_, i) => `line${i}`).join(" ");
export const LONG_ENTRY = "r0000004";

/**
 * An agent dir holding the pi-0.73.1 fixtures under `sessions/--<cwd>--/`, plus one written session with a failed
 * and a successful tool result (cwd /home/dev/errs). Returns the session files.
 */
export function makeAgentDir(agentDir: string): string[] {
	const files: string[] = [];
	const fixtures = join(ROOT, "fixtures", "pi-0.73.1");
	for (const name of readdirSync(fixtures).filter((n) => n.endsWith(".jsonl"))) {
		const header = JSON.parse(readFileSync(join(fixtures, name), "utf8").split("\n", 1)[0] ?? "{}") as { cwd: string };
		const dir = join(agentDir, "sessions", encodeSessionDirName(header.cwd));
		mkdirSync(dir, { recursive: true });
		copyFileSync(join(fixtures, name), join(dir, name));
		files.push(join(dir, name));
	}
	const f = lineFactory({ sessionId: ERRS, cwd: "/home/dev/errs", prefix: "r" });
	const dir = join(agentDir, "sessions", encodeSessionDirName("/home/dev/errs"));
	mkdirSync(dir, { recursive: true });
	const file = join(dir, "errs.jsonl");
	writeFileSync(
		file,
		f.header() +
			f.user("run the kaboom script") +
			f.toolResult("call_1", "bash", "kaboom: exit code 1, the build failed", true) +
			f.toolResult("call_2", "bash", "kaboom rerun: all green", false) +
			f.assistant("kaboom fixed") +
			f.toolResult("call_3", "read", LONG_TEXT),
	);
	files.push(file);
	return files;
}

/** An archive directory (outside the agent dir) with one session of cwd /archive/proj. */
export function makeArchive(dir: string): string {
	const f = lineFactory({ sessionId: ARCHIVED, cwd: "/archive/proj", prefix: "a" });
	mkdirSync(join(dir, "2025"), { recursive: true });
	const file = join(dir, "2025", "old.jsonl");
	writeFileSync(file, f.header() + f.user("where is the zebracorn") + f.assistant("the zebracorn is archived"));
	return file;
}

/** True when the text has a line that looks like a stack frame. */
export function hasStack(text: string): boolean {
	return /^\s+at /m.test(text);
}

/** The program in this process (runCli: everything but the process boundary), with captured output. */
export async function cliInProcess(
	args: string[],
	opts: { env: Record<string, string>; cwd?: string },
): Promise<CliRun> {
	const { runCli } = await import("../../src/cli/run.js");
	let stdout = "";
	let stderr = "";
	const code = await runCli(args, {
		stdout: (t) => {
			stdout += t;
		},
		stderr: (t) => {
			stderr += t;
		},
		stderrIsTTY: false,
		stdoutIsTTY: false,
		columns: () => 80,
		env: opts.env,
		cwd: opts.cwd ?? ROOT,
		signal: new AbortController().signal,
	});
	return { code, stdout, stderr };
}
