/**
 * Bulk passes (catch-up, rebuild): group commits, what happens when a batch fails inside a group, and the WAL a
 * pass leaves behind. Real SQLite files, real session files.
 */
import { appendFileSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CatchUpProgress } from "../../src/contract.js";
import { type CatchUpOptions, catchUp, PROGRESS_EVERY_MS } from "../../src/ingest/catch-up.js";
import { runCatchUpJob, tuneForBulkWrites } from "../../src/ingest/catch-up-job.js";
import { HUGE_LINE_BYTES } from "../../src/ingest/chunk-reader.js";
import { GroupCommit } from "../../src/ingest/group-commit.js";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { DEFAULT_MAX_LINE_BYTES } from "../../src/parse/parse-chunk.js";
import { QUERY_MMAP_BYTES, STORE_SCHEMAS, storeFiles } from "../../src/store/db.js";
import { createGeneration } from "../../src/store/generations.js";
import { openStore } from "../../src/store/open-store.js";
import { waitFor } from "../helpers/children.js";
import { lineFactory } from "../helpers/session-lines.js";
import { storeBytes, storeWalBytes } from "../helpers/store-files.js";
import { tempDir } from "../store/temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

function dirs() {
	const t = tempDir("pei-bulk-");
	cleanups.push(t.cleanup);
	const sessions = join(t.dir, "sessions");
	mkdirSync(sessions);
	return { root: t.dir, sessions, indexDir: join(t.dir, "index") };
}

/** Writes `count` sessions of `turns` user/assistant/tool-result turns each; returns their paths. */
function writeSessions(sessions: string, count: number, turns: number, prefix = "s"): string[] {
	const paths: string[] = [];
	for (let i = 0; i < count; i++) {
		const lines = lineFactory({ prefix });
		let text = lines.header();
		for (let t = 0; t < turns; t++) {
			text += lines.user(`question ${i}.${t} about the build`);
			text += lines.assistant(`answer ${i}.${t}: the build ran`);
			text += lines.toolResult(`call-${t}`, "bash", `output ${i}.${t}\n${"log line of the build\n".repeat(60)}`);
		}
		const path = join(sessions, `${prefix}-${String(i).padStart(3, "0")}.jsonl`);
		writeFileSync(path, text);
		paths.push(path);
	}
	return paths;
}

