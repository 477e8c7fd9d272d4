/**
 * Regression: during another process's catch-up a tool call's sync waited up to 1.7 s (p95 730 ms) for the write
 * lock, even when the caller's file had nothing new. An unchanged file is now answered without the lock, and
 * catch-up steps aside between batches while a hot-path writer has announced a write.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { announceWrite, writeDone, yieldToAnnouncedWriters } from "../../src/ingest/write-intent.js";
import { openDatabase } from "../../src/store/db.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../helpers/temp-store.js";

let root: string;
let m: IndexManager | undefined;
beforeEach(async () => {
	root = await tempDir();
});
afterEach(async () => {
	await m?.close();
	rmSync(root, { recursive: true, force: true });
});

describe("hot path vs. a writer holding the lock", () => {
	it("syncing an unchanged file does not wait for the write lock", async () => {
		const sessions = join(root, "sessions");
		mkdirSync(sessions);
		const f = lineFactory();
		const path = join(sessions, "s.jsonl");
		writeFileSync(path, f.header() + f.user("hello"));
		m = await IndexManager.open({ indexDir: join(root, "index"), roots: [], useWorker: false });
		expect((await m.syncFile(path)).status).toBe("indexed");
		// Another connection (as another process's catch-up would) holds the write lock.
		const other = await openDatabase(m.store.path, { fileMustExist: true });
		other.exec("BEGIN IMMEDIATE");
		try {
			const started = Date.now();
			expect((await m.syncFile(path)).status).toBe("unchanged");
			// Without the lock-free check this waits for busy_timeout (10 s) and then fails.
			expect(Date.now() - started).toBeLessThan(2_000);
		} finally {
			other.exec("ROLLBACK");
			other.close();
		}
	});
});

describe("write intents", () => {
	const settled = (p: Promise<void>) => {
		const state = { done: false };
		p.then(() => {
			state.done = true;
		});
		return state;
	};
	const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

	it("catch-up steps aside while an announced write is open and goes on when it is done", async () => {
		announceWrite(root);
		const memo = { handled: 0 };
		const waiting = settled(yieldToAnnouncedWriters(root, memo));
		await sleep(60);
		expect(waiting.done).toBe(false);
		writeDone(root);
		await sleep(60);
		expect(waiting.done).toBe(true);
	});

	it("never waits twice for the same announcement, so a busy writer cannot starve catch-up", async () => {
		announceWrite(root);
		const memo = { handled: 0 };
		await yieldToAnnouncedWriters(root, memo);
		const again = settled(yieldToAnnouncedWriters(root, memo));
		await sleep(20);
		expect(again.done).toBe(true);
	});

	it("nothing announced: catch-up does not wait", async () => {
		const waiting = settled(yieldToAnnouncedWriters(root, { handled: 0 }));
		await sleep(20);
		expect(waiting.done).toBe(true);
	});
});
