/**
 * Ranking of matched fragments (docs/ranking.md). Pure: search.ts runs the SQL, this module decides the order.
 *
 *   relevance = -bm25(fragments_fts; column weight = kindWeight(kind) × lengthFactor(charCount)) × (1 + proximityBonus)
 *
 * Each fragment's text is stored in the FTS column of its kind weight and length step (RANK_COLUMNS), so the
 * weighted bm25 is computed inside the full-text index: the candidate query ranks without any join, and the short
 * statement is among the bounded candidates even when thousands of long tool outputs match. Proximity needs the
 * text, so only the first `RERANK_LIMIT` candidates get it, `RERANK_FRAGMENT_CHARS` each.
 */
import type { SemanticKind } from "../contract.js";
import { STORED_HEAD_CHARS } from "../store/fragment-text.js";
import { proximitySlack } from "./rank-proximity.js";

/** One matched fragment as ranking sees it. */
export interface RankCandidate {
	/** Fragment row id (rowid of fragments_fts). */
	fragmentId: number;
	/** Weighted bm25 of fragments_fts (WEIGHTED_BM25_RANK): negative, lower is better. */
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

/** What people and the model said outranks what tools were asked, which outranks what tools printed. */
export const KIND_WEIGHTS: Readonly<Record<SemanticKind, number>> = {
	user_text: 1,
	assistant_text: 1,
	compaction_summary: 1,
	branch_summary: 1,
	custom_message: 1,
	session_name: 1,
	label: 1,
	tool_call: 0.6,
	bash_command: 0.6,
	custom_data: 0.6,
	tool_result: 0.35,
	bash_output: 0.35,
};

/** Weight of a kind this version does not know (a newer index format): ranked like tool output. */
const UNKNOWN_KIND_WEIGHT = 0.35;

/** Fragments up to this many code points are not penalized for length. */
export const LENGTH_FREE_CHARS = 1000;

/**
 * Length steps: each doubling past LENGTH_FREE_CHARS multiplies by 1/√2 (a 40,000-character output gets 0.125),
 * capped at 2^10 doublings. A step function rather than a sqrt so SQLite needs no math functions.
 */
const LENGTH_STEPS: readonly { upTo: number; factor: number }[] = Array.from({ length: 11 }, (_, k) => ({
	upTo: LENGTH_FREE_CHARS * 2 ** k,
	factor: Math.SQRT1_2 ** k,
}));
const LONGEST_FACTOR = Math.SQRT1_2 ** LENGTH_STEPS.length;

/** Proximity bonus when every query term/phrase sits within this many extra tokens of the others. */
export const PROXIMITY_WINDOW = 12;
/** The bonus for adjacent terms: relevance is multiplied by up to 1 + PROXIMITY_WEIGHT. */
export const PROXIMITY_WEIGHT = 1;

/** Candidates (in candidate order) whose text is read for proximity. */
export const RERANK_LIMIT = 200;
/**
 * Characters of text read for proximity per fragment: the head the index stores of each (on the ranking and
 * natural-question sets, proximity over 2,000 characters ranks exactly as over 32,000). At most RERANK_LIMIT ×
 * RERANK_FRAGMENT_CHARS characters per query.
 */
export const RERANK_FRAGMENT_CHARS = STORED_HEAD_CHARS;

/** One text column of fragments_fts: a fragment's text goes into the column of its kind weight and length step. */
export interface RankColumn {
	name: string;
	/** kindWeight × lengthFactor of every fragment stored in it: its bm25 column weight. */
	weight: number;
}

const CLASS_WEIGHTS = [...new Set([...Object.values(KIND_WEIGHTS), UNKNOWN_KIND_WEIGHT])].sort((a, b) => b - a);
const STEP_FACTORS = [...LENGTH_STEPS.map((s) => s.factor), LONGEST_FACTOR];

/**
 * The text columns of fragments_fts, derived from the weight tables above. The first, `body`, holds short
 * conversational text, the bulk of what people search.
 */
export const RANK_COLUMNS: readonly RankColumn[] = CLASS_WEIGHTS.flatMap((w, i) =>
	STEP_FACTORS.map((f, j) => ({ name: i === 0 && j === 0 ? "body" : `b${i}x${j}`, weight: w * f })),
);

/** The filter-token column of fragments_fts (src/text/fragment-tags.ts); its bm25 weight is 0. */
export const TAGS_COLUMN = "tags";

/**
 * All columns of fragments_fts in table order (migration 0006 spells them out; a test checks they agree): the tags
 * first, because FTS5 writes no column number for column 0's postings and every fragment has a dozen tags, then
 * RANK_COLUMNS.
 */
export const FTS_COLUMNS: readonly RankColumn[] = [{ name: TAGS_COLUMN, weight: 0 }, ...RANK_COLUMNS];

/** Index into RANK_COLUMNS of the column a fragment of this kind and length is stored in. */
export function rankColumnIndex(kind: string, charCount: number): number {
	const step = LENGTH_STEPS.findIndex((s) => charCount <= s.upTo);
	return CLASS_WEIGHTS.indexOf(kindWeight(kind)) * STEP_FACTORS.length + (step < 0 ? LENGTH_STEPS.length : step);
}

/**
 * FTS5's rank function for `fragments_fts`: bm25 with every text column weighted by its RankColumn weight and the
 * tags column by 0, in FTS_COLUMNS order. Passed as `AND rank MATCH ?` and read as the `rank` column: FTS5 then
 * parses the 37 weights once per statement, where `bm25(fragments_fts, w1, …)` in the select list has SQLite pass
 * them on every row (≈ 1 µs a row, a quarter of bm25's cost per row on 1 GB). The score is the same double either way.
 */
export const WEIGHTED_BM25_RANK = `bm25(${FTS_COLUMNS.map((c) => sqlNumber(c.weight)).join(", ")})`;

/**
 * Column filter restricting an FTS5 expression to the text columns (never the tags). Costly (FTS5 then decodes
 * position lists), so only used for query words that look like tag tokens (fragment-tags.ts).
 */
export function textColumns(expr: string): string {
	return `(- {${TAGS_COLUMN}} : (${expr}))`;
}

/** The weight of a semantic kind. */
export function kindWeight(kind: string): number {
	return (KIND_WEIGHTS as Record<string, number>)[kind] ?? UNKNOWN_KIND_WEIGHT;
}

/** The length factor of a fragment of `charCount` code points (1 for short fragments, smaller for long ones). */
export function lengthFactor(charCount: number): number {
	for (const step of LENGTH_STEPS) if (charCount <= step.upTo) return step.factor;
	return LONGEST_FACTOR;
}

/** FTS5's bm25 constants (fts5_aux.c): term-frequency saturation and length normalisation. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** bm25's idf of a phrase found in `df` of `total` rows, as FTS5 computes it (never below 1e-6). */
export function bm25Idf(total: number, df: number): number {
	const idf = Math.log((total - df + 0.5) / (df + 0.5));
	return idf > 0 ? idf : 1e-6;
}

/**
 * What one occurrence of a phrase of idf `idf` adds to the weighted bm25 of a fragment whose column weighs
 * `weight` and whose length is `lengthRatio` times the average: FTS5's term at frequency `weight`. Negative, like
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
 * Relevance before proximity (positive, higher is better): minus the weighted bm25 of fragments_fts, whose column
 * weights are kindWeight × lengthFactor of the fragments each column holds (RANK_COLUMNS).
 */
export function baseRelevance(c: Pick<RankCandidate, "score">): number {
	return -c.score;
}

function sqlNumber(n: number): string {
	return Number.isInteger(n) ? `${n}.0` : String(n);
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