describe("bulk writes", () => {
	it("the index worker indexes lines at the line limit within its heap limits (one-byte, CJK and emoji text)", async () => {
		// WORKER_OLD_GENERATION_MB bounds the worker's heap; a line of DEFAULT_MAX_LINE_BYTES must still fit, or the
		// worker dies out of memory and every catch-up stops at that file.
		const { sessions, indexDir } = dirs();
		for (const [name, unit] of [
			["ascii", "word error build "],
			["cjk", "错误构建中文文本测试"],
			["emoji", "😀 x "],
		] as const) {
			const lines = lineFactory({ prefix: name });
			const text = unit.repeat(Math.floor((DEFAULT_MAX_LINE_BYTES - 4096) / Buffer.byteLength(unit)));
			writeFileSync(join(sessions, `${name}.jsonl`), lines.header() + lines.toolResult("c1", "bash", text));
		}
		const m = await IndexManager.open({ indexDir, roots: [{ path: sessions, subfolders: true }], useWorker: true });
		cleanups.unshift(() => void m.close());
		const outcome = await m.startCatchUp();
		expect(outcome.kind).toBe("done");
		if (outcome.kind !== "done") return;
		expect(outcome.result.errors).toEqual([]);
		expect(outcome.result.indexed).toBe(3);
	});

	it("a bulk connection reads without mmap and through 2 MiB of page cache a file (its RSS stays small), a query connection keeps both", async () => {
		const { indexDir } = dirs();
		const opened = await openStore({ dir: indexDir });
		if (!opened.ok) throw new Error(opened.error);
		cleanups.unshift(() => opened.store.close());
		expect(opened.store.db.pragma("mmap_size")).toBe(QUERY_MMAP_BYTES);
		const cacheKiB = () => STORE_SCHEMAS.map((s) => opened.store.db.pragma(`${s}.cache_size`));
		// The driver's own cache (better-sqlite3: 16 MiB; node:sqlite and bun:sqlite: SQLite's 2 MiB), never less.
		expect(cacheKiB().every((c) => Number(c) <= -2000)).toBe(true);
		tuneForBulkWrites(opened.store.db);
		expect(opened.store.db.pragma("mmap_size")).toBe(0);
		expect(cacheKiB()).toEqual(STORE_SCHEMAS.map(() => -2000));
	});

	it("a bulk pass sets how FTS5 writes for its threads: 8 MiB and merges of 8 with two, FTS5's defaults with one", async () => {
		const { indexDir } = dirs();
		const opened = await openStore({ dir: indexDir });
		if (!opened.ok) throw new Error(opened.error);
		cleanups.unshift(() => opened.store.close());
		const db = opened.store.db;
		const config = (d: typeof db) =>
			d.prepare("SELECT k, v FROM fragments_fts_config WHERE k IN ('automerge', 'hashsize') ORDER BY k").all();
		tuneForBulkWrites(db, 2);
		const two = [
			{ k: "automerge", v: 8 },
			{ k: "hashsize", v: 4 << 20 },
		];
		expect(config(db)).toEqual(two);
		// Another connection of the store sees the settings (FTS5 keeps them in its _config table).
		const other = await openStore({ dir: indexDir });
		if (!other.ok) throw new Error(other.error);
		cleanups.unshift(() => other.store.close());
		expect(config(other.store.db)).toEqual(two);
		tuneForBulkWrites(db, 1);
		expect(config(db)).toEqual([
			{ k: "automerge", v: 4 },
			{ k: "hashsize", v: 1 << 20 },
		]);
	});

	it("a catch-up leaves no WAL behind even while another connection keeps the database open", async () => {
		const { sessions, indexDir } = dirs();
		writeSessions(sessions, 40, 20);
		// The extension's own connection stays open for the whole pass (so closing the bulk one deletes nothing).
		const opened = await openStore({ dir: indexDir });
		if (!opened.ok) throw new Error(opened.error);
		cleanups.unshift(() => opened.store.close());
		const outcome = await runCatchUpJob({
			indexDir,
			roots: [{ path: sessions, subfolders: false }],
			extraFiles: [],
			workspaceDirs: [],
		});
		expect(outcome.kind).toBe("done");
		const db = join(indexDir, opened.store.file);
		expect(storeBytes(db)).toBeGreaterThan(500_000);
		expect(storeWalBytes(db)).toBe(0);
		const dirBytes = readdirSync(indexDir).reduce((n, f) => n + statSync(join(indexDir, f)).size, 0);
		expect(dirBytes).toBeLessThanOrEqual(1.1 * storeBytes(db));
		expect(verifyIndex(opened.store.db, [{ path: sessions, subfolders: false }]).differences).toEqual([]);
	});

	it("a catch-up gives back the pages it freed: no free pages are left in the file (regression)", async () => {
		// Rewritten files have their rows deleted and indexed again; the pages they held used to stay in the file as
		// free pages (up to 8 MiB of a 1 GB build, differing from build to build).
		const { sessions, indexDir } = dirs();
		const paths = writeSessions(sessions, 40, 20);
		const job = { indexDir, roots: [{ path: sessions, subfolders: false }], extraFiles: [], workspaceDirs: [] };
		expect((await runCatchUpJob(job)).kind).toBe("done");
		for (const path of paths.slice(0, 30)) {
			const lines = lineFactory({ prefix: "s" });
			writeFileSync(path, lines.header() + lines.user("a shorter session now"));
		}
		expect((await runCatchUpJob(job)).kind).toBe("done");
		const opened = await openStore({ dir: indexDir });
		if (!opened.ok) throw new Error(opened.error);
		cleanups.unshift(() => opened.store.close());
		const db = opened.store.db;
		for (const schema of STORE_SCHEMAS) {
			expect(db.pragma(`${schema}.auto_vacuum`)).toBe(2);
			expect(db.pragma(`${schema}.freelist_count`)).toBe(0);
			expect(db.pragma(`${schema}.integrity_check`)).toBe("ok");
		}
		expect(verifyIndex(db, job.roots).differences).toEqual([]);
	});

	it("a batch failing inside a group rolls the group back; its other files are indexed on their own", async () => {
		const { root, sessions } = dirs();
		const gen = await createGeneration(root);
		cleanups.unshift(() => gen.db.close());
		const db = gen.db;
		const [broken] = writeSessions(sessions, 1, 2, "a");
		const syncer = new SourceSyncer(db);
		expect((await syncer.sync(broken as string)).status).toBe("indexed");
		// A checkpoint whose parser state cannot be read makes the next batch of that file throw.
		db.prepare("UPDATE sources SET parse_state = 'not json' WHERE path = ?").run(broken);
		appendFileSync(broken as string, lineFactory({ prefix: "z" }).user("appended after the damage"));
		const others = writeSessions(sessions, 6, 3, "b");
		// Oldest last: the other files are already in the group when the broken one fails, so they are rolled back too.
		const past = new Date(Date.now() - 3_600_000);
		utimesSync(broken as string, past, past);

		const result = await catchUp(db, { roots: [{ path: sessions, subfolders: false }], groupMs: 60_000 });
		expect(result.failed).toBe(1);
		expect(result.errors.map((e) => e.path)).toEqual([broken]);
		expect(result.indexed).toBe(others.length);
		const rows = db.prepare("SELECT path, synced_at AS syncedAt, last_error AS lastError FROM sources").all() as Array<{
			path: string;
			syncedAt: number | null;
			lastError: string | null;
		}>;
		for (const path of others) {
			const row = rows.find((r) => r.path === path);
			expect(row?.syncedAt, path).not.toBeNull();
			expect(row?.lastError, path).toBeNull();
		}
		expect(rows.find((r) => r.path === broken)?.lastError).toMatch(/unreadable parser state/);
		const differences = verifyIndex(db, [{ path: sessions, subfolders: false }]).differences;
		expect(differences.filter((d) => d.path !== broken)).toEqual([]);
	});

	it("a batch holding a huge line writes the group's pending FTS terms out first (peak memory regression)", async () => {
		// A two-thread pass lets FTS5 hold up to 8 MiB of pending terms; a line of HUGE_LINE_BYTES used to add its own on top.
		const { root, sessions } = dirs();
		const gen = await createGeneration(root);
		cleanups.unshift(() => gen.db.close());
		writeSessions(sessions, 4, 5, "a");
		const huge = join(sessions, "huge.jsonl");
		const lines = lineFactory({ prefix: "h" });
		writeFileSync(huge, lines.header() + lines.toolResult("c1", "bash", "hugeword ".repeat(HUGE_LINE_BYTES / 8)));
		// Oldest last: the other files' terms are pending in the open group when the huge line's batch begins.
		const past = new Date(Date.now() - 3_600_000);
		utimesSync(huge, past, past);
		tuneForBulkWrites(gen.db, 2);
		const segments = () =>
			(
				gen.db.prepare("SELECT count(DISTINCT id >> 37) AS n FROM fragments_fts_data WHERE id >> 37 > 0").get() as {
					n: number;
				}
			).n;
		const result = await catchUp(gen.db, { roots: [{ path: sessions, subfolders: false }], groupMs: 60_000 });
		expect(result.indexed).toBe(5);
		// One group, one commit: the other files' terms in one segment, the huge line's in its own.
		expect(segments()).toBe(2);
		expect(verifyIndex(gen.db, [{ path: sessions, subfolders: false }]).differences).toEqual([]);
	});

	it("a group is due after its budget or at once when a writer is waiting, and commits its rows", async () => {
		const { root } = dirs();
		const gen = await createGeneration(root);
		cleanups.unshift(() => gen.db.close());
		let waiting = false;
		const group = new GroupCommit(gen.db, 60_000, () => waiting);
		expect(group.due()).toBe(false);
		group.join("x");
		gen.db.prepare("INSERT INTO meta (key, value) VALUES ('k', 'v')").run();
		expect(group.due()).toBe(false);
		waiting = true;
		expect(group.due()).toBe(true);
		group.commit();
		expect(group.due()).toBe(false);
		const other = await import("../../src/store/db.js").then((m) => m.openDatabase(gen.path, { readonly: true }));
		cleanups.unshift(() => other.close());
		expect(other.prepare("SELECT value FROM meta WHERE key = 'k'").get()).toEqual({ value: "v" });

		const timed = new GroupCommit(gen.db, 5);
		timed.enter();
		const start = performance.now();
		while (performance.now() - start < 10) {
			// spin past the budget
		}
		expect(timed.due()).toBe(true);
		expect(timed.rollback()).toEqual([]);
	});
});

