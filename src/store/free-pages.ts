/**
 * Gives the pages a bulk pass left free back to the file system. FTS5 merges its segments as a pass writes and frees
 * the pages of the merged ones; SQLite reuses them for later writes, but whatever the last merges freed stays in the
 * file as free pages: 0–8 MiB of a 500 MiB build, differing from one build of the same corpus to the next
 * (docs/store.md, "Free pages"). Store files are created with `auto_vacuum = INCREMENTAL` (db.ts, `create`), so
 * `PRAGMA incremental_vacuum` can move the last pages into the free ones and truncate the file.
 */
import type { SqliteDb } from "./driver.js";

/**
 * Pages given back per transaction: each step moves up to this many pages (≈ 10 ms for 1,000), so a hot-path writer
 * waits behind one step, never behind the whole release.
 */
export const FREE_PAGES_STEP = 256;

/** Most steps one release takes (16,384 pages, 64 MiB at 4 KiB a page); what is left waits for the next pass. */
const MAX_STEPS = 64;

/**
 * Releases free pages of one attached file (`schema`) in steps of FREE_PAGES_STEP, each its own transaction, and returns how many were released.
 * Does nothing on a file made without `auto_vacuum = INCREMENTAL` (stores created before it). Throws the driver's
 * error (SQLITE_BUSY when another writer held the lock past the busy timeout).
 */
export function releaseFreePages(db: Pick<SqliteDb, "pragma" | "exec">, schema = "main"): number {
	if (Number(db.pragma(`${schema}.auto_vacuum`)) !== 2) return 0;
	const before = Number(db.pragma(`${schema}.freelist_count`));
	let left = before;
	for (let step = 0; step < MAX_STEPS && left > 0; step++) {
		// exec steps the pragma to its end: a single step would release one page.
		db.exec(`PRAGMA ${schema}.incremental_vacuum(${FREE_PAGES_STEP})`);
		left = Number(db.pragma(`${schema}.freelist_count`));
	}
	return before - left;
}
