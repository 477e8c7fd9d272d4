/**
 * FTS5 segment merges, outside the commits that write rows. With FTS5's automerge, the commit that carried the
 * index's write counter past a 64-page boundary also merged 64 × (levels) pages: 40–130 ms on a 1 GB index, paid
 * by whichever writer was unlucky — often a tool call's one-line commit, or a bulk commit a tool call was waiting
 * for. Migration 0006 turns automerge off; writers call `mergeSteps` between their transactions instead. Each step
 * merges about MERGE_STEP_PAGES pages in its own short write transaction, so another writer waits for one step at
 * most. FTS5's crisis merge (16 segments on one level) stays on as the safety net.
 */
import { isBusyError, type SqliteDb, withBusyTimeout } from "./db.js";

/**
 * Leaf pages one step writes (FTS5 ends a step at a term boundary). Measured on the 1 GB index of bigcorpus.py's
 * corpus: p50 3 ms, p95 15 ms, max 45 ms (one very common term's doclist) per step.
 */
export const MERGE_STEP_PAGES = 64;

/** What `mergeSteps` did. */
export interface MergeOutcome {
	/** Steps that merged something. */
	steps: number;
	/** FTS5 has nothing left to merge (no level holds `usermerge`, 4, segments). */
	done: boolean;
}

/** How `mergeSteps` is bounded. */
export interface MergeBounds {
	/** Stop starting steps after this many ms (default: until done). */
	budgetMs?: number;
	/** Each step waits at most this long for the write lock, then the call stops (default: the connection's). */
	busyTimeoutMs?: number;
	/** Runs between steps (bulk passes let hot-path writers in there). */
	between?: () => Promise<void>;
	shouldStop?: () => boolean;
}

const MERGE_SQL = "INSERT INTO fragments_fts(fragments_fts, rank) VALUES('merge', ?)";

/**
 * One merge step in its own write transaction; true when FTS5 merged something. FTS5's documented signal: a
 * 'merge' that did work changes total_changes() by 2 or more.
 */
export function mergeStep(db: SqliteDb): boolean {
	const changes = db.prepare<[], { n: number }>("SELECT total_changes() AS n");
	const before = changes.get()?.n ?? 0;
	db.transaction(() => db.prepare(MERGE_SQL).run(MERGE_STEP_PAGES));
	return (changes.get()?.n ?? 0) - before >= 2;
}

/**
 * Merge steps until FTS5 has nothing to merge, the budget is spent, the caller stops, or (with `busyTimeoutMs`)
 * another writer holds the lock. Never inside a transaction: each step commits.
 */
export async function mergeSteps(db: SqliteDb, bounds: MergeBounds = {}): Promise<MergeOutcome> {
	const started = performance.now();
	let steps = 0;
	for (;;) {
		if (bounds.shouldStop?.()) return { steps, done: false };
		let merged: boolean;
		try {
			merged =
				bounds.busyTimeoutMs === undefined
					? mergeStep(db)
					: withBusyTimeout(db, bounds.busyTimeoutMs, () => mergeStep(db));
		} catch (err) {
			if (!isBusyError(err)) throw err;
			return { steps, done: false }; // another writer is busy; it or a later call merges
		}
		if (!merged) return { steps, done: true };
		steps++;
		if (bounds.budgetMs !== undefined && performance.now() - started >= bounds.budgetMs) return { steps, done: false };
		await bounds.between?.();
	}
}
