/**
 * The commit ledger of a store's two files. The full-text index lives in a file of its own (db.ts FTS_FILE_SUFFIX),
 * and SQLite commits each WAL file on its own: one connection's COMMIT writes the store file's WAL and then the
 * full-text file's, and a two-thread pass commits each group once in each file from two threads. A crash between the
 * two commits leaves the files one transaction apart (rows without their words, or words of rows that never were).
 *
 * So every write transaction that changes full-text rows counts itself in both files — `meta.fts_seq` and
 * `meta.fts_sources` in the store file, `fts_meta.seq` and `fts_meta.sources` in the full-text file — each half in its
 * own file's commit. Counts that differ mean the last such transaction reached one file only; it named its sources in
 * that file, so `repairLedger` removes those sources (their session files are indexed again from the start, the JSONL
 * being the truth) and every full-text row left without a fragment, then evens the counts. Opening a store, every
 * catch-up pass and every transaction of a connection that writes both files repair first (`repairTorn`); a
 * two-thread pass's full-text thread compares the counts at each commit instead (fts-thread.ts). So at most one
 * transaction is ever torn.
 */
import { FTS_SCHEMA } from "./db.js";
import type { SqliteDb, SqliteStatement } from "./driver.js";
import { cachedStatement } from "./statement-cache.js";

/** What one transaction wrote to the ledger of one file. */
export interface LedgerEntry {
	/** Transactions that changed full-text rows, counted in this file. */
	seq: number;
	/** The sources the last of them touched. */
	sources: number[];
}

/** The sources one write transaction touches, named in both halves when it commits. */
export class LedgerTouch {
	private readonly touched = new Set<number>();

	/** Records that the open transaction changes full-text rows of `sourceId`. */
	touch(sourceId: number): void {
		this.touched.add(sourceId);
	}

	/** The touched sources, emptying the record (for the next transaction). */
	take(): number[] {
		const sources = [...this.touched];
		this.touched.clear();
		return sources;
	}
}

/** Which file's half of the ledger: the store file's (`store`) or the full-text file's (`fts`). */
export type LedgerHalf = "store" | "fts";

/**
 * The table and keys of one half. `ftsSchema` names the schema the full-text file is on: FTS_SCHEMA on a store
 * connection, `main` on the full-text thread's own connection to that file alone.
 */
function place(half: LedgerHalf, ftsSchema: string) {
	return half === "store"
		? { table: "main.meta", seq: "fts_seq", sources: "fts_sources" }
		: { table: `${ftsSchema}.fts_meta`, seq: "seq", sources: "sources" };
}

/** Statements per connection: every write transaction of the hot path seals both halves, every search reads them. */
function statement(db: Pick<SqliteDb, "prepare">, sql: string): SqliteStatement {
	return cachedStatement<SqliteStatement>(db, sql);
}

/** Reads one half of the ledger (both start at 0 and no sources). */
export function readLedger(db: Pick<SqliteDb, "prepare">, half: LedgerHalf, ftsSchema = FTS_SCHEMA): LedgerEntry {
	const p = place(half, ftsSchema);
	const row = statement(
		db,
		`SELECT (SELECT value FROM ${p.table} WHERE key = '${p.seq}') AS seq,
			(SELECT value FROM ${p.table} WHERE key = '${p.sources}') AS sources`,
	).get() as { seq: string | null; sources: string | null } | undefined;
	const sources = JSON.parse(row?.sources ?? "[]") as unknown;
	return {
		seq: Number(row?.seq ?? 0),
		sources: Array.isArray(sources) ? sources.filter((s): s is number => Number.isInteger(s)) : [],
	};
}

/** True when both halves count the same transactions (one read of each file; a store connection). */
export function ledgerEven(db: Pick<SqliteDb, "prepare">): boolean {
	const row = statement(
		db,
		`SELECT coalesce((SELECT value FROM main.meta WHERE key = 'fts_seq'), '0') =
			coalesce((SELECT value FROM ${FTS_SCHEMA}.fts_meta WHERE key = 'seq'), '0') AS even`,
	).get() as { even: number };
	return row.even === 1;
}

/**
 * What the full-text file has not committed yet: the store file commits each write transaction before its full-text
 * file, so for a moment a source can be synced to its end while its words are not searchable (coverage must not count
 * it: source-counts.ts). `behind` is true when the store half counts more transactions than the full-text half;
 * `indexed` is how many of the sources the store half names are synced to their end without error.
 */
export interface FtsLag {
	behind: boolean;
	indexed: number;
}

