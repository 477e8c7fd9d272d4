/**
 * FTS5's write settings, chosen by each bulk pass (docs/store.md, "FTS5's merges"). FTS5 keeps them in its
 * `_config` table, so one connection sets them for every connection of the store until the next pass sets its own.
 */
import type { SqliteDb } from "./driver.js";

/** How FTS5 writes: its `hashsize` and `automerge` options. */
export interface FtsWriteSettings {
	/** Pending terms are written out as a new segment once they pass this many bytes (and at every commit). */
	hashsize: number;
	/** Segments of one level merged into one of the next. */
	automerge: number;
}

/** FTS5's defaults. */
export const FTS_DEFAULT_WRITE_SETTINGS: FtsWriteSettings = { hashsize: 1 << 20, automerge: 4 };

/**
 * Sets each option that does not already have its value, in one short transaction of its own (none when all do).
 * Throws the driver's error.
 */
export function setFtsWriteSettings(db: Pick<SqliteDb, "prepare" | "transaction">, settings: FtsWriteSettings): void {
	const stored = db.prepare<[], { k: string; v: number }>("SELECT k, v FROM fragments_fts_config").all();
	const current = (k: keyof FtsWriteSettings) => stored.find((r) => r.k === k)?.v ?? FTS_DEFAULT_WRITE_SETTINGS[k];
	const changed = (Object.keys(settings) as Array<keyof FtsWriteSettings>).filter((k) => current(k) !== settings[k]);
	if (changed.length === 0) return;
	db.transaction(() => {
		// FTS5 takes only an integer here, and a bound JS number is a double: the value goes into the SQL text.
		for (const k of changed) {
			db.prepare(`INSERT INTO fragments_fts (fragments_fts, rank) VALUES ('${k}', ${Math.trunc(settings[k])})`).run();
		}
	});
}
