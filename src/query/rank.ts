/**
 * Ranking of matched fragments. Pure, so a later ranking issue (per-kind weights, proximity) can replace it.
 * Today: bm25 (lower is better) with deterministic tie-breaks.
 */

/** One matched fragment as ranking sees it. */
export interface RankCandidate {
	/** bm25(fragments_fts): negative, lower is better. */
	score: number;
	timestamp: string;
	sessionId: string;
	sourceId: number;
	seq: number;
	ord: number;
	kind: string;
}

/** Candidates best first: score, then newer timestamp, then session id, then file order (seq, source, ord). */
export function rankCandidates<T extends RankCandidate>(candidates: readonly T[], _terms: readonly string[]): T[] {
	return [...candidates].sort(
		(a, b) =>
			a.score - b.score ||
			(a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0) ||
			(a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0) ||
			a.seq - b.seq ||
			a.sourceId - b.sourceId ||
			a.ord - b.ord,
	);
}
