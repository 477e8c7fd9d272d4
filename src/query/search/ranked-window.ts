/**
 * Stage 2a: the ranked window of one conjunction — the newest matches of the terms and the plan's tags inside the FTS
 * index, ranked by weighted bm25 (rank.ts) — computed with as little of FTS5's work as gives the same order.
 */

import { fragmentsInIds, ID_STRIDE, WEIGHTED_BM25 } from "../../store/fragment-ids.js";
import { allViaJson, get, type QueryDb } from "../db.js";
import type { SearchPlan } from "./request.js";

/**
 * The full MATCH expression: the terms AND the plan's tag expressions, minus its exclusions. No column filters:
 * tag tokens never equal a word a term can match (terms.ts), so each side can only match its own column.
 */
export function matchExpression(
	plan: Pick<SearchPlan, "tagMatches" | "tagExclusions">,
	termMatches: readonly string[],
): string {
	const parts = [...termMatches, ...plan.tagMatches].map((p) => `(${p})`);
	const positive = parts.length === 1 ? parts[0] : `(${parts.join(" AND ")})`;
	if (plan.tagExclusions.length === 0) return positive;
	return `${positive} NOT (${plan.tagExclusions.join(" OR ")})`;
}

/**
 * A rowid bound of an FTS5 query. FTS5 seeks to an integer bound but ignores a real one (and then returns every
 * match for `rowid = ?`, or walks the whole doclist for a range), and drivers bind a JS number as a real.
 */
export const INTEGER = "CAST(? AS INTEGER)";

/** Fragment ids with their weighted bm25, best first. */
export type Ranked = Array<{ id: number; score: number }>;

/** A rowid range of the index: a window's, where a phrase's presence is walked and its density taken. */
export interface RowidSpan {
	lo: number;
	hi: number;
}

/** A ranked window: its best rows, whether the cap applied, and the rowids it spans (none when empty). */
export interface RankedWindow {
	ranked: Ranked;
	capped: boolean;
	span?: RowidSpan;
	/** The exact forms were ranked inside bm25 (written twice), not left to a presence bonus. */
	exactCounted?: boolean;
}

/**
 * The filtered window is ranked by the terms alone when the filter passes at least this share of all fragments: then
 * bm25's idf scan of its tags is long, and the terms' matches in the window's range are few enough to walk (measured
 * on 1 GB: `kinds: tool_result`, 32 % of fragments, and `toolNames: bash`, 38 %, 30 % faster; `selectionStates:
 * summarized`, 28 %, no faster; a cwd, a role, errors, 2–8 %, slower).
 */
const BROAD_FILTER_SHARE = 0.3;
/** Rowid spans of this many fragments, spread over the index, counted to estimate a filter's share. */
const SHARE_PROBES = 8;
const PROBE_SPAN = 500;

/**
 * Ids (JSON array), count and rowid range of the newest `limit` matches of `match` (the oldest, with `oldest`), or of
 * all of them: a walk, no bm25. FTS5 walks a doclist backwards at about half the speed, and positions it at its end by
 * reading its last page in every segment, so only a bounded walk goes newest first.
 */
export function matchIds(db: QueryDb, match: string, limit?: number, oldest = false) {
	const walk = limit === undefined ? "" : oldest ? "LIMIT ?" : "ORDER BY rowid DESC LIMIT ?";
	return get<{ ids: string; n: number; lo: number | null; hi: number | null }>(
		db,
		`SELECT json_group_array(id) AS ids, count(*) AS n, min(id) AS lo, max(id) AS hi
		FROM (SELECT rowid AS id FROM fragments_fts WHERE fragments_fts MATCH ? ${walk})`,
		limit === undefined ? [match] : [match, limit],
	);
}

/** Matches of `match` within rowids lo..hi, counted up to `limit`: a seek and a bounded walk (forwards: cheaper). */
function countWithin(db: QueryDb, match: string, lo: number, hi: number, limit: number): number {
	return (
		get<{ n: number }>(
			db,
			`SELECT count(*) AS n FROM (SELECT 1 FROM fragments_fts WHERE fragments_fts MATCH ?
			AND rowid BETWEEN ${INTEGER} AND ${INTEGER} LIMIT ?)`,
			[match, lo, hi, limit],
		)?.n ?? 0
	);
}

