import type { Coverage } from "../contract.js";
import { FTS_SCHEMA } from "./db.js";

/**
 * How many session files the index holds and in what state: the numbers behind every Coverage. Answered from the
 * partial indexes `sources_unsynced` and `sources_failed`, so the cost does not grow with the number of sessions.
 */

/** Source counts by state. */
export interface SourceCounts {
	/** Rows in `sources` (files synced at least once, in part or in full). */
	total: number;
	/** Synced to their end (a trailing partial line waits) with no error. */
	indexed: number;
	/** Last sync failed. */
	failed: number;
}

interface CountDb {
	prepare(sql: string): { get(...params: unknown[]): unknown };
}

export function sourceCounts(db: CountDb): SourceCounts {
	const c = (sql: string) => (db.prepare(sql).get() as { c: number }).c;
	const total = c("SELECT count(*) AS c FROM sources");
	const failed = c("SELECT count(*) AS c FROM sources INDEXED BY sources_failed WHERE last_error IS NOT NULL");
	const unsynced = c(
		"SELECT count(*) AS c FROM sources INDEXED BY sources_unsynced WHERE synced_at IS NULL AND last_error IS NULL",
	);
	return { total, indexed: total - failed - unsynced, failed };
}

/**
 * What the full-text file has not committed yet: the store file commits each write transaction before its full-text
 * file (two WAL files, fts-ledger.ts), so for a moment a source can be synced to its end while its words are not
 * searchable. `behind` is true when the store half of the ledger counts more transactions than the full-text half;
 * `indexed` is how many of the sources its last transaction touched count as indexed (they are not searchable yet).
 */
export interface FtsLag {
	behind: boolean;
	indexed: number;
}

/**
 * Reads the ledger in one statement, which takes its snapshot of the store file before the full-text file's: a
 * full-text file at least as new as the store file it is compared with. Call it after `sourceCounts`, so the store
 * file it reads is at least as new as the counted one (a source counted before is only further along here).
 */
export function ftsLag(db: CountDb): FtsLag {
	const row = db
		.prepare(
			`SELECT coalesce(CAST((SELECT value FROM main.meta WHERE key = 'fts_seq') AS INTEGER), 0) >
				coalesce(CAST((SELECT value FROM ${FTS_SCHEMA}.fts_meta WHERE key = 'seq') AS INTEGER), 0) AS behind,
			(SELECT count(*) FROM main.sources WHERE synced_at IS NOT NULL AND last_error IS NULL AND id IN
				(SELECT value FROM json_each(coalesce((SELECT value FROM main.meta WHERE key = 'fts_sources'), '[]')))) AS indexed`,
		)
		.get() as { behind: number; indexed: number };
	return row.behind === 1 ? { behind: true, indexed: row.indexed } : { behind: false, indexed: 0 };
}

/** Meta key holding the number of session files the last discovery found (for coverage in every process). */
export const KNOWN_SOURCES_KEY = "known_sources";

/** What coverage needs beyond the store's rows: lock states and why the store is read-only, if it is. */
export interface CoverageFacts {
	rebuilding?: boolean;
	catchingUp?: boolean;
	readOnlyReason?: string;
}

function knownSourcesRow(db: CountDb): { value: string } | undefined {
	return db.prepare("SELECT value FROM meta WHERE key = ?").get(KNOWN_SOURCES_KEY) as { value: string } | undefined;
}

/**
 * The one coverage computation (extension, CLI, `--no-sync`, query services). `known` is the larger of the rows
 * and the last discovery's count, so a file that failed before its row existed (disk full) still counts as
 * pending; a failed or unreadable file makes coverage partial.
 */
export function computeCoverage(db: CountDb, facts: CoverageFacts = {}): Coverage {
	const counts = sourceCounts(db);
	const knownRow = knownSourcesRow(db);
	// A source whose words the full-text file has not committed is not indexed yet: it counts as pending.
	const lag = ftsLag(db);
	const { failed } = counts;
	const indexed = Math.max(0, counts.indexed - lag.indexed);
	const known = Math.max(counts.total, Number(knownRow?.value ?? 0));
	const pending = Math.max(0, known - indexed - failed);
	const rebuilding = facts.rebuilding === true;
	// Until a discovery has run, nobody knows how many sessions exist: a fresh index is never "complete".
	const neverScanned = knownRow === undefined;
	const partial = pending > 0 || failed > 0 || rebuilding || neverScanned || lag.behind;
	const parts = [
		neverScanned
			? `${indexed} session files indexed, no discovery yet`
			: `${indexed} of ${known} session files indexed`,
	];
	if (pending) parts.push(`${pending} pending`);
	if (failed) parts.push(`${failed} failed (unreadable or not indexable)`);
	if (lag.behind) parts.push("the newest text is not yet searchable");
	if (rebuilding) parts.push("rebuild running");
	else if (facts.catchingUp) parts.push("catch-up running");
	if (facts.readOnlyReason) parts.push(`read-only store: ${facts.readOnlyReason}`);
	return {
		known,
		indexed,
		pending,
		failed,
		rebuilding,
		partial,
		note: `${partial ? "partial" : "complete"}: ${parts.join(", ")}`,
	};
}

/**
 * True when a catch-up would add what the index lacks: files pending (discovered and not indexed, or their words not
 * yet committed), or no discovery yet (a fresh generation). Failed files alone are not: a catch-up would fail on
 * them again, and the hot path retries the caller's own before each tool call.
 */
export function catchUpWanted(db: CountDb): boolean {
	return computeCoverage(db).pending > 0 || knownSourcesRow(db) === undefined;
}
