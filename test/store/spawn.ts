/** Spawn test/store/child.ts as a real node process (tsx loader), optionally as another user. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { collectOutput } from "../helpers/children.js";

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Start the child with `args`; `uid`/`gid` run it as another user (needs root). */
export function startChild(args: string[], ids: { uid?: number; gid?: number } = {}): ChildProcess {
	return spawn(process.execPath, ["--import", "tsx/esm", CHILD, ...args], {
		cwd: ROOT,
		stdio: ["ignore", "pipe", "pipe"],
		...ids,
	});
}

/** Run the child to completion; resolves with its stdout, rejects on a non-zero exit. */
export async function runChild(args: string[], ids: { uid?: number; gid?: number } = {}): Promise<string> {
	const { exitCode, stdout, stderr } = await collectOutput(startChild(args, ids));
	if (exitCode !== 0) throw new Error(`child exited ${exitCode}: ${stderr}`);
	return stdout;
}

/** Resolves when the child's stdout contains `text`. */
export function waitForOutput(child: ChildProcess, text: string): Promise<void> {
	return new Promise((resolve, reject) => {
		let out = "";
		let err = "";
		child.stderr?.on("data", (d) => {
			err += d;
		});
		child.stdout?.on("data", (d) => {
			out += d;
			if (out.includes(text)) resolve();
		});
		child.on("exit", (code) => reject(new Error(`child exited ${code} before "${text}": ${out} ${err}`)));
	});
}
