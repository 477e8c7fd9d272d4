/**
 * How FTS5 merges the segments of `fragments_fts` (docs/lifecycle.md, "Merges"). Every commit flushes FTS5's pending
 * terms as a new segment, and FTS5 merges segments as they pile up: with its default of 4 a level, a 1 GB build
 * rewrites its postings about log4(commits) times. A bulk pass lets 16 pile up (a third of the rewriting; −19 % of a
 * two-thread 1 GB build), then merges what is left in short steps, so the index it leaves has as few segments as
 * FTS5's defaults give, and searches read no more segments than before. The settings live in the database
 * (`fragments_fts_config`): a pass restores the defaults when it ends, and a pass killed before that leaves only a
 * lazier merge, which the next pass resets.
 */
import type { SqliteDb } from "./db.js";

/** FTS5's `automerge` and `crisismerge` settings. */
export interface MergeSettings {
	/** Segments a level collects before an incremental merge of them starts. */
	automerge: number;
	/** Segments on one level that force an immediate merge of that level. */
	crisismerge: number;
}

/** FTS5's defaults: what every writer but a bulk pass works with. */
export const DEFAULT_MERGE: MergeSettings = { automerge: 4, crisismerge: 16 };

/** What a bulk pass works with (16 is the largest `automerge` FTS5 accepts). */
export const BULK_MERGE: MergeSettings = { automerge: 16, crisismerge: 64 };

/**
 * Leaf pages one merge step writes: about 10–35 ms on a 1 GB index (measured with WAL checkpoints off), short enough
 * for a hot-path writer waiting on the lock.
 */
export const MERGE_STEP_PAGES = 300;

/** Sets both merge settings (values are this module's constants, written inline: FTS5 commands take no binding). */
export function setMergeSettings(db: SqliteDb, s: MergeSettings): void {
	db.exec(ftsCommand("automerge", s.automerge));
	db.exec(ftsCommand("crisismerge", s.crisismerge));
}

/**
 * Restores the default settings and merges, one MERGE_STEP_PAGES step per transaction with `between` awaited after
 * each, until FTS5 finds nothing left to merge under them (or `shouldStop`).
 */
export async function settleMerges(
	db: SqliteDb,
	between: () => Promise<void>,
	shouldStop?: () => boolean,
): Promise<void> {
	setMergeSettings(db, DEFAULT_MERGE);
	while (!shouldStop?.()) {
		const before = totalChanges(db);
		db.exec(ftsCommand("merge", MERGE_STEP_PAGES));
		// FTS5 counts the command itself as one change: a step that wrote no page changes the count by less than 2.
		if (totalChanges(db) - before < 2) return;
		await between();
	}
}

function ftsCommand(command: "automerge" | "crisismerge" | "merge", value: number): string {
	if (!Number.isInteger(value)) throw new Error(`FTS5 ${command} needs an integer, got ${value}`);
	return `INSERT INTO fragments_fts(fragments_fts, rank) VALUES ('${command}', ${value})`;
}

function totalChanges(db: SqliteDb): number {
	return (db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
}
