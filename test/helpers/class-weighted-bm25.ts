/**
 * FTS5's bm25 of every match of `match`, each row weighted by its class's weight given as a literal, one query per
 * weight class: a reference for WEIGHTED_BM25 (rank.ts) that does not use its CASE expression.
 */

import type { SqliteDb } from "../../src/store/driver.js";
import { ID_STRIDE, rowWeight } from "../../src/store/fragment-ids.js";

export function classWeightedBm25(db: SqliteDb, match: string): Map<number, number> {
	const scores = new Map<number, number>();
	for (let c = 0; c < ID_STRIDE; c++) {
		const rows = db
			.prepare(
				`SELECT rowid AS id, bm25(fragments_fts, ${rowWeight(c)}, 0.0) AS score FROM fragments_fts
				WHERE fragments_fts MATCH ? AND rowid % ${ID_STRIDE} = ${c}`,
			)
			.all(match) as Array<{ id: number; score: number }>;
		for (const r of rows) scores.set(r.id, r.score);
	}
	return scores;
}
