/**
 * Drives children/live-runtime.ts: a real process holding the index open through the extension's runtime, as a Pi
 * process does, answering one command at a time on stdin.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { type ChildGroup, type WatchedChild, waitFor } from "../helpers/children.js";
import { REPO_ROOT } from "../helpers/pi-cli.js";
import { CURRENT_RUNTIME, scriptCommand } from "../helpers/runtime.js";

const SCRIPT = join(import.meta.dirname, "children", "live-runtime.ts");

/** Starts the live runtime for `cwd` (watched by `group`) and waits until its index is open. */
export async function startLiveRuntime(
	group: ChildGroup,
	cwd: string,
	env: Record<string, string>,
	mode: "hold" | "catch-up" = "hold",
): Promise<WatchedChild> {
	const [command, args] = scriptCommand(CURRENT_RUNTIME, SCRIPT, mode === "catch-up" ? [cwd, "catch-up"] : [cwd]);
	const child = group.watch(
		spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] }),
		"live-runtime",
	);
	await waitFor(() => child.out.length > 0 || child.exitCode !== null, 60_000);
	if (child.out[0] !== JSON.stringify({ ready: true })) throw new Error(`live runtime did not open: ${child.err()}`);
	return child;
}

/** Sends one command; resolves with its JSON answer (throws after `ms`, or when the process exited). */
export async function ask(child: WatchedChild, command: string, ms = 60_000): Promise<Record<string, unknown>> {
	const seen = child.out.length;
	child.stdin?.write(`${command}\n`);
	await waitFor(() => child.out.length > seen || child.exitCode !== null, ms);
	const line = child.out[seen];
	if (line === undefined) throw new Error(`live runtime exited: ${child.err()}`);
	return JSON.parse(line) as Record<string, unknown>;
}
