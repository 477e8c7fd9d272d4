/**
 * Real child processes for tests: one spawn-and-collect (stdout, stderr, exit, an optional timeout that kills the
 * child or its whole process group) behind every helper that runs a program to completion, and long-running children
 * whose output lines a test watches while they run.
 */
import type { ChildProcess } from "node:child_process";

/** What a finished child did. */
export interface ChildOutput {
	stdout: string;
	stderr: string;
	/** Exit code, or null when killed by a signal. */
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	/** True when `timeoutMs` ran out and the child was killed. */
	timedOut: boolean;
}

/** Options of {@link collectOutput}. */
export interface CollectOptions {
	/** SIGKILL the child after this long; none: wait as long as it runs. */
	timeoutMs?: number;
	/** Kill its whole process group (spawn it `detached`), so whatever it started ends too. */
	group?: boolean;
}

/** Collects a started child's stdout and stderr until it closes; rejects when it could not be started. */
export function collectOutput(child: ChildProcess, options: CollectOptions = {}): Promise<ChildOutput> {
	return new Promise((resolve, reject) => {
		let stdout = "";
		let stderr = "";
		let timedOut = false;
		child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		const timer =
			options.timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						kill(child, options.group ?? false);
					}, options.timeoutMs);
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("close", (exitCode, signal) => {
			clearTimeout(timer);
			resolve({ stdout, stderr, exitCode, signal, timedOut });
		});
	});
}

/** SIGKILLs the child, or its process group when `group` (falling back to the child when it has none). */
function kill(child: ChildProcess, group: boolean): void {
	if (group && child.pid !== undefined) {
		try {
			process.kill(-child.pid, "SIGKILL");
			return;
		} catch {
			// No such group (not detached, or already gone): end the child itself.
		}
	}
	child.kill("SIGKILL");
}

/** A running child a test watches: its stdout lines so far, its stderr so far, and its exit code. */
export type WatchedChild = ChildProcess & { out: string[]; err: () => string; exited: Promise<number | null> };

/** Children started by one test file, watched while they run; `killAll` (in afterEach) ends those still running. */
export class ChildGroup {
	private readonly started: WatchedChild[] = [];

	/** Watches `child` (stdout and stderr piped); a non-zero exit is logged with its stderr under `name`. */
	watch(child: ChildProcess, name: string): WatchedChild {
		const p = child as WatchedChild;
		p.out = [];
		let err = "";
		p.err = () => err;
		p.stdout?.on("data", (d: Buffer) => p.out.push(...d.toString().split("\n").filter(Boolean)));
		p.stderr?.on("data", (d: Buffer) => {
			err += d.toString();
		});
		p.exited = new Promise((resolve) =>
			p.on("exit", (code) => {
				if (code !== 0 && code !== null) console.error(`${name} exited ${code}: ${err}`);
				resolve(code);
			}),
		);
		this.started.push(p);
		return p;
	}

	/** SIGKILLs every watched child that has not exited. */
	killAll(): void {
		for (const c of this.started.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
	}
}

/** Polls `cond` every 20 ms until it holds; throws after `ms`. */
export async function waitFor(cond: () => boolean, ms: number): Promise<void> {
	const end = Date.now() + ms;
	while (!cond()) {
		if (Date.now() > end) throw new Error("timed out waiting");
		await new Promise((r) => setTimeout(r, 20));
	}
}
