/**
 * Stage 2b: relaxed tiers. When fewer events than the limit contain every term, the rest of the page is filled
 * with events that contain only some of the terms. Candidates come from inside the FTS index under every filter:
 * the OR of all the terms, and each term alone (so a rare term's events are found however common the others are,
 * each query bounded to its newest RELAXED_RANKED_MATCHES). Every candidate is then scored exactly: its weighted
 * bm25 against the OR of all the terms (bm25 adds the idf of each matched term, so covering more and rarer terms
 * ranks higher, while a term repeated in a short statement still counts) and its matched terms by one membership
 * query per term. Measured on bench/natural: 81 % recall@5 against 75 % for plain bm25-OR (a strict
 * coverage-first order of term subsets measured 72 %). Quoted phrases are required in every query.
 */
import { all, get, type QueryDb } from "../db.js";
import { weightedBm25Sql } from "../rank.js";
import { type CandidateRow, findCandidates } from "./candidates.js";
import { coalesce, type EventGroup, eventKey } from "./coalesce.js";
import type { SearchPlan } from "./request.js";
import type { SearchTerm } from "./terms.js";

/** Candidates taken from the OR of all terms, and from each term alone. */
const OR_CANDIDATES = 200;
const TERM_CANDIDATES = 60;
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

const IDS_SQL = "rowid IN (SELECT value FROM json_each(?))";

/** Weighted bm25 of each fragment id against `match` (ids that do not match are absent). */
function scoresOf(db: QueryDb, match: string, ids: string): Map<number, number> {
	const rows = all<{ id: number; score: number }>(
		db,
		`SELECT rowid AS id, ${weightedBm25Sql()} AS score FROM fragments_fts WHERE fragments_fts MATCH ? AND ${IDS_SQL}`,
		[match, ids],
	);
	return new Map(rows.map((r) => [r.id, r.score]));
}

/** The ids among `ids` whose fragment matches `match`. */
function matching(db: QueryDb, match: string, ids: string): Set<number> {
	const rows = all<{ id: number }>(
		db,
		`SELECT rowid AS id FROM fragments_fts WHERE fragments_fts MATCH ? AND ${IDS_SQL}`,
		[match, ids],
	);
	return new Set(rows.map((r) => r.id));
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
		.slice(0, MAX_RELAXED_TERMS)
		.map((t) => t.term);
	if (live.length === 0 && phrases.length === 0) return result;

	const anyTerm = live.length > 0 ? `(${live.map((t) => t.match).join(" OR ")})` : undefined;
	const required = phrases.map((t) => t.match);
	const rows = new Map<number, CandidateRow>();
	const gather = (matches: string[], limit: number) => {
		const found = findCandidates(db, plan, matches, RELAXED_RANKED_MATCHES, limit, log);
		if (found.capped) result.capped = true;
		for (const row of found.rows) rows.set(row.fragmentId, row);
	};
	if (anyTerm) gather([...required, anyTerm], OR_CANDIDATES);
	if (live.length > 1) for (const term of live) gather([...required, term.match], TERM_CANDIDATES);
	// The phrases alone: events that have them but none of the other terms still fill the page.
	if (required.length > 0) gather(required, TERM_CANDIDATES);
	if (rows.size === 0) return result;

	const ids = JSON.stringify([...rows.keys()]);
	const scores = anyTerm ? scoresOf(db, anyTerm, ids) : new Map<number, number>();
	const members = live.map((term) => matching(db, term.match, ids));
	const matchedOf = new Map<string, Set<number>>();
	const scored = [...rows.values()].map((row) => {
		const key = eventKey(row);
		const set = matchedOf.get(key) ?? new Set<number>();
		members.forEach((m, i) => {
			if (m.has(row.fragmentId)) set.add(i);
		});
		matchedOf.set(key, set);
		return { ...row, score: scores.get(row.fragmentId) ?? row.score };
	});
	scored.sort((a, b) => a.score - b.score || a.fragmentId - b.fragmentId);
	const phraseTokens = [...phrases, ...live].map((t) => t.tokens);
	const seen = new Set(exclude);
	for (const group of coalesce(db, scored, phraseTokens, otherIds)) {
		const key = eventKey(group.best);
		if (seen.has(key)) continue;
		seen.add(key);
		const hit = matchedOf.get(key) ?? new Set<number>();
		const matched = live.filter((_, i) => hit.has(i));
		result.groups.push({ ...group, matched, missing: plain.filter((t) => !matched.includes(t)) });
	}
	result.groups = result.groups.slice(0, need);
	return result;
}
