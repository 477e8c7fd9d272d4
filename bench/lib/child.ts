/** Run one benchmark task in a fresh Node process (isolated RSS and event loop) and return its JSON result. */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const BENCH_LIB = dirname(fileURLToPath(import.meta.url));
const CHILD = join(BENCH_LIB, "..", "child.ts");
/**
 * The child as one plain ES module, so a task's process is Node running the shipped JavaScript (dist/), as Pi and the
 * CLI do. Under tsx every thread of the process also carried its loader: 35–58 MiB more RSS, which hid how much a
 * cold build grows over the 10-session run (figure 6). Written beside bench/lib so its `../../dist` paths hold.
 */
const CHILD_BUNDLE = join(BENCH_LIB, "..", ".build", "child.mjs");
/** Marker before the JSON result on the child's stdout. */
export const RESULT_PREFIX = "@@BENCH_RESULT ";

let bundled = false;

/** Bundles bench/child.ts (its packages stay imports) once per run of the bench. */
function childScript(): string {
	if (!bundled) {
		buildSync({
			entryPoints: [CHILD],
			outfile: CHILD_BUNDLE,
			bundle: true,
			platform: "node",
			format: "esm",
			packages: "external",
			logLevel: "error",
		});
		bundled = true;
	}
	return CHILD_BUNDLE;
}

/** Spawn `node bench/.build/child.mjs <task> <json>`; rejects with the child's stderr on failure. */
export function runChild<T>(
	task: string,
	args: unknown,
	options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<T> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(process.execPath, [...(options.nodeArgs ?? []), childScript(), task, JSON.stringify(args)], {
			env: { ...process.env, ...options.env },
			stdio: ["ignore", "pipe", "pipe"],
		});
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
