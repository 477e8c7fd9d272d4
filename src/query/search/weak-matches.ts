/**
 * When to say that a page's best matches are weak: no hit holds every term, and none of the first WEAK_WINDOW holds
 * WEAK_COVERAGE of the query's weight (each term weighing its idf: tiers.ts, RelaxedGroup.coverage). A question
 * about work the history never saw ("how did we fix the stripe webhook signature mismatch") then finds only its
 * common words ("fixed", "mismatch"); a question with an answer holds at least one of its rarer words somewhere on
 * top. Chosen on the coding eval's tune half (docs/ranking.md, "Weak matches").
 */
import type { WeakMatches } from "../../contract.js";
import type { RelaxedGroup } from "./tiers.js";

/** Share of the query's weight below which the best hit is a weak match. */
const WEAK_COVERAGE = 0.3;
/** The hits looked at: those a reader looks at first. */
const WEAK_WINDOW = 5;

/**
 * The page's weakness, or undefined when it is not weak. `allTerms`: hits holding every term (then never weak);
 * `partial`: the relaxed hits shown, in order.
 */
export function weakMatches(allTerms: number, partial: readonly RelaxedGroup[]): WeakMatches | undefined {
	if (allTerms > 0 || partial.length === 0) return undefined;
	const best = Math.max(...partial.slice(0, WEAK_WINDOW).map((g) => g.coverage));
	if (best >= WEAK_COVERAGE) return undefined;
	const held = new Set(partial.flatMap((g) => g.matched.map((t) => t.label)));
	const unmatched = partial[0].missing.filter((t) => !held.has(t.label)).map((t) => t.label);
	return { bestCoverage: Math.floor(best * 100) / 100, unmatchedTerms: unmatched };
}