/**
 * The best `keep` of `ids` (a JSON array of matches of the terms and the filters, within rowids lo..hi) by the
 * weighted bm25 of the terms alone: the same score as against the whole expression (a tag phrase's weight is 0 and
 * it is summed after the terms), without the idf scans of the tags' doclists nor their positions on every row. The
 * cost is a seek and a walk of the terms' matches between lo and hi.
 */
export function rankAmong(db: QueryDb, termsOnly: string, ids: string, lo: number, hi: number, keep: number): Ranked {
	return bestFirst(
		allViaJson<{ id: number; score: number }>(
			db,
			{ id: "id", score: "score" },
			`FROM (SELECT rowid AS id, ${WEIGHTED_BM25} AS score FROM fragments_fts WHERE fragments_fts MATCH ?
			AND rowid BETWEEN ${INTEGER} AND ${INTEGER} AND +rowid IN (SELECT value FROM json_each(?))
			ORDER BY score, id LIMIT ?)`,
			[termsOnly, lo, hi, ids, keep],
			true,
		),
	);
}

/** `ranked` sorted best first (lowest bm25, then lowest id), in place. */
export function bestFirst<T extends { id: number; score: number }>(ranked: T[]): T[] {
	return ranked.sort((a, b) => a.score - b.score || a.id - b.id);
}

/** Estimated shares of the fragments a tag expression passes, per connection, with the index size they were taken at. */
const shares = new WeakMap<QueryDb, Map<string, { share: number; maxId: number }>>();

/**
 * The share of all fragments the plan's tags pass, estimated from SHARE_PROBES spans of rowids spread over the index
 * (a seek and a walk of at most PROBE_SPAN rows each; the tags' whole doclists are what is too long to count), and
 * kept until the index grows by a tenth: a share moves slowly, and only the speed of a search depends on it.
 */
function tagShare(db: QueryDb, plan: SearchPlan): number {
	const maxId = get<{ n: number | null }>(db, "SELECT max(id) AS n FROM fragments")?.n ?? 0;
	const tags = plan.tagMatches.map((t) => `(${t})`).join(" AND ");
	const known = shares.get(db) ?? new Map<string, { share: number; maxId: number }>();
	shares.set(db, known);
	const kept = known.get(tags);
	if (kept !== undefined && maxId >= kept.maxId && maxId <= kept.maxId * 1.1) return kept.share;
	const span = Math.max(ID_STRIDE, Math.min(PROBE_SPAN * ID_STRIDE, Math.floor(maxId / SHARE_PROBES)));
	const probe = `SELECT count(*) AS n FROM fragments_fts WHERE fragments_fts MATCH ? AND rowid BETWEEN ${INTEGER} AND ${INTEGER}`;
	const starts = Array.from({ length: SHARE_PROBES }, (_, i) => Math.floor(((i + 0.5) * maxId) / SHARE_PROBES));
	const row = get<{ n: number | null }>(
		db,
		`SELECT sum(n) AS n FROM (${starts.map(() => probe).join(" UNION ALL ")})`,
		starts.flatMap((lo) => [tags, lo, lo + span - 1]),
	);
	const share = (row?.n ?? 0) / fragmentsInIds(SHARE_PROBES * span);
	known.set(tags, { share, maxId });
	return share;
}

/**
 * The filtered window ranked by the terms alone (rankAmong), or undefined when that would walk too many of the
 * terms' matches: they match more than `cap` / BROAD_FILTER_SHARE fragments and the filter passes less than
 * BROAD_FILTER_SHARE of all fragments.
 */
function rankedByTerms(
	db: QueryDb,
	plan: SearchPlan,
	termsOnly: string,
	match: string,
	{ cap, keep, fewMatches = false }: WindowBounds,
): RankedWindow | undefined {
	// The terms match few fragments (at most what a broad filter's window walks): ranking the window by the terms
	// alone walks no more than that, whatever the filter passes (a word found only under it, e.g. only in failed
	// tool results, under `errorOnly`).
	// Exclusions alone (retrieval-tool rows, the caller's own session) pass nearly every fragment: the window is
	// walked newest first, with no count first.
	const exclusionsOnly = plan.tagMatches.length === 0;
	const walk = Math.floor(cap / BROAD_FILTER_SHARE);
	const matches = exclusionsOnly
		? Number.POSITIVE_INFINITY
		: countWithin(db, termsOnly, 0, Number.MAX_SAFE_INTEGER, walk + 1);
	if (!exclusionsOnly && matches > walk && tagShare(db, plan) < BROAD_FILTER_SHARE) return undefined;
	// Within the cap every match is in the window: walked forwards, at twice the speed of newest first. Terms that
	// likely match fewer are walked forwards up to the cap first (an AND of a question's six words that matched
	// nothing: 1.4 → 0.7 ms on 1 GB), and newest first only when that found more.
	const first = exclusionsOnly && fewMatches ? matchIds(db, match, cap + 1, true) : undefined;
	const window =
		first !== undefined && first.n <= cap ? first : matches <= cap ? matchIds(db, match) : matchIds(db, match, cap + 1);
	if (window?.lo == null || window.hi === null) return { ranked: [], capped: false };
	const capped = window.n > cap;
	// The (cap + 1)th, oldest id only said whether the cap applied.
	const lo = capped ? (JSON.parse(window.ids) as number[])[cap - 1] : window.lo;
	return { ranked: rankAmong(db, termsOnly, window.ids, lo, window.hi, keep), capped, span: { lo, hi: window.hi } };
}

