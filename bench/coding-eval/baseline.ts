/**
 * The peer of the coding eval: plain SQLite bm25 over the same events (one row per event, the fragments the project
 * projects for it, joined) in an in-memory FTS5 table with the project's tokenizer, queried with the question's
 * content words OR-ed (the natural eval's stopwords) and limited, as the project's caller is, to the question's
 * workspace.
 */
import Database from "better-sqlite3";
import { orExpression } from "../natural/baseline.js";
import type { CodingEvent } from "./store.js";

/** A bm25-OR searcher over a fixed list of events. */
export interface WorkspaceBm25 {
	/** Event keys best first, at most `limit`, among the events of `cwd`. */
	search(question: string, cwd: string, limit: number): string[];
	close(): void;
}

export function buildWorkspaceBm25(events: readonly CodingEvent[]): WorkspaceBm25 {
	const db = new Database(":memory:");
	db.exec("CREATE VIRTUAL TABLE ev USING fts5(body, cwd UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')");
	const insert = db.prepare("INSERT INTO ev(rowid, body, cwd) VALUES (?, ?, ?)");
	db.transaction(() => {
		events.forEach((e, i) => {
			insert.run(i + 1, e.text, e.cwd);
		});
	})();
	const query = db.prepare("SELECT rowid AS id FROM ev WHERE ev MATCH ? AND cwd = ? ORDER BY bm25(ev), rowid LIMIT ?");
	return {
		search(question, cwd, limit) {
			const match = orExpression(question);
			if (match === null) return [];
			return (query.all(match, cwd, limit) as { id: number }[]).map((r) => events[r.id - 1].key);
		},
		close: () => db.close(),
	};
}
