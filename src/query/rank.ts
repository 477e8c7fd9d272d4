/**
 * Ranking of matched fragments (docs/ranking.md). Pure: search/ranked-window.ts runs the SQL, this module decides
 * the order.
 *
 *   relevance = -bm25(fragments_fts; text weight = kindWeight(kind) × lengthFactor(charCount)) × (1 + proximityBonus)
 *
 * Each fragment's id carries its weight class (store/fragment-ids.ts), so the weighted bm25 is computed inside
 * the full-text query (WEIGHTED_BM25): the candidate query ranks without any join, and the short statement is among
 * the bounded candidates even when thousands of long tool outputs match. Proximity needs the
 * text, so only the first `RERANK_LIMIT` candidates get it, `RERANK_FRAGMENT_CHARS` each.
 */
import { STORED_HEAD_CHARS } from "../text/stored-head.js";
import { proximitySlack } from "./rank-proximity.js";

/** One matched fragment as ranking sees it. */
export interface RankCandidate {
	/** Fragment row id (rowid of fragments_fts). */
	fragmentId: number;
	/** Weighted bm25 of fragments_fts (WEIGHTED_BM25): negative, lower is better. */
	score: number;
	/** Length of the fragment's text in code points. */
	charCount: number;
	timestamp: string;
	sessionId: string;
	sourceId: number;
	seq: number;
	ord: number;
	kind: string;
}

/** Proximity bonus when every query term/phrase sits within this many extra tokens of the others. */
const PROXIMITY_WINDOW = 12;
/** The bonus for adjacent terms: relevance is multiplied by up to 1 + PROXIMITY_WEIGHT. */
const PROXIMITY_WEIGHT = 1;

/** Candidates (in candidate order) whose text is read for proximity. */
export const RERANK_LIMIT = 200;
/**
 * Characters of text read for proximity per fragment: the head the index stores of each (on the ranking and
 * natural-question sets, proximity over the stored head ranks exactly as over the whole text: docs/store.md). At most RERANK_LIMIT ×
 * RERANK_FRAGMENT_CHARS characters per query.
 */
export const RERANK_FRAGMENT_CHARS = STORED_HEAD_CHARS;

/** FTS5's bm25 constants (fts5_aux.c): term-frequency saturation and length normalisation. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** bm25's idf of a phrase found in `df` of `total` rows, as FTS5 computes it (never below 1e-6). */
export function bm25Idf(total: number, df: number): number {
	const idf = Math.log((total - df + 0.5) / (df + 0.5));
	return idf > 0 ? idf : 1e-6;
}

/**
 * What one occurrence of a phrase of idf `idf` adds to the weighted bm25 of a fragment of row weight `weight`
 * (rowWeight) whose length is `lengthRatio` times the average: FTS5's term at frequency `weight`. Negative, like
 * the rank.
 */
export function presenceScore(idf: number, weight: number, lengthRatio: number): number {
	return (-idf * weight * (BM25_K1 + 1)) / (weight + BM25_K1 * (1 - BM25_B + BM25_B * lengthRatio));
}

/** The bonus for a proximity slack (extra tokens between the terms): 1 when adjacent, 0 at PROXIMITY_WINDOW. */
export function proximityBonus(slack: number | undefined): number {
	if (slack === undefined || slack >= PROXIMITY_WINDOW) return 0;
	return PROXIMITY_WEIGHT * (1 - slack / PROXIMITY_WINDOW);
}

/**
 * Relevance before proximity (positive, higher is better): minus the weighted bm25 of fragments_fts (WEIGHTED_BM25).
 */
function baseRelevance(c: Pick<RankCandidate, "score">): number {
	return -c.score;
}

/**
 * Which candidates' text to read for proximity: none for a query of fewer than two terms/phrases, else the first
 * RERANK_LIMIT in candidate order. Bounded work whatever the corpus.
 */
export function proximityTargets(candidates: readonly RankCandidate[], phraseCount: number): number[] {
	if (phraseCount < 2) return [];
	return candidates.slice(0, RERANK_LIMIT).map((c) => c.fragmentId);
}

function compareTies(a: RankCandidate, b: RankCandidate): number {
	return (
		(a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0) ||
		(a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0) ||
		a.seq - b.seq ||
		a.sourceId - b.sourceId ||
		a.ord - b.ord
	);
}

/**
 * Candidates best first: relevance (with proximity for fragments whose text is in `texts`), then newer timestamp,
 * then session id, then file order (seq, source, ord). `phrases` are the compiled query's token lists.
 */
export function rankCandidates<T extends RankCandidate>(
	candidates: readonly T[],
	phrases: readonly (readonly string[])[] = [],
	texts: ReadonlyMap<number, string> = new Map(),
): T[] {
	const scored = candidates.map((c) => {
		const text = texts.get(c.fragmentId);
		const bonus = text === undefined ? 0 : proximityBonus(proximitySlack(text, phrases));
		return { c, relevance: baseRelevance(c) * (1 + bonus) };
	});
	scored.sort((a, b) => b.relevance - a.relevance || compareTies(a.c, b.c));
	return scored.map((s) => s.c);
}
