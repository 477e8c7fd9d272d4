/**
 * The store check: SQLite's `quick_check` of every table of both store files, which walks each b-tree and reads
 * every page and row. Damage a command never touches (a bad disk, a stray write) is otherwise found only when some
 * later query happens to read those pages. `reindex` runs it before its pass, `verify` before it compares anything
 * (docs/lifecycle.md, "Damage nobody touched"). Pi's own catch-up does not: it would read the whole store (0.6 s of
 * CPU and 438 MiB of pages on the 1 GB corpora) at every start.
 */
import { STORE_SCHEMAS } from "./db.js";
import type { SqliteDb } from "./driver.js";
import { StoreDamageError } from "./store-damage.js";

/** What a check reads besides the b-trees. */
export interface StoreCheckOptions {
	/**
	 * Also FTS5's own check of the full-text index's contents (the segments' terms and doclists, not only their
	 * pages): about five times the b-tree walk's CPU on the 1 GB corpora, so `verify` only.
	 */
	fullText?: boolean;
}

const FILE_NAMES: Record<(typeof STORE_SCHEMAS)[number], string> = { main: "store file", fts: "full-text file" };

/**
 * The first damaged table of the store on `db`, or undefined when every page and row reads back whole. Throws
 * the driver's error when the schema itself cannot be read (that is damage too: db.ts isStoreDamage).
 */
export function findStoreDamage(db: SqliteDb, options: StoreCheckOptions = {}): StoreDamageError | undefined {
	for (const schema of STORE_SCHEMAS) {
		// One table at a time, so a virtual table's own check runs only when asked for.
		const tables = db
			.prepare<[], { name: string; virtual: number }>(
				`SELECT name, sql LIKE 'CREATE VIRTUAL%' AS virtual FROM ${schema}.sqlite_schema WHERE type = 'table' ORDER BY rootpage`,
			)
			.all();
		for (const t of tables) {
			if (t.virtual && !options.fullText) continue;
			const report = db
				.prepare<[], Record<string, string>>(`PRAGMA ${schema}.quick_check("${t.name.replaceAll('"', '""')}")`)
				.all()
				.map((row) => Object.values(row)[0])
				.join("; ");
			if (report !== "ok") return new StoreDamageError(`the ${t.name} table of the ${FILE_NAMES[schema]}`, report);
		}
	}
	return undefined;
}
