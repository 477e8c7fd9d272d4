/**
 * Fairness between a bulk catch-up and the hot path across processes. SQLite queues writers with a sleeping busy
 * handler, so a hot-path sync (a tool call waiting) kept losing the race to catch-up's back-to-back transactions:
 * seconds at worst. A hot-path writer now announces its write by touching a small file and
 * clears it when done; catch-up, between its batches, steps aside once per announcement while it is open.
 * Catch-up is never starved: it waits at most MAX_YIELD_MS per announcement and never twice for the same one.
 */
import { closeSync, futimesSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { openForWriteNoFollow } from "../files/safe-files.js";

const INTENT_FILE = "write-intent";
/** An announcement older than this is stale (its writer crashed or is very slow). */
const FRESH_MS = 300;
/** Longest a catch-up waits for one announced write. */
const MAX_YIELD_MS = 300;

function touch(indexDir: string, time: Date): void {
	try {
		// Through a descriptor opened without following a symlink: a planted link's target is never touched.
		const fd = openForWriteNoFollow(join(indexDir, INTENT_FILE));
		try {
			futimesSync(fd, time, time);
		} finally {
			closeSync(fd);
		}
	} catch {
		// A read-only index dir: there is no writing to announce anyway.
	}
}

/** Marks that this process is about to write (best effort: never fails the caller). */
export function announceWrite(indexDir: string): void {
	touch(indexDir, new Date());
}

/** Marks the announced write as done (the file's time goes back to the epoch). */
export function writeDone(indexDir: string): void {
	touch(indexDir, new Date(0));
}

/** The announcement's time; 0 when there is none. Asked once per chunk of a bulk pass: no exception when absent. */
function intentTime(indexDir: string): number {
	try {
		return lstatSync(join(indexDir, INTENT_FILE), { throwIfNoEntry: false })?.mtimeMs ?? 0;
	} catch {
		return 0;
	}
}

/** What a catch-up remembers between batches: the last announcement it already stepped aside for. */
export interface YieldMemo {
	handled: number;
}

/** True when a hot-path writer announced a write that `memo` has not yet stepped aside for (one stat, no wait). */
export function writerWaiting(indexDir: string, memo: YieldMemo): boolean {
	const announced = intentTime(indexDir);
	return announced > memo.handled && Date.now() - announced < FRESH_MS;
}

/**
 * Between catch-up batches: if a hot-path writer announced a write it has not yet yielded to, wait (15 ms steps)
 * until that writer is done or MAX_YIELD_MS passed, so its transaction gets the write lock first.
 */
export async function yieldToAnnouncedWriters(indexDir: string, memo: YieldMemo): Promise<void> {
	if (!writerWaiting(indexDir, memo)) return;
	const announced = intentTime(indexDir);
	memo.handled = announced;
	const deadline = Date.now() + MAX_YIELD_MS;
	while (Date.now() < deadline) {
		await new Promise((r) => setTimeout(r, 15));
		const now = intentTime(indexDir);
		if (now < announced || Date.now() - now >= FRESH_MS) return;
	}
}
