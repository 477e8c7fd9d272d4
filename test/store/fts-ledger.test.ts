/**
 * The commit ledger of a store's two files (src/store/fts-ledger.ts): a transaction that reached one file only is
 * repaired by the next writer, and `verify` then finds nothing. Real SQLite files, real session files; the torn
 * commit is made by real code whose full-text writes land on the other side of the split.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { catchUp } from "../../src/ingest/catch-up.js";
import { directFtsWrites, type FtsWrites } from "../../src/ingest/source-rows.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { ftsFilePath, openDatabase } from "../../src/store/db.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { readLedger } from "../../src/store/fts-ledger.js";
import { openStore } from "../../src/store/open-store.js";
import { computeCoverage } from "../../src/store/source-counts.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir, tempGeneration } from "./temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

async function store() {
	const { db, sessions } = await tempGeneration("pei-ledger-", cleanups);
	const lines = lineFactory({ prefix: "a" });
	const path = join(sessions, "a.jsonl");
	writeFileSync(path, lines.header() + lines.user("the first question about lighthouses"));
	const roots = [{ path: sessions, subfolders: false }];
	expect((await new SourceSyncer(db).sync(path)).status).toBe("indexed");
	appendFileSync(path, lines.assistant("an answer naming the kestrel"));
	return { db, path, roots };
}

/** Full-text writes lost with their half of the ledger: what a kill between a transaction's two commits leaves. */
const lost: FtsWrites = { direct: true, begin() {}, insert() {}, delete() {}, seal() {}, abandon() {} };

const hits = (db: SqliteDb, word: string) =>
	(db.prepare(`SELECT count(*) AS n FROM fragments_fts WHERE fragments_fts MATCH '${word}'`).get() as { n: number }).n;

describe("the commit ledger of the two store files", () => {
	it("a transaction that reached the store file only is repaired by the next writer (its source indexed again)", async () => {
		const { db, path, roots } = await store();
		// The store file's commit lands; the full-text file's never does.
		expect((await new SourceSyncer(db, {}, lost).sync(path)).status).toBe("indexed");
		expect(readLedger(db, "store").seq).toBe(readLedger(db, "fts").seq + 1);
		expect(hits(db, "kestrel")).toBe(0);
		expect(verifyIndex(db, roots).differences.map((d) => d.kind)).toContain("fts-differs");
		// Coverage follows the full-text file: the source whose words are missing is pending, not indexed.
		expect(computeCoverage(db)).toMatchObject({ indexed: 0, pending: 1, partial: true });

		// The next writer repairs first: the torn source goes, and this sync indexes it again from byte 0.
		const next = await new SourceSyncer(db).sync(path);
		expect(next.status).toBe("indexed");
		expect(readLedger(db, "store").seq).toBe(readLedger(db, "fts").seq);
		expect(hits(db, "kestrel")).toBe(1);
		expect(hits(db, "lighthouses")).toBe(1);
		expect(verifyIndex(db, roots).differences).toEqual([]);
	});

	it("a transaction that reached the full-text file only is repaired by the next writer (its words removed)", async () => {
		const { db, path, roots } = await store();
		// The full-text writes commit on a connection of their own; the store file's transaction then rolls back.
		const side = await openDatabase(ftsFilePath(db.path), { fts: false });
		cleanups.unshift(() => side.close());
		const committed = directFtsWrites({
			...db,
			prepare: (sql: string) => side.prepare(sql.replaceAll("fts.fts_meta", "fts_meta")),
		} as typeof db);
		const syncer = new SourceSyncer(db, {}, committed);
		// A deferred transaction write-locks only the store file, so the other connection can write the full-text file.
		db.exec("BEGIN");
		syncer.beginWrite();
		expect((await syncer.sync(path, { inTransaction: true })).status).toBe("indexed");
		syncer.sealWrite();
		db.exec("ROLLBACK");
		expect(readLedger(db, "fts").seq).toBe(readLedger(db, "store").seq + 1);
		expect(hits(db, "kestrel")).toBe(1);
		expect(verifyIndex(db, roots).differences.map((d) => d.kind)).toContain("fts-differs");

		const next = await new SourceSyncer(db).sync(path);
		expect(next.status).toBe("indexed");
		expect(readLedger(db, "store").seq).toBe(readLedger(db, "fts").seq);
		expect(hits(db, "kestrel")).toBe(1);
		expect(verifyIndex(db, roots).differences).toEqual([]);
	});

	it("a store opened after a torn commit is repaired at once, before any writer comes", async () => {
		const t = tempDir("pei-ledger-open-");
		cleanups.push(t.cleanup);
		const sessions = join(t.dir, "sessions");
		mkdirSync(sessions);
		const path = join(sessions, "a.jsonl");
		const lines = lineFactory({ prefix: "a" });
		writeFileSync(path, lines.header() + lines.user("a question about the kestrel"));
		const first = await openStore({ dir: join(t.dir, "index") });
		if (!first.ok) throw new Error(first.error);
		expect((await new SourceSyncer(first.store.db, {}, lost).sync(path)).status).toBe("indexed");
		first.store.close();

		const second = await openStore({ dir: join(t.dir, "index") });
		if (!second.ok) throw new Error(second.error);
		cleanups.unshift(() => second.store.close());
		const db = second.store.db;
		expect(readLedger(db, "store").seq).toBe(readLedger(db, "fts").seq);
		// The torn source is gone (its file shows as not indexed yet), and nothing in the index disagrees with its files.
		const differences = verifyIndex(db, [{ path: sessions, subfolders: false }]).differences;
		expect(differences.map((d) => d.kind)).toEqual(["not-indexed"]);
	});

	it("a two-thread pass stops on files a transaction apart instead of counting on; the next pass repairs them", async () => {
		const { db, path, roots } = await store();
		const [sessions] = roots.map((r) => r.path);
		const lines = lineFactory({ prefix: "n" });
		writeFileSync(join(sessions as string, "n.jsonl"), lines.header() + lines.user("a new file about the osprey"));
		// Once the pass has begun, another writer's transaction reaches the store file only (its process killed).
		let torn = false;
		const onProgress = () => {
			if (torn) return;
			torn = true;
			void new SourceSyncer(db, {}, lost).sync(path); // one small batch: done before it returns
		};
		// The pass's full-text thread finds its file's count behind the store file's: nothing of its group is kept.
		await expect(catchUp(db, { roots, groupMs: 250, prefetchMinBytes: 0, onProgress })).rejects.toThrow(
			/a transaction apart/,
		);
		expect(torn).toBe(true);
		expect(readLedger(db, "store").seq).toBe(readLedger(db, "fts").seq + 1);

		// The next pass repairs first (the torn file's source goes) and indexes both files.
		const repaired = await catchUp(db, { roots, groupMs: 250 });
		expect(repaired.failed).toBe(0);
		expect(hits(db, "kestrel")).toBe(1);
		expect(hits(db, "osprey")).toBe(1);
		expect(verifyIndex(db, roots).differences).toEqual([]);
	});

	it("writes that agree leave nothing to repair: both halves count each transaction once", async () => {
		const { db, path, roots } = await store();
		const before = readLedger(db, "store").seq;
		expect((await new SourceSyncer(db).sync(path)).status).toBe("indexed");
		expect(readLedger(db, "store")).toEqual(readLedger(db, "fts"));
		expect(readLedger(db, "store").seq).toBe(before + 1);
		expect(verifyIndex(db, roots).differences).toEqual([]);
	});
});
