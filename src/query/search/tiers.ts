/**
 * Stage 2b: relaxed tiers. When fewer events than the limit contain every term, the rest of the page is filled
 * with the events matching some of the terms: term subsets are tried in order of their summed idf, each as its own
 * conjunction inside the FTS index (so a rare term's events are found however common the other terms are), and an
 * event's matched terms are those of the first subset that found it. The events found are then ranked by their
 * weighted bm25 over the terms they contain: bm25 sums the idf of each matched term, so covering more and rarer
 * terms ranks higher, and a term that occurs often in a short fragment still counts (a strict coverage-first order
 * measured 71.7 % recall@5 on bench/natural, this one 76.5 %; docs/query-language.md). Quoted phrases are in every
 * subset. Work is bounded by MAX_RELAXED_QUERIES conjunctions of at most RELAXED_RANKED_MATCHES.
 */
import { get, type QueryDb } from "../db.js";
import { findCandidates } from "./candidates.js";
import { coalesce, type EventGroup, eventKey } from "./coalesce.js";
import type { SearchPlan } from "./request.js";
import type { SearchTerm } from "./terms.js";

/** Conjunctions a relaxed search runs at most (subsets of the terms). */
export const MAX_RELAXED_QUERIES = 16;
/** Matches ranked per relaxed conjunction at most (newest first). */
export const RELAXED_RANKED_MATCHES = 2_000;
/** Document frequencies are counted up to this many fragments; commoner terms all weigh the same. */
export const DF_COUNT_CAP = 10_000;
/** Terms considered for relaxation at most (the rarest); the others count as missing. */
const MAX_RELAXED_TERMS = 10;

/** An event of a relaxed tier: its group and which of the plain terms it contains. */
export interface RelaxedGroup extends EventGroup {
	matched: SearchTerm[];
	missing: SearchTerm[];
}

/** What the relaxed tiers found. */
export interface RelaxedResult {
	groups: RelaxedGroup[];
	/** Some conjunction hit its ranked-match cap. */
	capped: boolean;
}

/** Fragments containing the term anywhere, counted up to DF_COUNT_CAP. */
function documentFrequency(db: QueryDb, term: SearchTerm): number {
	return (
		get<{ n: number }>(
			db,
			"SELECT count(*) AS n FROM (SELECT 1 FROM fragments_fts WHERE fragments_fts MATCH ? LIMIT ?)",
			[term.match, DF_COUNT_CAP],
		)?.n ?? 0
	);
}

function popcount(mask: number): number {
	let n = 0;
	for (let m = mask; m; m &= m - 1) n++;
	return n;
}

/**
 * Events that match only some of the plain terms, best coverage first, at most `need`, none of them in `exclude`
 * (event keys already shown). Empty when the query has nothing to relax.
 */
export function relaxedTiers(
	db: QueryDb,
	plan: SearchPlan,
	need: number,
	exclude: ReadonlySet<string>,
	otherIds: number,
	log?: (message: string) => void,
): RelaxedResult {
	const phrases = plan.terms.filter((t) => t.quoted);
	const plain = plan.terms.filter((t) => !t.quoted);
	const result: RelaxedResult = { groups: [], capped: false };
	if (need <= 0 || plain.length === 0 || (plain.length === 1 && phrases.length === 0)) return result;

	const total = Math.max(1, get<{ n: number | null }>(db, "SELECT max(id) AS n FROM fragments")?.n ?? 1);
	const live = plain
		.map((term) => ({ term, df: documentFrequency(db, term) }))
		.filter((t) => t.df > 0)
		.map((t) => ({ term: t.term, idf: Math.log(1 + (total - t.df + 0.5) / (t.df + 0.5)) }))
		.sort((a, b) => b.idf - a.idf)
		.slice(0, MAX_RELAXED_TERMS);
	const full = (1 << live.length) - 1;
	const weight = (mask: number) => live.reduce((w, t, i) => (mask & (1 << i) ? w + t.idf : w), 0);
	const masks: number[] = [];
	for (let mask = full; mask >= 0; mask--) {
		// Every live term together is tier 1 unless some term matched nothing at all.
		if (mask === full && live.length === plain.length) continue;
		if (mask === 0 && phrases.length === 0) continue;
		masks.push(mask);
	}
	masks.sort((a, b) => weight(b) - weight(a) || popcount(b) - popcount(a));

	const seen = new Set(exclude);
	const empty: number[] = [];
	const run = (mask: number) => {
		const terms = live.filter((_, i) => mask & (1 << i)).map((t) => t.term);
		const found = findCandidates(
			db,
			plan,
			[...phrases, ...terms].map((t) => t.match),
			RELAXED_RANKED_MATCHES,
			undefined,
			log,
		);
		if (found.capped) result.capped = true;
		if (found.rows.length === 0) {
			empty.push(mask);
			return;
		}
		const phraseTokens = [...phrases, ...terms].map((t) => t.tokens);
		for (const group of coalesce(db, found.rows, phraseTokens, otherIds)) {
			const key = eventKey(group.best);
			if (seen.has(key)) continue;
			seen.add(key);
			result.groups.push({ ...group, matched: terms, missing: plain.filter((t) => !terms.includes(t)) });
		}
	};
	let queries = 0;
	for (const mask of masks) {
		// A superset of a conjunction that matched nothing matches nothing either.
		if (empty.some((e) => (mask & e) === e)) continue;
		if (queries >= MAX_RELAXED_QUERIES) break;
		queries++;
		run(mask);
	}
	// Never a silent empty while some term matches: the single terms, rarest first, if the budget ran out before.
	if (result.groups.length === 0) {
		for (let i = 0; i < live.length && result.groups.length === 0; i++) {
			if (!empty.includes(1 << i)) run(1 << i);
		}
	}
	result.groups = result.groups.sort((a, b) => a.best.score - b.best.score).slice(0, need);
	return result;
}