describe("progress of a bulk pass", () => {
	/** A catch-up of `count` fresh sessions with `options`; its result and every progress report. */
	async function reportedPass(count: number, options: Partial<CatchUpOptions>) {
		const { sessions, indexDir } = dirs();
		writeSessions(sessions, count, 2);
		const opened = await openStore({ dir: indexDir });
		if (!opened.ok) throw new Error(opened.error);
		cleanups.unshift(() => opened.store.close());
		const seen: CatchUpProgress[] = [];
		const roots = [{ path: sessions, subfolders: false }];
		const result = await catchUp(opened.store.db, { ...options, roots, onProgress: (p) => seen.push(p) });
		return { result, seen };
	}

	it("is reported at its start, at most every PROGRESS_EVERY_MS after a file, and at its end with the whole pass", async () => {
		// One report per file cost a 1 GB cold build 0.7 s of its writing thread (10,000 messages to Pi's thread).
		const { result, seen } = await reportedPass(60, { groupMs: 250 });
		expect(result.done).toBe(60);
		expect(seen[0]).toMatchObject({ total: 60, done: 0 });
		expect(seen.at(-1)).toMatchObject({ total: 60, done: 60, entriesAdded: result.entriesAdded });
		// Reports in between are PROGRESS_EVERY_MS apart: as many as the pass's time allows, never one per file.
		const between = seen.slice(1, -1);
		expect(between.length).toBeLessThanOrEqual(Math.floor(result.elapsedMs / PROGRESS_EVERY_MS));
		for (let i = 1; i < between.length; i++) {
			expect(between[i].elapsedMs - between[i - 1].elapsedMs).toBeGreaterThanOrEqual(PROGRESS_EVERY_MS);
		}
	});

	it("ends with a report when the pass is stopped", async () => {
		let files = 0;
		const { result, seen } = await reportedPass(5, { shouldStop: () => files++ >= 2 });
		expect(result.stopped).toBe(true);
		expect(result.done).toBe(2);
		expect(seen.at(-1)).toMatchObject({ done: 2, stopped: true });
	});
});

describe("hot-path checkpoints", () => {
	it("a hot-path sync never checkpoints inside its commit; the WAL is checkpointed once it is quiet", async () => {
		const { sessions, indexDir } = dirs();
		const [file] = writeSessions(sessions, 1, 4_000);
		const manager = await IndexManager.open({ indexDir, roots: [{ path: sessions, subfolders: false }] });
		cleanups.unshift(() => void manager.close());
		const db = join(indexDir, manager.store.file);
		const before = storeBytes(db);
		const r = await manager.syncFile(file as string);
		expect(r.status).toBe("indexed");
		// More than SQLite's default 1000-page threshold went into a WAL and none of it into the database files.
		expect(Math.max(...storeFiles(db).map((f) => statSync(`${f.path}-wal`).size))).toBeGreaterThan(4 << 20);
		expect(storeBytes(db)).toBe(before);
		await waitFor(() => storeBytes(db) > before, 10_000);
	});
});
