/** The one sentence that says a page's best matches are weak (tools and CLI, each quoting terms its own way). */
import type { WeakMatches } from "../contract.js";

/**
 * "weak matches only: the best hits hold 12 % of the query's weight (rarer words weigh more); no hit holds "stripe",
 * "webhook". The history may not hold this", with `quote` quoting each term.
 */
export function weakText(w: WeakMatches, quote: (term: string) => string): string {
	const share = `${Math.round(w.bestCoverage * 100)} %`;
	const none = w.unmatchedTerms.length > 0 ? `; no hit holds ${w.unmatchedTerms.map(quote).join(", ")}` : "";
	return `weak matches only: the best hits hold ${share} of the query's weight (rarer words weigh more)${none}. The history may not hold this`;
}
