/**
 * Why a search found nothing. "No event contains any of its terms" was said of every empty answer, also when the
 * terms were there and a filter excluded every event holding them: the model then dropped the right words instead
 * of the wrong filter. Only an empty answer is explained: the OR of the terms (with every quoted phrase, as the
 * relaxed tier asks) is looked for without the filters, then under each filter alone, then under all but one; each
 * look reads the newest MAX_RANKED_MATCHES matches inside the index and checks them exactly, stopping at the first.
 */
import type { EmptiedBy } from "../../contract.js";
import type { QueryDb } from "../db.js";
import { anyPasses, MAX_RANKED_MATCHES } from "./candidates.js";
import { matchExpression, matchIds } from "./ranked-window.js";
import { type FilterPart, type PlanRules, rulesWith, type SearchPlan } from "./request.js";

/** The terms as one requirement: every quoted phrase and any plain term. */
function anyTerm(plan: SearchPlan): string[] {
	const phrases = plan.terms.filter((t) => t.quoted).map((t) => t.match);
	const plain = plan.terms.filter((t) => !t.quoted).map((t) => t.match);
	return plain.length > 0 ? [...phrases, plain.map((m) => `(${m})`).join(" OR ")] : phrases;
}

/** Whether any event the rules let through holds the terms (`terms`: FTS expressions, all required). */
function holds(db: QueryDb, rules: PlanRules, terms: readonly string[]): boolean {
	if (rules.empty || terms.length === 0) return false;
	const found = matchIds(db, matchExpression(rules, terms), MAX_RANKED_MATCHES);
	return found !== undefined && found.n > 0 && anyPasses(db, rules.checks, found.ids);
}

/**
 * The filters that emptied the answer of `plan`, or undefined when no visible event holds its terms at all (or, in
 * a case the search's own bounds hid, when the filters let some through).
 */
export function emptiedBy(db: QueryDb, plan: SearchPlan): EmptiedBy | undefined {
	const parts = plan.filterParts;
	const terms = anyTerm(plan);
	if (parts.length === 0 || !holds(db, rulesWith(plan, []), terms)) return undefined;
	const alone = parts.filter((p) => !holds(db, rulesWith(plan, [p]), terms)).map((p) => p.field);
	if (alone.length > 0) return { filters: alone, alone: true };
	const without = (p: FilterPart) => parts.filter((q) => q !== p);
	const decisive = parts.filter((p) => holds(db, rulesWith(plan, without(p)), terms)).map((p) => p.field);
	if (decisive.length === 0 && holds(db, rulesWith(plan, parts), terms)) return undefined;
	return { filters: decisive.length > 0 ? decisive : parts.map((p) => p.field), alone: false };
}
