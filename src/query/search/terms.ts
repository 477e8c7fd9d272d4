/**
 * The query as the search pipeline sees it: a list of terms, each an FTS5 expression that matches when any of its
 * forms occurs, plus the tokens ranking and snippets look for. The analysis (optional function words, inflected
 * forms, identifiers and CJK kept exact) is src/text/natural-query.ts; this module only turns its units into
 * MATCH expressions. Quoted phrases are required in every tier; plain terms can be relaxed (tiers.ts). Every
 * token is double-quoted, so no expression built here can be an FTS5 syntax error.
 */

import { textColumns } from "../../store/fragment-ids.js";
import { foldLikeUnicode61 } from "../../text/fold.js";
import { looksLikeTag } from "../../text/fragment-tags.js";
import { analyzeQuery, type QueryTerm, type QuestionAsks } from "../../text/natural-query.js";
import type { AskedKind } from "../../text/request-words.js";
import { hasCjk } from "../../text/search-text.js";
import { invalid } from "../errors.js";

/** One term or quoted phrase of the query. */
export interface SearchTerm {
	/** As typed (lowercased; a phrase in double quotes), for matchedTerms/missingTerms and the model's text. */
	label: string;
	/**
	 * FTS5 expression: the forms of the term OR-ed, each once (an exact unit, an identifier or a phrase, written
	 * twice: it is rare, so cheap, and what a question hinges on).
	 */
	match: string;
	/** Each form alone, as a MATCH expression: what the relaxed tier counts presence of. */
	formMatches: string[];
	/**
	 * The form as typed, for a word with inflections: an event holding it ranks above one with only an inflected
	 * form (presence-window.ts, withPresenceBonus). Writing it twice in `match` did that through bm25, at the cost of
	 * a second walk of its doclist and its positions on every ranked row.
	 */
	exactForm?: string;
	/** Tokens of the exact form, for proximity and snippets. */
	tokens: string[];
	/** Every form (exact first, then inflections) as folded token sequences, for term-presence.ts. */
	forms: string[][];
	/** A quoted phrase: never relaxed. */
	quoted: boolean;
}

const quote = (token: string) => `"${token.replaceAll('"', '""')}"`;

/** A token sequence as an FTS5 phrase (`"a" + "b"`), the last token a prefix query when `prefix`. */
function sequence(text: string, prefix = false): string {
	const tokens = text.split(" ");
	return tokens.map((t, i) => (prefix && i === tokens.length - 1 ? `${quote(t)}*` : quote(t))).join(" + ");
}

/**
 * True when the term was typed as a phrase of several tokens (quoted, or an identifier such as v0.73.1): FTS5 checks
 * its positions on every match, so walking its matches twice costs. The joined-prefix variants of a word ("co" +
 * "balt" for cobalt) are phrases too, but rare ones: they do not count.
 */
export function typedAsPhrase(term: Pick<SearchTerm, "tokens">): boolean {
	return term.tokens.length > 1;
}

/**
 * The forms of one unit as FTS5 phrases, each once; an exact unit's form twice (bm25 sums the phrases a fragment
 * contains). English stems are not used as prefixes (measured: they cost recall on identifiers); the prefix of a
 * unit ending in a lone CJK character is.
 */
function unitForms(unit: QueryTerm): string[] {
	const typed = [sequence(unit.text), ...unit.variants.map((v) => sequence(v))];
	const forms = unit.variants.length > 1 ? [...new Set(typed)] : typed;
	if (unit.prefix !== undefined && hasCjk(unit.prefix)) forms.push(sequence(unit.prefix, true));
	return forms;
}

/** `expr` kept off the tags column when a form of the unit is shaped like a tag token (it must not match a tag). */
function offTags(unit: QueryTerm, expr: string): string {
	const tagShaped = [unit.text, ...unit.variants].some((v) => v.split(" ").some((t) => looksLikeTag(t)));
	return tagShaped || (unit.prefix !== undefined && looksLikeTag(unit.prefix, true)) ? textColumns(expr) : expr;
}

/** The MATCH expression of one unit: its forms OR-ed. */
function unitMatch(unit: QueryTerm): string {
	return offTags(unit, `(${unitForms(unit).join(" OR ")})`);
}

function formMatches(unit: QueryTerm): string[] {
	return [...new Set(unitForms(unit))].map((form) => offTags(unit, form));
}

/** The unit's forms as folded token sequences (the index folds what the analyser keeps, e.g. accents). */
function formsOf(unit: QueryTerm): string[][] {
	return [unit.text, ...unit.variants].map((v) => v.split(" ").map(foldLikeUnicode61));
}

/** One analysed unit as the pipeline's term; `quoted` for a phrase (one form: no exactForm). */
function searchTerm(unit: QueryTerm, quoted: boolean): SearchTerm {
	const each = formMatches(unit);
	return {
		label: quoted ? `"${unit.text}"` : unit.text,
		match: unitMatch(unit),
		formMatches: each,
		// The form as typed is the first form.
		...(unit.variants.length > 1 ? { exactForm: each[0] } : {}),
		tokens: unit.text.split(" "),
		forms: formsOf(unit),
		quoted,
	};
}

/** Required terms and phrases of a raw query; throws QueryError (invalid_request) for an unsearchable query. */
export function searchTerms(query: string): { terms: SearchTerm[]; asks?: QuestionAsks; wants?: AskedKind } {
	const analyzed = analyzeQuery(query);
	if ("error" in analyzed) throw invalid(analyzed.error);
	const terms = analyzed.terms.filter((t) => !t.optional).map((t) => searchTerm(t, false));
	const phrases = analyzed.phrases.map((p) => searchTerm(p, true));
	const all = [...phrases, ...terms];
	const { asks, wants } = analyzed;
	return { terms: all, ...(asks ? { asks } : {}), ...(wants ? { wants } : {}) };
}
