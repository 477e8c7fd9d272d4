/**
 * Plain bm25, the ranking event_search had before issue 8, reproduced over the same store for comparison: the
 * 500 best fragments by bm25, coalesced per event in that order (ties: newer, session id, file order).
 */

import type { SqliteDb } from "../../src/store/driver.js";
import { compileQuery } from "../../src/text/query-compiler.js";

interface Row {
	sourceId: number;
	seq: number;
	entryId: string;
	sessionId: string;
	score: number;
	timestamp: string;
	ord: number;
}

/** Event keys (`${sessionId}/${entryId}`) best first by plain bm25, at most `limit`. */
export function plainBm25Search(db: SqliteDb, query: string, limit: number): string[] {
	const compiled = compileQuery(query);
	if (!compiled.ok) throw new Error(compiled.error);
	const rows = db
		.prepare(
			`SELECT f.source_id AS sourceId, f.event_seq AS seq, f.ord AS ord, e.entry_id AS entryId,
				e.timestamp AS timestamp, s.session_id AS sessionId, bm25(fragments_fts) AS score
			FROM fragments_fts
			JOIN fragments f ON f.id = fragments_fts.rowid
			JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
			JOIN sources s ON s.id = f.source_id
			WHERE fragments_fts MATCH ?
			ORDER BY score, f.id
			LIMIT 500`,
		)
		.all(compiled.match) as Row[];
	rows.sort(
		(a, b) =>
			a.score - b.score ||
			(a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0) ||
			(a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0) ||
			a.seq - b.seq ||
			a.sourceId - b.sourceId ||
			a.ord - b.ord,
	);
	const keys: string[] = [];
	const seen = new Set<string>();
	for (const r of rows) {
		const event = `${r.sourceId}:${r.seq}`;
		if (seen.has(event)) continue;
		seen.add(event);
		keys.push(`${r.sessionId}/${r.entryId}`);
		if (keys.length >= limit) break;
	}
	return keys;
}
