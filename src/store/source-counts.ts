import type { Coverage } from "../contract.js";
import { ftsLag } from "./fts-ledger.js";
import { cachedStatement } from "./statement-cache.js";

/**
 * How many session files the index holds and in what state: the numbers behind every Coverage. Answered from the
 * partial indexes `sources_unsynced` and `sources_failed`, so the cost does not grow with the number of sessions.
 */

/** Source counts by state. */
interface SourceCounts {
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

function sourceCounts(db: CountDb): SourceCounts {
	const c = (sql: string) => (cachedStatement(db, sql).get() as { c: number }).c;
	const total = c("SELECT count(*) AS c FROM sources");
	const failed = c("SELECT count(*) AS c FROM sources INDEXED BY sources_failed WHERE last_error IS NOT NULL");
	const unsynced = c(
		"SELECT count(*) AS c FROM sources INDEXED BY sources_unsynced WHERE synced_at IS NULL AND last_error IS NULL",
	);
	return { total, indexed: total - failed - unsynced, failed };
}

/** Meta key holding the number of session files the last discovery found (for coverage in every process). */
export const KNOWN_SOURCES_KEY = "known_sources";

/** What coverage needs beyond the store's rows: lock states and why the store is read-only, if it is. */
export interface CoverageFacts {
	rebuilding?: boolean;
	catchingUp?: boolean;
	readOnlyReason?: string;
}

/** The stored count of discovered files (`meta.known_sources`), undefined before the first discovery. */
export function knownSourcesRow(db: CountDb): { value: string } | undefined {
	return cachedStatement(db, "SELECT value FROM meta WHERE key = ?").get(KNOWN_SOURCES_KEY) as
		| { value: string }
		| undefined;
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
