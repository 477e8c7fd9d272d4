/**
 * FTS5 merges outside commits (src/store/fts-merge.ts): no commit that writes rows merges segments, bulk passes merge
 * between their transactions, a tool call's sync leaves its merges for later, and a merge never waits for a lock held
 * elsewhere. Real SQLite files, real session files, a second connection.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { catchUp } from "../../src/ingest/catch-up.js";
import { CATCH_UP_LOCK, catchUpActive } from "../../src/ingest/catch-up-job.js";
import { HotPathUpkeep } from "../../src/ingest/hot-path-upkeep.js";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { openDatabase, type SqliteDb } from "../../src/store/db.js";
import { mergeStep, mergeSteps } from "../../src/store/fts-merge.js";
import { takeLock } from "../../src/store/lock.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempStore } from "../helpers/temp-store.js";

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
	for (const c of cleanups.splice(0)) await c();
});

async function store() {
	const t = await tempStore();
	cleanups.push(() => t.cleanup());
	const sessions = join(t.dir, "sessions");
	mkdirSync(sessions);
	return { db: t.db, dir: t.dir, sessions };
}

/** A session file that gets one message of `words` distinct words per commit: `commits` syncs, each its own segment. */
async function bigCommits(db: SqliteDb, sessions: string, tag: string, commits: number, words = 30_000) {
	const path = join(sessions, `${tag}.jsonl`);
	const lines = lineFactory();
	writeFileSync(path, lines.header());
	const syncer = new SourceSyncer(db);
	for (let i = 0; i < commits; i++) {
		appendFileSync(path, lines.user(bigText(`${tag}${i}`, words)));
		expect((await syncer.sync(path)).status).toBe("indexed");
	}
}

/** Segments in the FTS index: the count at the head of FTS5's structure record (cookie, [V2 marker], levels, segments). */
function segments(db: SqliteDb): number {
	const row = db.prepare<[], { block: Uint8Array }>("SELECT block FROM fragments_fts_data WHERE id = 10").get();
	if (!row) return 0;
	const b = row.block;
	const v2 = b[4] === 0xff && b[5] === 0 && b[6] === 0 && b[7] === 1;
	const at = v2 ? 8 : 4;
	const varint = (i: number): [number, number] =>
		b[i] < 0x80 ? [b[i], i + 1] : [((b[i] & 0x7f) << 7) | b[i + 1], i + 2];
	const [, next] = varint(at);
	return varint(next)[0];
}

/** A message of `words` distinct words: one commit of it writes more than FTS5's 64-page unit of work. */
function bigText(tag: string, words = 30_000): string {
	return Array.from({ length: words }, (_, k) => `${tag}w${k}`).join(" ");
}

describe("FTS5 merges outside commits", () => {
	it("the migrated store has FTS5's automerge off", async () => {
		const { db } = await store();
		const row = db.prepare<[], { v: number }>("SELECT v FROM fragments_fts_config WHERE k = 'automerge'").get();
		expect(row?.v).toBe(0);
	});

	// Regression: with automerge, the commit that crossed a 64-page write boundary also merged 64 × levels pages
	// (40–130 ms on 1 GB), so a tool call's one-line sync could pay for the merge of a bulk writer's segments.
	it("regression: commits that write many pages add segments and merge none; mergeSteps then merges them", async () => {
		const { db, sessions } = await store();
		const before = segments(db);
		await bigCommits(db, sessions, "c", 6);
		expect(segments(db)).toBe(before + 6);
		const outcome = await mergeSteps(db);
		expect(outcome.done).toBe(true);
		expect(outcome.steps).toBeGreaterThan(0);
		expect(segments(db)).toBeLessThan(4);
		expect(mergeStep(db)).toBe(false);
		// The merged index still finds every commit's words.
		for (let i = 0; i < 6; i++) {
			const hit = db.prepare("SELECT count(*) AS n FROM fragments_fts WHERE fragments_fts MATCH ?").get(`c${i}w29999`);
			expect(hit).toEqual({ n: 1 });
		}
	});

	it("a bulk pass leaves nothing to merge: it merges between its groups and at its end", async () => {
		const { db, sessions } = await store();
		for (let f = 0; f < 12; f++) {
			const lines = lineFactory({ prefix: `f${f}` });
			writeFileSync(join(sessions, `f${f}.jsonl`), lines.header() + lines.user(bigText(`f${f}`, 8_000)));
		}
		// groupMs 0: every file is its own group, so the pass writes 12 segments.
		const result = await catchUp(db, { roots: [{ path: sessions, subfolders: false }], groupMs: 0 });
		expect(result.indexed).toBe(12);
		expect(segments(db)).toBeLessThan(4);
		expect(mergeStep(db)).toBe(false);
	});

	it("a tool call's sync merges later, off its own commit, until nothing is left to merge", async () => {
		const { dir, sessions } = await store();
		const path = join(sessions, "hot.jsonl");
		const lines = lineFactory();
		writeFileSync(path, lines.header());
		const manager = await IndexManager.open({ indexDir: dir, roots: [], useWorker: false });
		cleanups.unshift(() => manager.close());
		for (let i = 0; i < 6; i++) {
			appendFileSync(path, lines.user(bigText(`h${i}`)));
			expect((await manager.syncFile(path)).status).toBe("indexed");
		}
		const db = manager.store.db;
		// The deferred merge runs on timers: wait for its outcome, not for a duration.
		await expect.poll(() => segments(db), { timeout: 30_000, interval: 50 }).toBeLessThan(4);
		expect(mergeStep(db)).toBe(false);
	});

	it("the hot path leaves merging to a running catch-up (its segments are large), and merges once it ends", async () => {
		const { db, dir, sessions } = await store();
		await bigCommits(db, sessions, "k", 5, 10_000);
		const upkeep = new HotPathUpkeep(db, () => catchUpActive(dir));
		cleanups.unshift(() => upkeep.cancel());
		const lock = await takeLock(dir, CATCH_UP_LOCK);
		if (!lock.ok) throw new Error("lock not taken");
		const before = segments(db);
		expect(await upkeep.mergeSlice()).toBe("skipped");
		expect(segments(db)).toBe(before);
		await lock.handle.release();
		expect(await upkeep.mergeSlice()).toMatchObject({ steps: expect.any(Number) });
		expect(segments(db)).toBeLessThan(before);
	});

	it("a merge never waits for a write lock held by another connection", async () => {
		const { db, sessions } = await store();
		await bigCommits(db, sessions, "b", 5, 10_000);
		const other = await openDatabase(db.path);
		cleanups.unshift(() => {
			other.close();
		});
		other.exec("BEGIN IMMEDIATE");
		const started = performance.now();
		expect(await mergeSteps(db, { busyTimeoutMs: 0 })).toEqual({ steps: 0, done: false });
		expect(performance.now() - started).toBeLessThan(1_000);
		other.exec("ROLLBACK");
		expect((await mergeSteps(db, { busyTimeoutMs: 0 })).done).toBe(true);
	});
});