/**
 * Reads both halves in one statement, which takes its snapshot of the store file before the full-text file's: a
 * full-text file at least as new as the store file it is compared with. A caller that counted sources before calling
 * this reads a store file here at least as new as the counted one (a counted source is only further along here).
 */
export function ftsLag(db: { prepare(sql: string): { get(...params: unknown[]): unknown } }): FtsLag {
	const store = place("store", FTS_SCHEMA);
	const fts = place("fts", FTS_SCHEMA);
	const value = (p: typeof store, key: string) => `(SELECT value FROM ${p.table} WHERE key = '${key}')`;
	const row = cachedStatement(
		db,
		`SELECT coalesce(CAST(${value(store, store.seq)} AS INTEGER), 0) > coalesce(CAST(${value(fts, fts.seq)} AS INTEGER), 0)
				AS behind,
			(SELECT count(*) FROM main.sources WHERE synced_at IS NOT NULL AND last_error IS NULL
				AND id IN (SELECT value FROM json_each(coalesce(${value(store, store.sources)}, '[]')))) AS indexed`,
	).get() as { behind: number; indexed: number };
	return row.behind === 1 ? { behind: true, indexed: row.indexed } : { behind: false, indexed: 0 };
}

/** Sets one half (inside the caller's transaction on that file). */
function writeLedger(db: Pick<SqliteDb, "prepare">, half: LedgerHalf, entry: LedgerEntry, ftsSchema: string): void {
	const p = place(half, ftsSchema);
	const put = statement(
		db,
		`INSERT INTO ${p.table} (key, value) VALUES (@key, @value) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
	);
	put.run({ key: p.seq, value: String(entry.seq) });
	put.run({ key: p.sources, value: JSON.stringify(entry.sources) });
}

/** Counts one more transaction in one file's half, naming the sources it touched (inside that transaction). */
export function sealLedger(
	db: Pick<SqliteDb, "prepare">,
	half: LedgerHalf,
	sources: number[],
	ftsSchema = FTS_SCHEMA,
): void {
	const p = place(half, ftsSchema);
	const put = statement(
		db,
		`INSERT INTO ${p.table} (key, value) VALUES (@key, @value)
		ON CONFLICT (key) DO UPDATE SET value = CASE WHEN key = '${p.seq}' THEN CAST(value AS INTEGER) + 1 ELSE excluded.value END`,
	);
	put.run({ key: p.seq, value: "1" });
	put.run({ key: p.sources, value: JSON.stringify(sources) });
}

/** What a repair did. */
export interface LedgerRepair {
	/** Sources removed so that their files are indexed again. */
	sources: number[];
	/** Full-text rows deleted that had no fragment. */
	orphans: number;
}

/**
 * Inside the caller's write transaction on a connection with both files: when the halves differ, removes the sources
 * either half names (their events and fragments go by cascade) and then every full-text row that has no fragment
 * (theirs, and the words of fragments that never reached the store file), then evens the counts. Returns undefined
 * when the halves agree.
 */
export function repairLedger(db: Pick<SqliteDb, "prepare">): LedgerRepair | undefined {
	if (ledgerEven(db)) return undefined;
	const store = readLedger(db, "store");
	const fts = readLedger(db, "fts");
	const sources = [...new Set([...store.sources, ...fts.sources])];
	const removeSource = db.prepare("DELETE FROM main.sources WHERE id = ?");
	for (const id of sources) removeSource.run(id);
	const orphans = db
		.prepare<[], { id: number }>(
			`SELECT id FROM ${FTS_SCHEMA}.fragments_fts_docsize WHERE id NOT IN (SELECT id FROM main.fragments)`,
		)
		.all();
	const remove = db.prepare(`DELETE FROM ${FTS_SCHEMA}.fragments_fts WHERE rowid = ?`);
	for (const { id } of orphans) remove.run(id);
	const even = { seq: Math.max(store.seq, fts.seq), sources: [] };
	writeLedger(db, "store", even, FTS_SCHEMA);
	writeLedger(db, "fts", even, FTS_SCHEMA);
	return { sources, orphans: orphans.length };
}

/**
 * Repairs a torn transaction (`repairLedger`) in a write transaction of its own, opened only when the halves differ:
 * when they agree, as they nearly always do, this is one read. Throws the driver's error (SQLITE_BUSY on the
 * connection's busy timeout).
 */
export function repairTorn(db: Pick<SqliteDb, "prepare" | "transaction">): LedgerRepair | undefined {
	return ledgerEven(db) ? undefined : db.transaction(() => repairLedger(db));
}