/** What rankedWindow keeps and how it ranks (CandidateOptions says what each means). */
export interface WindowBounds {
	cap: number;
	keep: number;
	exactForms?: ReadonlyArray<string | undefined>;
	typedPhrase?: boolean;
	fewMatches?: boolean;
}

/**
 * The best `keep` of the newest `cap` matches of `match` (the terms and the plan's tags), by weighted bm25. Bounded
 * work: the window is a subquery walking the doclist newest first, and bm25 runs on it once; one row more than the
 * cap says whether it applied, without a second walk.
 *
 * bm25 computes its idf with a full scan of the doclist of every phrase in the expression, filter tags included,
 * and a tag such as a year, a role or a kind is on a large share of all fragments (a rare word under a time range
 * cost 30 ms that way; `kinds: tool_result` 12 ms on 1 GB). A phrase under NOT counts too: the exclusion of
 * retrieval-tool rows, in almost every search, cost 0.6–0.9 ms on 1 GB (20,000 such rows), most of a rare word's
 * search. So when the terms alone match few fragments, or the filter passes a large share of all fragments (as
 * exclusions alone do), the window's ids are walked without bm25 and ranked by the terms alone (rankedByTerms): the
 * same rows, the same order.
 */
export function rankedWindow(
	db: QueryDb,
	plan: SearchPlan,
	termMatches: readonly string[],
	match: string,
	bounds: WindowBounds,
): RankedWindow {
	const { cap, keep, exactForms = [], typedPhrase = false } = bounds;
	let ranks = match;
	let exactCounted = false;
	// Under exclusions alone, a phrase's window is ranked in one pass: walking it first evaluates its positions twice
	// (+12 % on "no such file", more than the exclusion's idf scan saves).
	const byTermsOnly = plan.tagExclusions.length > 0 && !typedPhrase;
	if (plan.tagMatches.length > 0 || byTermsOnly) {
		const termsOnly = matchExpression({ tagMatches: [], tagExclusions: [] }, termMatches);
		const byTerms = rankedByTerms(db, plan, termsOnly, match, bounds);
		if (byTerms) return byTerms;
		// A selective filter: the window spans a long stretch of the terms' doclists, too long to walk for a presence
		// bonus, so each exact form is written twice and bm25 counts it (one more doclist scan for its idf).
		const twice = termMatches.map((m, i) => (exactForms[i] ? `(${exactForms[i]} OR ${m})` : m));
		exactCounted = exactForms.some((f) => f !== undefined);
		ranks = matchExpression(plan, twice);
	}
	const ranked = allViaJson<{ id: number; score: number; n: number; lo: number; hi: number }>(
		db,
		{ id: "id", score: "score", n: "n", lo: "lo", hi: "hi" },
		`FROM (SELECT id, score, n, lo, hi FROM (SELECT id, score, count(*) OVER () AS n, min(id) OVER () AS lo,
			max(id) OVER () AS hi, row_number() OVER (ORDER BY id DESC) AS age FROM (SELECT rowid AS id, ${WEIGHTED_BM25} AS score
			FROM fragments_fts WHERE fragments_fts MATCH ? ORDER BY rowid DESC LIMIT ?))
		WHERE age <= ? ORDER BY score, id LIMIT ?)`,
		[ranks, cap + 1, cap, keep],
		true,
	);
	const first = ranked[0];
	return {
		ranked: bestFirst(ranked),
		capped: (first?.n ?? 0) > cap,
		exactCounted,
		...(first ? { span: { lo: first.lo, hi: first.hi } } : {}),
	};
}
