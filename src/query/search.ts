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
import { coalesce, type EventGroup, foldForkCopies, shownKeys } from "./search/coalesce.js";
import { emptiedBy } from "./search/emptied-by.js";
import { toHit } from "./search/hits.js";
import { withIntent } from "./search/intent.js";
import { planSearch, type SearchPlan } from "./search/request.js";
import { liftsTaskEvents } from "./search/task-evidence.js";
import { typedAsPhrase } from "./search/terms.js";
import { type RelaxedGroup, relaxedTiers } from "./search/tiers.js";
import { weakMatches } from "./search/weak-matches.js";
import { withResolvedSession } from "./session-prefix.js";

export { MAX_RANKED_MATCHES, SEARCH_CANDIDATE_LIMIT };

/** Fork copies are looked for among this many pages of ranked events (bounded work; copies rank together). */
const FOLD_WINDOW_PAGES = 3;

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
	const { searchLimit: limit, otherFragmentIds } = caller.budgets;
	if (plan.empty)
		return withEmptyReason(db, plan, { hits: [], truncated: false, limit, coverage: coverageOf(db, options) });

	// A question asking for the work is ranked in one order, the relaxed tier's (workOrder); the conjunction of tier 1
	// is walked only when that order finds nothing, or to say whether a page that looks weak has an event holding
	// every term (then it is never weak).
	const work = workOrder(db, plan, limit, otherFragmentIds, options.log);
	if (work !== undefined && work.length > 0) {
		const result = pageResult(db, plan, { groups: work, relaxed: work }, { truncated: false }, caller.budgets, options);
		if (result.weakMatches && tierOne(db, plan, limit, otherFragmentIds, options).full.length > 0)
			delete result.weakMatches;
		return result;
	}
	const { found, full } = tierOne(db, plan, limit, otherFragmentIds, options);
	// The relaxed order of a question asking for the work already found nothing: without the events tier 1 shows it
	// would find nothing again.
	const page =
		work === undefined ? pageGroups(db, plan, full, limit, otherFragmentIds, options.log) : onlyFull(full, limit);
	const result = pageResult(
		db,
		plan,
		page,
		{ truncated: full.length > limit || found.more || found.capped, allTerms: full.length },
		caller.budgets,
		options,
	);
	if (found.capped) result.rankedMatchCap = MAX_RANKED_MATCHES;
	return result;
}

/**
 * Tier 1: the events holding every term, ranked, fork copies folded. With no terms, a look-up by file (request.ts
 * allows an empty query with `paths`), newest first.
 */
function tierOne(db: QueryDb, plan: SearchPlan, limit: number, otherIds: number, options: QueryOptions) {
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
						log: options.log,
					},
				);
	const events = coalesce(
		db,
		withIntent(found.rows, plan.wants),
		plan.terms.map((t) => t.tokens),
		otherIds,
	);
	return { found, full: foldForkCopies(db, events, limit * FOLD_WINDOW_PAGES) };
}

/** A page: its events in order, and those of them the relaxed tier ranked (in order). */
interface Page {
	groups: Array<EventGroup | RelaxedGroup>;
	relaxed: RelaxedGroup[];
}

/** What tier 1 said of a page: whether more existed, and how many events hold every term (when it ran). */
interface TierOne {
	truncated: boolean;
	allTerms?: number;
}

/** The result of a page: its hits, coverage, and what the relaxed tier's part of it says (tiers, weak matches). */
function pageResult(
	db: QueryDb,
	plan: SearchPlan,
	page: Page,
	tierOne: TierOne,
	budgets: CallerContext["budgets"],
	options: QueryOptions,
): EventSearchResult {
	const { searchLimit: limit, snippetChars } = budgets;
	const needles = plan.terms.flatMap((t) => t.tokens);
	const hits = page.groups.map((g) => toHit(db, g, needles, snippetChars));
	const result: EventSearchResult = { hits, truncated: tierOne.truncated, limit, coverage: coverageOf(db, options) };
	if (hits.length === 0) withEmptyReason(db, plan, result);
	if (page.relaxed.length > 0) {
		result.relaxed = true;
		const allTerms = page.groups.filter((g) => !("missing" in g) || g.missing.length === 0).length;
		result.tiers = { allTerms, someTerms: hits.length - allTerms };
		// A page with an event holding every term is never weak, in whichever order it ranks.
		const weak = weakMatches(tierOne.allTerms ?? allTerms, page.relaxed);
		if (weak) result.weakMatches = weak;
	}
	return result;
}

/**
 * The page of a question asking for the work itself (task-evidence.ts), in the relaxed tier's one order: the work's
 * edits, test runs and outputs seldom say the topic's words, so events that happen to hold them all (a long diff, a
 * whole test log) must not fill the page first; they rank in that order with the rest. Undefined for any other
 * question; empty when that order finds nothing (then tier 1 alone makes the page).
 */
function workOrder(
	db: QueryDb,
	plan: SearchPlan,
	limit: number,
	otherIds: number,
	log?: (message: string) => void,
): RelaxedGroup[] | undefined {
	if (plan.terms.length === 0 || !liftsTaskEvents(plan.wants)) return undefined;
	const groups = relaxedTiers(db, plan, limit, new Set(), otherIds, log).groups;
	return foldForkCopies(db, groups, limit * FOLD_WINDOW_PAGES).slice(0, limit);
}

/** The page's events: those holding every term (`full`, ranked), then when they are fewer than `limit` the relaxed tier's. */
function pageGroups(
	db: QueryDb,
	plan: SearchPlan,
	full: EventGroup[],
	limit: number,
	otherIds: number,
	log?: (message: string) => void,
): Page {
	if (plan.terms.length === 0 || full.length >= limit) return onlyFull(full, limit);
	const relaxed = foldForkCopies(
		db,
		relaxedTiers(db, plan, limit - full.length, shownKeys(full), otherIds, log).groups,
		limit * FOLD_WINDOW_PAGES,
	).slice(0, limit - full.length);
	return { groups: [...full, ...relaxed], relaxed };
}

/** A page of tier 1's events alone. */
function onlyFull(full: EventGroup[], limit: number): Page {
	return { groups: full.slice(0, limit), relaxed: [] };
}
