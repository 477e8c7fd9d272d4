/**
 * Real damage to a real SQLite store: every page of the named tables (and their indexes) overwritten with garbage,
 * as a bad disk or a stray write would leave them. The schema pages stay intact, so the files still open.
 */
import { closeSync, existsSync, openSync, writeSync } from "node:fs";
import Database from "better-sqlite3";
import { storeFiles } from "../../src/store/db.js";

/** Pages of `tables` (and their indexes) in one SQLite file, after folding its WAL in. */
function pagesOf(path: string, tables: string[]): { pageSize: number; pages: number[] } {
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
	return { pageSize, pages };
}

/** Leaf pages of the b-trees of `tables` alone (no indexes) in one SQLite file, after folding its WAL in. */
function leafPagesOf(path: string, tables: string[]): { pageSize: number; pages: number[] } {
	const db = new Database(path);
	db.pragma("wal_checkpoint(TRUNCATE)");
	const pageSize = db.pragma("page_size", { simple: true }) as number;
	const marks = tables.map(() => "?").join(", ");
	const pages = (
		db.prepare(`SELECT pageno FROM dbstat WHERE pagetype = 'leaf' AND name IN (${marks})`).all(...tables) as Array<{
			pageno: number;
		}>
	).map((r) => r.pageno);
	db.close();
	return { pageSize, pages };
}

/**
 * Overwrites all pages of `tables` in the store whose store file is `path` (which no process may have open),
 * in whichever of its files (the store file, the full-text file) holds each.
 */
export function damageTables(path: string, tables: string[]): number {
	let damaged = 0;
	for (const file of storeFiles(path)) {
		if (!existsSync(file.path)) continue;
		const { pageSize, pages } = pagesOf(file.path, tables);
		const garbage = Buffer.alloc(pageSize, 0xa5);
		const fd = openSync(file.path, "r+");
		try {
			for (const p of pages) writeSync(fd, garbage, 0, pageSize, (p - 1) * pageSize);
		} finally {
			closeSync(fd);
		}
		damaged += pages.length;
	}
	if (damaged === 0) throw new Error(`no pages found for ${tables.join(", ")}`);
	return damaged;
}

/** Bytes a disk-like damage overwrites on each leaf page, and where (just past a leaf page's 8-byte header). */
const LEAF_DAMAGE = { offset: 8, bytes: 200 } as const;

/**
 * Overwrites LEAF_DAMAGE.bytes at LEAF_DAMAGE.offset of every leaf page of `tables` (their cell pointers and
 * whatever follows) with bytes from `garbage`, in whichever file of the store at `path` holds each table, as a bad
 * disk would leave a few sectors. No process may have the store open. Returns the pages damaged.
 */
export function damageLeafPages(path: string, tables: string[], garbage: (n: number) => Buffer): number {
	let damaged = 0;
	for (const file of storeFiles(path)) {
		if (!existsSync(file.path)) continue;
		const { pageSize, pages } = leafPagesOf(file.path, tables);
		const fd = openSync(file.path, "r+");
		try {
			for (const p of pages)
				writeSync(fd, garbage(LEAF_DAMAGE.bytes), 0, LEAF_DAMAGE.bytes, (p - 1) * pageSize + LEAF_DAMAGE.offset);
		} finally {
			closeSync(fd);
		}
		damaged += pages.length;
	}
	if (damaged === 0) throw new Error(`no leaf pages found for ${tables.join(", ")}`);
	return damaged;
}
