/**
 * searchEvents: plan (validate, filters as FTS tags and SQL checks) → candidates of every term inside the FTS index
 * → rank and coalesce per event, fold fork copies → when fewer than the limit, relaxed tiers of some terms → hits.
 * Reads the persistent index only — no scan at call time. Stages live in ./search/.
 */
import type { EventSearchRequest, EventSearchResult } from "../contract.js";
import type { CallerContext } from "./caller.js";
import type { QueryDb } from "./db.js";
import { RERANK_LIMIT } from "./rank.js";
import { coverageOf, type QueryOptions } from "./rows.js";
import { findCandidates, listCandidates, MAX_RANKED_MATCHES, SEARCH_CANDIDATE_LIMIT } from "./search/candidates.js";
import { coalesce, foldForkCopies, shownKeys } from "./search/coalesce.js";
import { emptiedBy } from "./search/emptied-by.js";
import { toHit } from "./search/hits.js";
import { withIntent } from "./search/intent.js";
import { planSearch, type SearchPlan } from "./search/request.js";
import { typedAsPhrase } from "./search/terms.js";
import { relaxedTiers } from "./search/tiers.js";
import { weakMatches } from "./search/weak-matches.js";
import { withResolvedSession } from "./session-prefix.js";

export { MAX_RANKED_MATCHES, SEARCH_CANDIDATE_LIMIT };

/** Fork copies are looked for among this many pages of ranked events (bounded work; copies rank together). */
const FOLD_WINDOW_PAGES = 3;

/** Terms from which a conjunction likely matches fewer fragments than its window holds (only speed depends on it). */
const FEW_MATCH_TERMS = 3;

/**
 * Fragments ranked and joined for a page of `limit` events: enough for the proximity re-rank and for the fork-folding
 * window (an event has a few fragments), at most SEARCH_CANDIDATE_LIMIT. Joins are the per-row cost.
 */
function candidateRows(limit: number): number {
	return Math.min(SEARCH_CANDIDATE_LIMIT, Math.max(RERANK_LIMIT, limit * FOLD_WINDOW_PAGES * 4));
}

/** An empty result with the filters that emptied it, when filters did (emptied-by.ts). */
function withEmptyReason(db: QueryDb, plan: SearchPlan, result: EventSearchResult): EventSearchResult {
	const why = emptiedBy(db, plan);
	if (why) result.emptiedBy = why;
	return result;
}

/** Search authorized sessions; throws QueryError (only) for an invalid request. */
export function searchEvents(
	db: QueryDb,
	req: EventSearchRequest,
	caller: CallerContext,
	options: QueryOptions = {},
): EventSearchResult {
	// A session-id prefix is resolved once, here, among the caller's authorized sessions.
	const plan = planSearch(db, withResolvedSession(db, req, caller), caller);
	const { searchLimit: limit, otherFragmentIds, snippetChars } = caller.budgets;
	if (plan.empty)
		return withEmptyReason(db, plan, { hits: [], truncated: false, limit, coverage: coverageOf(db, options) });

	// No terms: a look-up by file (request.ts allows an empty query with `paths`), newest first.
	const found =
		plan.terms.length === 0
			? listCandidates(db, plan, { limit: candidateRows(limit) })
			: findCandidates(
					db,
					plan,
					plan.terms.map((t) => t.match),
					{
						limit: candidateRows(limit),
						exactForms: plan.terms.map((t) => t.exactForm),
						typedPhrase: plan.terms.some(typedAsPhrase),
						fewMatches: plan.terms.length >= FEW_MATCH_TERMS,
						log: options.log,
					},
				);
	const window = limit * FOLD_WINDOW_PAGES;
	const full = foldForkCopies(
		db,
		coalesce(
			db,
			withIntent(found.rows, plan.wants),
			plan.terms.map((t) => t.tokens),
			otherFragmentIds,
		),
		window,
	);
	const relaxed =
		full.length < limit && plan.terms.length > 0
			? relaxedTiers(db, plan, limit - full.length, shownKeys(full), otherFragmentIds, options.log)
			: undefined;
	const partial = relaxed ? foldForkCopies(db, relaxed.groups, window) : [];
	const needles = plan.terms.flatMap((t) => t.tokens);
	const shownPartial = partial.slice(0, Math.max(0, limit - full.length));
	const hits = [...full.slice(0, limit), ...shownPartial].map((g) => toHit(db, g, needles, snippetChars));
	const result: EventSearchResult = {
		hits,
		truncated: full.length > limit || found.more || found.capped,
		limit,
		coverage: coverageOf(db, options),
	};
	if (hits.length === 0) withEmptyReason(db, plan, result);
	if (found.capped) result.rankedMatchCap = MAX_RANKED_MATCHES;
	if (partial.length > 0) {
		result.relaxed = true;
		result.tiers = { allTerms: Math.min(full.length, limit), someTerms: hits.length - Math.min(full.length, limit) };
		const weak = weakMatches(full.length, shownPartial);
		if (weak) result.weakMatches = weak;
	}
	return result;
}
