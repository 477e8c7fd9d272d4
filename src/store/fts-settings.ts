/**
 * FTS5's write settings that a bulk pass chooses (the fixed ones are in migrations/0012_fts_merge_settings.sql).
 * FTS5 keeps them in its `_config` table, so one connection sets them for every connection of the store.
 */
import type { SqliteDb } from "./db.js";

/** FTS5's default `hashsize`: pending terms are written out as a segment once they pass this many bytes. */
export const DEFAULT_PENDING_TERMS_BYTES = 1 << 20;

/**
 * Sets FTS5's `hashsize` (docs/store.md, "FTS5's merges") unless it already has that value; the write is a short
 * transaction of its own. Throws the driver's error.
 */
export function setPendingTermsBytes(db: Pick<SqliteDb, "prepare" | "transaction">, bytes: number): void {
	const row = db.prepare<[], { v: number }>("SELECT v FROM fragments_fts_config WHERE k = 'hashsize'").get();
	if ((row?.v ?? DEFAULT_PENDING_TERMS_BYTES) === bytes) return;
	// FTS5 takes only an integer here, and a bound JS number is a double: the value goes into the SQL text.
	const value = Math.trunc(bytes);
	db.transaction(() =>
		db.prepare(`INSERT INTO fragments_fts (fragments_fts, rank) VALUES ('hashsize', ${value})`).run(),
	);
}
