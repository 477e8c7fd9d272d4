/**
 * Real damage to a real SQLite file: every page of the named tables (and their indexes) overwritten with garbage,
 * as a bad disk or a stray write would leave them. The schema page stays intact, so the file still opens.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import Database from "better-sqlite3";

/** Overwrites all pages of `tables` in the SQLite file `path` (which no process may have open). */
export function damageTables(path: string, tables: string[]): number {
	const db = new Database(path);
	db.pragma("wal_checkpoint(TRUNCATE)");
	const pageSize = db.pragma("page_size", { simple: true }) as number;
	const marks = tables.map(() => "?").join(", ");
	const pages = (
		db
			.prepare(
				`SELECT pageno FROM dbstat WHERE name IN (${marks})
				OR name IN (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (${marks}))`,
			)
			.all(...tables, ...tables) as Array<{ pageno: number }>
	).map((r) => r.pageno);
	db.close();
	if (pages.length === 0) throw new Error(`no pages found for ${tables.join(", ")}`);
	const garbage = Buffer.alloc(pageSize, 0xa5);
	const fd = openSync(path, "r+");
	try {
		for (const p of pages) writeSync(fd, garbage, 0, pageSize, (p - 1) * pageSize);
	} finally {
		closeSync(fd);
	}
	return pages.length;
}
