/**
 * The fair peer of the natural-question evaluation: plain SQLite bm25 over the same events (one row per event, the
 * text the set wrote for it) in a separate in-memory FTS5 table with the project's tokenizer, queried with the
 * question's content words OR-ed (the same stopwords removed as for the set's checks).
 */
import Database from "better-sqlite3";
import type { WrittenEvent } from "./corpus.js";
import { contentWords } from "./words.js";

/** A bm25-OR searcher over a fixed list of events. */
export interface Bm25OrIndex {
	/** Event keys best first, at most `limit`; empty when the question has no content word. */
	search(question: string, limit: number): string[];
	close(): void;
}

/** The question's content words as an FTS5 OR expression (each quoted), or null when there are none. */
export function orExpression(question: string): string | null {
	const words = contentWords(question);
	return words.length === 0 ? null : words.map((w) => `"${w.replaceAll('"', '""')}"`).join(" OR ");
}

/** Builds the table (a few hundred ms for the set's events). */
export function buildBm25OrIndex(events: readonly WrittenEvent[]): Bm25OrIndex {
	const db = new Database(":memory:");
	db.exec("CREATE VIRTUAL TABLE ev USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')");
	const insert = db.prepare("INSERT INTO ev(rowid, body) VALUES (?, ?)");
	db.transaction(() => {
		events.forEach((e, i) => {
			insert.run(i + 1, e.text);
		});
	})();
	const query = db.prepare("SELECT rowid AS id FROM ev WHERE ev MATCH ? ORDER BY bm25(ev), rowid LIMIT ?");
	return {
		search(question, limit) {
			const match = orExpression(question);
			if (match === null) return [];
			return (query.all(match, limit) as { id: number }[]).map((r) => events[r.id - 1].key);
		},
		close: () => db.close(),
	};
}
