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
