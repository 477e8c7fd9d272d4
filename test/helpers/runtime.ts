/**
 * Runtime-aware spawning for tests that run real processes under Node AND under Bun (Pi's release binaries embed
 * Bun): TypeScript scripts (tsx loader on Node; Bun runs .ts itself) and the real `pi` CLI, like `runPi` in
 * pi-cli.ts but on a chosen runtime.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type ChildOutput, collectOutput } from "./children.js";
import { PI_CLI, REPO_ROOT, type RunPiOptions, type RunPiResult, runPi } from "./pi-cli.js";

/** A JavaScript runtime a test can start. */
export type Runtime = "node" | "bun";

/** The runtime this test process runs on. */
export const CURRENT_RUNTIME: Runtime =
	typeof (process.versions as Record<string, string | undefined>).bun === "string" ? "bun" : "node";

/** The Bun executable installed as a dev dependency (the npm `bun` package). */
export const BUN_BIN = join(REPO_ROOT, "node_modules", "bun", "bin", "bun.exe");

/** The Node executable: this process's own under Node; under Bun the one npm ran the script with. */
export function nodeBin(): string {
	if (CURRENT_RUNTIME === "node") return process.execPath;
	const fromNpm = process.env.npm_node_execpath;
	if (fromNpm && existsSync(fromNpm)) return fromNpm;
	throw new Error("no Node executable known inside Bun (run this test under Node)");
}

/** The executable of `runtime`. */
export function runtimeBin(runtime: Runtime): string {
	return runtime === "bun" ? BUN_BIN : nodeBin();
}

/** Command and arguments that run the TypeScript (or JavaScript) file `script` with `args` under `runtime`. */
export function scriptCommand(runtime: Runtime, script: string, args: string[] = []): [string, string[]] {
	return runtime === "bun" ? [BUN_BIN, [script, ...args]] : [nodeBin(), ["--import", "tsx", script, ...args]];
}

/** Starts `script` under `runtime` in the repository root, stdout and stderr piped. */
export function startScript(runtime: Runtime, script: string, args: string[] = []): ChildProcess {
	const [command, argv] = scriptCommand(runtime, script, args);
	return spawn(command, argv, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
}

/** Runs `command args` to completion (stdin closed) and collects its output; `timeoutMs` (default 60 s) kills it. */
export function runCommand(
	command: string,
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ChildOutput> {
	const child = spawn(command, args, {
		cwd: options.cwd ?? REPO_ROOT,
		env: options.env ?? process.env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	return collectOutput(child, { timeoutMs: options.timeoutMs ?? 60_000 });
}

/**
 * `runPi` on a chosen runtime: `<runtime> <pi cli.js> -p --no-extensions -e faux -e … --provider faux --model faux-1
 * <args>`, hermetic (temp agent dir, PI_OFFLINE=1, own TMPDIR per runtime, stdin ignored, own process group).
 */
export function runPiOn(runtime: Runtime, options: RunPiOptions): Promise<RunPiResult> {
	return runPi({ ...options, command: [runtimeBin(runtime), PI_CLI], label: runtime });
}
