/** Test helpers: temp store directories and a real FTS5 table fed through searchText. */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqliteDb } from "../../src/store/driver.js";
import { createGeneration, type NewGeneration } from "../../src/store/generations.js";
import { compileQuery } from "../../src/text/query-compiler.js";
import { searchText } from "../../src/text/search-text.js";

/** A fresh temp directory; remove it with `cleanup`. */
export function tempDir(prefix = "pei-store-"): { dir: string; cleanup: () => void } {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A migrated generation in a fresh temp directory, beside an empty `sessions` folder, fingerprints ready; `cleanups`
 * gets what closes and removes them (run it in afterEach).
 */
export async function tempGeneration(
	prefix: string,
	cleanups: Array<() => void>,
): Promise<{ db: SqliteDb; sessions: string }> {
	const t = tempDir(prefix);
	cleanups.push(t.cleanup);
	const sessions = join(t.dir, "sessions");
	mkdirSync(sessions);
	const gen = await createGeneration(t.dir);
	cleanups.unshift(() => gen.db.close());
	return { db: gen.db, sessions };
}

/** A migrated generation (real schema + fragments_fts) with helpers to index texts and search them. */
export async function ftsFixture() {
	const { dir, cleanup } = tempDir("pei-fts-");
	const gen: NewGeneration = await createGeneration(dir);
	const db = gen.db;
	const insert = db.prepare<[number, string]>("INSERT INTO fragments_fts(rowid, body) VALUES (?, ?)");
	const match = db.prepare<[string], { rowid: number }>(
		"SELECT rowid FROM fragments_fts WHERE fragments_fts MATCH ? ORDER BY rowid",
	);
	let next = 1;
	return {
		db,
		/** Index `text` (as ingest does: through searchText); returns its rowid. */
		add(text: string): number {
			const id = next++;
			insert.run(id, searchText(text));
			return id;
		},
		/** Rowids matching a user query (throws if the query does not compile). */
		search(query: string): number[] {
			const compiled = compileQuery(query);
			if (!compiled.ok) throw new Error(compiled.error);
			return match.all(compiled.match).map((r) => r.rowid);
		},
		/** Run a raw MATCH expression. */
		raw(expression: string): number[] {
			return match.all(expression).map((r) => r.rowid);
		},
		close() {
			db.close();
			cleanup();
		},
	};
}
