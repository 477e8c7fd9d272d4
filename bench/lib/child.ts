/** Run one benchmark task in a fresh Node process (isolated RSS and event loop) and return its JSON result. */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const CHILD = join(dirname(fileURLToPath(import.meta.url)), "..", "child.ts");
/** Marker before the JSON result on the child's stdout. */
export const RESULT_PREFIX = "@@BENCH_RESULT ";

/** Spawn `node --import tsx bench/child.ts <task> <json>`; rejects with the child's stderr on failure. */
export function runChild<T>(
	task: string,
	args: unknown,
	options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<T> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(
			process.execPath,
			[...(options.nodeArgs ?? []), "--import", "tsx", CHILD, task, JSON.stringify(args)],
			{ env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] },
		);
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => {
			out += d;
		});
		child.stderr.on("data", (d) => {
			err += d;
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30 * 60_000);
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			const line = out.split("\n").find((l) => l.startsWith(RESULT_PREFIX));
			if (code === 0 && line) {
				resolvePromise(JSON.parse(line.slice(RESULT_PREFIX.length)) as T);
				return;
			}
			const tail = (err || out).trim().split("\n").slice(-6).join("\n");
			reject(new Error(`bench task ${task} failed (${signal ?? `exit ${code}`}): ${tail}`));
		});
	});
}
