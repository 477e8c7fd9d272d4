/**
 * Reading a lock's state without taking it (coverage, status, the manager's "is a catch-up running"): apart from
 * lock.ts, so that a reader never loads proper-lockfile. The lock is the directory `<dir>/<name>.lock-target.lock`;
 * its holder writes `<dir>/<name>.holder.json` beside it.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { readNoFollow } from "../files/safe-files.js";

/** Default staleness threshold (proper-lockfile's minimum is 2000 ms). */
export const DEFAULT_STALE_MS = 10_000;

/** Who holds a lock, for the status command. */
export interface LockHolderInfo {
	locked: boolean;
	/** mtime of the lock directory (refreshed by a live holder every stale/2). */
	mtimeMs?: number;
	/** True when the lock exists but is older than the default stale threshold. */
	stale?: boolean;
	/** Sidecar written by the holder (best effort; may be from a previous holder if it crashed). */
	holder?: { pid: number; hostname: string; acquiredAt: string };
}

/**
 * True when a live process holds the lock: it exists and its holder refreshed it within the stale period. A holder
 * that was killed leaves the lock behind; coverage must not say "rebuild running" for it.
 */
export function heldByLiveProcess(info: LockHolderInfo | undefined): boolean {
	return info?.locked === true && info.stale !== true;
}

/** The file a lock is taken on: the lock itself is the directory of this path plus `.lock`. */
export function targetPath(dir: string, name: string): string {
	return join(dir, `${name}.lock-target`);
}

/** The sidecar naming a lock's holder. */
export function holderPath(dir: string, name: string): string {
	return join(dir, `${name}.holder.json`);
}

/** Is lock `name` held, since when, and by whom (best effort). Never throws. */
export async function lockHolderInfo(dir: string, name: string): Promise<LockHolderInfo> {
	const lockDir = `${targetPath(dir, name)}.lock`;
	let mtimeMs: number;
	try {
		mtimeMs = statSync(lockDir).mtimeMs;
	} catch {
		return { locked: false };
	}
	const info: LockHolderInfo = { locked: true, mtimeMs, stale: mtimeMs < Date.now() - DEFAULT_STALE_MS };
	try {
		const holder = JSON.parse(readNoFollow(holderPath(dir, name))) as LockHolderInfo["holder"];
		if (holder && typeof holder.pid === "number") info.holder = holder;
	} catch {
		// No sidecar (or a torn one): the lock itself is what counts.
	}
	return info;
}
