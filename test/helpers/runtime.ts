/**
 * Runtime-aware spawning for tests that run real processes under Node AND under Bun (Pi's release binaries embed
 * Bun): TypeScript scripts (tsx loader on Node; Bun runs .ts itself) and the real `pi` CLI, like `runPi` in
 * pi-cli.ts but on a chosen runtime.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { HarnessReport } from "../fixtures/faux-provider.js";
import {
	FAUX_PROVIDER_EXTENSION,
	HARNESS_CACHE_DIR,
	PI_CLI,
	piEnv,
	REPO_ROOT,
	type RunPiOptions,
	type RunPiResult,
} from "./pi-cli.js";

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

/** Output of a finished process. */
export interface RunOutput {
	stdout: string;
	stderr: string;
	exitCode: number | null;
}

/** Runs `command args` to completion (stdin closed) and collects its output; `timeoutMs` kills it. */
export function runCommand(
	command: string,
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunOutput> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd ?? REPO_ROOT,
			env: options.env ?? process.env,
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (d: string) => {
			stdout += d;
		});
		child.stderr.setEncoding("utf8").on("data", (d: string) => {
			stderr += d;
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
		child.on("error", (err) => {
			clearTimeout(timer);
			reject(err);
		});
		child.on("close", (exitCode) => {
			clearTimeout(timer);
			resolvePromise({ stdout, stderr, exitCode });
		});
	});
}

let runCounter = 0;

/**
 * `runPi` on a chosen runtime: `<runtime> <pi cli.js> -p --no-extensions -e faux -e … --provider faux --model faux-1
 * <args>`, hermetic (temp agent dir, PI_OFFLINE=1, own TMPDIR, stdin ignored, own process group).
 */
export function runPiOn(runtime: Runtime, options: RunPiOptions): Promise<RunPiResult> {
	return runPiCommand(runtime, [runtimeBin(runtime), PI_CLI], options);
}

/**
 * `runPi` with any pi command line, e.g. `[compiledBinary]` or `[bun, cli.js]`; `label` names its private TMPDIR
 * (jiti's transpile cache differs per runtime and loader).
 */
export function runPiCommand(label: string, command: string[], options: RunPiOptions): Promise<RunPiResult> {
	const { agentDir, cwd } = options;
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	const tmp = options.tmpDir ?? join(HARNESS_CACHE_DIR, `tmp-${label}`);
	mkdirSync(tmp, { recursive: true });
	const reportFile = join(tmp, `report-${label}-${process.pid}-${++runCounter}-${Date.now()}.jsonl`);
	const extensions = [FAUX_PROVIDER_EXTENSION, ...(options.extensions ?? [])].flatMap((path) => ["-e", path]);
	const [executable, ...prefix] = command;
	const args = [...prefix, "-p", "--no-extensions", ...extensions, "--provider", "faux", "--model", "faux-1"];
	const env = piEnv(agentDir, tmp, {
		PI_HARNESS_REPORT: reportFile,
		...(options.script ? { PI_FAUX_SCRIPT: options.script } : {}),
		...options.env,
	});
	const timeoutMs = options.timeoutMs ?? 30_000;
	const started = Date.now();
	return new Promise((resolvePromise, reject) => {
		const child = spawn(executable, [...args, ...options.args], {
			cwd,
			env,
			stdio: ["ignore", "pipe", "pipe"],
			detached: true,
		});
		let stdout = "";
		let stderr = "";
		let timedOut = false;
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		const timer = setTimeout(() => {
			timedOut = true;
			try {
				if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
			} catch {
				child.kill("SIGKILL");
			}
		}, timeoutMs);
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("close", (exitCode, signal) => {
			clearTimeout(timer);
			const reports = existsSync(reportFile)
				? readFileSync(reportFile, "utf8")
						.split("\n")
						.filter((line) => line.trim() !== "")
						.map((line) => JSON.parse(line) as HarnessReport)
				: [];
			rmSync(reportFile, { force: true });
			const absolute = (file: string | undefined) => (file ? resolve(cwd, file) : undefined);
			const sessionFiles = [
				...new Set(reports.map((r) => absolute(r.sessionFile)).filter((f): f is string => !!f)),
			].filter((f) => existsSync(f));
			resolvePromise({
				stdout,
				stderr,
				exitCode,
				signal,
				timedOut,
				durationMs: Date.now() - started,
				reports,
				sessionFile: absolute(reports.at(-1)?.sessionFile),
				sessionFiles,
			});
		});
	});
}
