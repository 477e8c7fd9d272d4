/**
 * The prefetch thread of a bulk pass (prefetch.ts): a real worker thread parses and projects new files while this
 * thread writes. What it prepares may only change when rows are written, never what is written. Real SQLite files,
 * real session files, a real thread (Node and Bun).
 */
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CatchUpOptions, catchUp } from "../../src/ingest/catch-up.js";
import { PREFETCH_MIN_BYTES } from "../../src/ingest/catch-up-job.js";
import { HUGE_LINE_BYTES } from "../../src/ingest/chunk-reader.js";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { Prefetch } from "../../src/ingest/prefetch.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { createGeneration } from "../../src/store/generations.js";
import { loadTextDictionary } from "../../src/store/text-dictionary.js";
import { waitFor } from "../helpers/children.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../store/temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");

/** Small batches and chunks, so every generated file takes several batches and its states are planned. */
const SYNC = { batchBytes: 16 << 10, chunkBytes: 4 << 10 };

/**
 * Every fixture, and generated sessions that take several batches each: a /tree branch, a compaction, a malformed
 * line, one line of more than HUGE_LINE_BYTES (the thread leaves the rest of that file to the writer), and a last
 * line that is not finished yet.
 */
function writeCorpus(sessions: string): string[] {
	for (const dir of readdirSync(FIXTURES, { withFileTypes: true })) {
		if (!dir.isDirectory()) continue;
		for (const f of readdirSync(join(FIXTURES, dir.name))) {
			if (f.endsWith(".jsonl")) copyFileSync(join(FIXTURES, dir.name, f), join(sessions, `${dir.name}-${f}`));
		}
	}
	for (let i = 0; i < 8; i++) {
		const lines = lineFactory({ prefix: `g${i}` });
		let text = lines.header();
		for (let t = 0; t < 40; t++) {
			text += lines.user(`question ${i}.${t} about the parser café`);
			const fork = lines.leafId;
			text += lines.assistant(`answer ${i}.${t}: the build ran 東京 ${"detail ".repeat(40)}`);
			text += lines.toolResult(`call-${t}`, "bash", `output ${i}.${t}\n${"log line of the build\n".repeat(30)}`);
			if (t === 10) lines.branchFrom(fork);
			if (t === 20) text += lines.other({ type: "compaction", summary: "so far", firstKeptEntryId: fork });
			if (t === 25) text += "{not json\n";
			if (i === 3 && t === 30) text += lines.toolResult("big", "read", `huge ${"x".repeat(HUGE_LINE_BYTES)}`);
		}
		if (i === 7) text += lines.user("an unfinished line").slice(0, -10);
		writeFileSync(join(sessions, `gen-${i}.jsonl`), text);
	}
	return readdirSync(sessions).map((f) => join(sessions, f));
}

async function freshStore(): Promise<SqliteDb> {
	const t = tempDir("pei-prefetch-");
	const gen = await createGeneration(t.dir);
	cleanups.push(() => {
		gen.db.close();
		t.cleanup();
	});
	return gen.db;
}

/** Everything a pass writes, except when it wrote it. */
function dump(db: SqliteDb): string[] {
	db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(fts, fragments_fts, 'instance')");
	const rows = (sql: string) => (db.prepare(sql).all() as unknown[]).map((r) => JSON.stringify(r));
	return [
		...rows("SELECT * FROM events ORDER BY source_id, seq"),
		...rows("SELECT id, source_id, event_seq, ord, kind, hex(text), char_count, tool_name FROM fragments ORDER BY id"),
		...rows("SELECT * FROM attribute_sets ORDER BY id"),
		...rows(`SELECT path, offset, line_count, parse_state, head_hash, tail_hash, leaf_entry_id, entry_count,
			skipped_count, receipts, session_name, cwd, synced_at IS NOT NULL AS complete FROM sources ORDER BY path`),
		...rows("SELECT term, doc, col, offset FROM temp.vocab ORDER BY term, doc, col, offset"),
	];
}

/** A session file with one user line, a fresh store, and a prefetch thread started over the file. */
async function oneFilePrefetched(text: string) {
	const t = tempDir("pei-prefetch-one-");
	cleanups.push(t.cleanup);
	const lines = lineFactory({ prefix: "o" });
	const path = join(t.dir, "one.jsonl");
	writeFileSync(path, lines.header() + lines.user(text));
	const db = await freshStore();
	const prefetch = await Prefetch.start([path], { batchBytes: 1 << 20, chunkBytes: 64 << 10, maxLineBytes: 1 << 20 });
	if (!prefetch) throw new Error("the prefetch thread did not start");
	cleanups.push(() => void prefetch.close());
	return { t, lines, path, db, prefetch };
}

describe("prefetch thread", () => {
	it("a pass with the thread writes exactly what a pass without it writes, most of it prepared by the thread", async () => {
		const t = tempDir("pei-prefetch-corpus-");
		cleanups.push(t.cleanup);
		const files = writeCorpus(t.dir);
		const roots = [{ path: t.dir, subfolders: false }];
		const options: CatchUpOptions = { roots, sync: SYNC, groupMs: 250 };

		const alone = await freshStore();
		const one = await catchUp(alone, options);
		const paired = await freshStore();
		const two = await catchUp(paired, { ...options, prefetchMinBytes: 0 });

		expect(one.errors).toEqual([]);
		expect(two.errors).toEqual([]);
		expect(one.prefetchedBytes).toBe(0);
		// The paired pass wrote its full-text rows from a thread of their own; the dumps below include every FTS term.
		expect([one.fullTextThread, two.fullTextThread]).toEqual([false, true]);
		const total = files.reduce((n, f) => n + statSync(f).size, 0);
		// All but the huge line's file past that line (and the unfinished line) came from the thread.
		expect(two.prefetchedBytes).toBeGreaterThan(total - 3 * HUGE_LINE_BYTES);
		expect(dump(paired)).toEqual(dump(alone));
		// Both passes sampled the same text dictionary first: the thread's rows and the writer's own are packed alike.
		expect(loadTextDictionary(paired)?.length).toBeGreaterThan(1_000);
		expect(loadTextDictionary(paired)).toEqual(loadTextDictionary(alone));
		expect(verifyIndex(paired, roots).differences).toEqual([]);
	});

	it("regression: a file that changed after the thread read it is read again by the writer, not taken stale", async () => {
		const { t, lines, path, db, prefetch } = await oneFilePrefetched("before the thread read it");
		const syncer = new SourceSyncer(db);
		// Waits until the thread has opened the file (and so prepared it as it was).
		expect(prefetch.plan(path)).toEqual({ plan: undefined });
		appendFileSync(path, lines.user("appended after the thread read it"));

		const result = await syncer.sync(path, { prepared: prefetch });
		expect(result.status).toBe("indexed");
		expect(result.entriesAdded).toBe(2);
		expect(prefetch.stats.chunks).toBe(0);
		const texts = db.prepare("SELECT text FROM fragments ORDER BY id").all() as Array<{ text: string }>;
		expect(texts.map((r) => r.text)).toEqual(["before the thread read it", "appended after the thread read it"]);
		expect(verifyIndex(db, [{ path: t.dir, subfolders: false }]).differences).toEqual([]);
	});

	it("a file unchanged since the thread read it is taken prepared", async () => {
		const { path, db, prefetch } = await oneFilePrefetched("read once, by the thread");
		const result = await new SourceSyncer(db).sync(path, { prepared: prefetch });
		expect(result.entriesAdded).toBe(1);
		expect(prefetch.stats).toEqual({ chunks: 1, bytes: statSync(path).size });
	});

	it("Pi's catch-up uses one thread unless configured; two from the index worker prepare what it writes", async () => {
		const t = tempDir("pei-prefetch-manager-");
		cleanups.push(t.cleanup);
		const sessions = join(t.dir, "sessions");
		mkdirSync(sessions);
		for (let i = 0; i * (1 << 20) < PREFETCH_MIN_BYTES; i++) {
			const lines = lineFactory({ prefix: `m${i}` });
			let text = lines.header();
			while (text.length < 1 << 20) text += lines.toolResult("c", "bash", `run ${i} ${"output line\n".repeat(200)}`);
			writeFileSync(join(sessions, `m-${i}.jsonl`), text);
		}
		const roots = [{ path: sessions, subfolders: false }];
		const run = async (name: string, threads?: 1 | 2) => {
			const m = await IndexManager.open({
				indexDir: join(t.dir, name),
				roots,
				useWorker: true,
				catchUpThreads: threads,
			});
			try {
				const outcome = await m.startCatchUp();
				if (outcome.kind !== "done") throw new Error(`catch-up ${outcome.kind}`);
				expect(verifyIndex(m.store.db, roots).differences).toEqual([]);
				return outcome.result;
			} finally {
				await m.close();
			}
		};
		expect((await run("default")).prefetchedBytes).toBe(0);
		const two = await run("two", 2);
		expect(two.errors).toEqual([]);
		expect(two.prefetchedBytes).toBe(two.bytesRead);
	});

	it("a paused thread waits (a contended pass reads for itself) and goes on where it was when resumed", async () => {
		const t = tempDir("pei-prefetch-pause-");
		cleanups.push(t.cleanup);
		const lines = lineFactory({ prefix: "p" });
		const path = join(t.dir, "long.jsonl");
		let text = lines.header();
		while (text.length < 3 << 20) text += lines.toolResult("c", "bash", `step ${"output line\n".repeat(100)}`);
		writeFileSync(path, text);
		const db = await freshStore();
		const prefetch = await Prefetch.start([path], { batchBytes: 1 << 20, chunkBytes: 64 << 10, maxLineBytes: 1 << 20 });
		if (!prefetch) throw new Error("the prefetch thread did not start");
		cleanups.push(() => void prefetch.close());
		prefetch.pause(true);
		await waitFor(() => prefetch.idle, 30_000);
		prefetch.pause(false);
		const result = await new SourceSyncer(db).sync(path, { prepared: prefetch });
		expect(result.status).toBe("indexed");
		expect(prefetch.stats.bytes).toBe(statSync(path).size);
		expect(prefetch.idle).toBe(false);
	});
});
