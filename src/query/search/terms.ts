/**
 * The query as the search pipeline sees it: a list of terms, each an FTS5 expression that matches when any of its
 * forms occurs, plus the tokens ranking and snippets look for. The analysis (optional function words, inflected
 * forms, identifiers and CJK kept exact) is src/text/natural-query.ts; this module only turns its units into
 * MATCH expressions. Quoted phrases are required in every tier; plain terms can be relaxed (tiers.ts). Every
 * token is double-quoted, so no expression built here can be an FTS5 syntax error.
 */

import { looksLikeTag } from "../../text/fragment-tags.js";
import { analyzeQuery, type QueryTerm, type QuestionAsks } from "../../text/natural-query.js";
import { hasCjk } from "../../text/search-text.js";
import { foldToken } from "../../text/term-presence.js";
import { invalid } from "../errors.js";
import { textColumns } from "../rank.js";

/** One term or quoted phrase of the query. */
export interface SearchTerm {
	/** As typed (lowercased; a phrase in double quotes), for matchedTerms/missingTerms and the model's text. */
	label: string;
	/** FTS5 expression: the forms of the term OR-ed. */
	match: string;
	/**
	 * The same forms, each once: what the relaxed tier ranks with. The exact form written twice in `match` (bm25 then
	 * ranks it above inflections) costs a second full doclist scan for bm25's idf, and the OR of many terms pays
	 * that per term.
	 */
	anyForm: string;
	/** Each of anyForm's forms alone, as a MATCH expression: what the relaxed tier counts presence of. */
	formMatches: string[];
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
 * The forms of one unit as FTS5 phrases. The exact form is listed twice unless `distinct`: bm25 sums the phrases a
 * fragment contains, so an event with the word as typed ranks above one with only an inflected form. English stems
 * are not used as prefixes (measured: they cost recall on identifiers); the prefix of a unit ending in a lone CJK
 * character is.
 */
function unitForms(unit: QueryTerm, distinct: boolean): string[] {
	const typed = [sequence(unit.text), ...unit.variants.map((v) => sequence(v))];
	// An exact unit (identifier, phrase) keeps its doubled weight: it is rare, so cheap, and what a question hinges on.
	const forms = distinct && unit.variants.length > 1 ? [...new Set(typed)] : typed;
	if (unit.prefix !== undefined && hasCjk(unit.prefix)) forms.push(sequence(unit.prefix, true));
	return forms;
}

/** `expr` kept off the tags column when a form of the unit is shaped like a tag token (it must not match a tag). */
function offTags(unit: QueryTerm, expr: string): string {
	const tagShaped = [unit.text, ...unit.variants].some((v) => v.split(" ").some((t) => looksLikeTag(t)));
	return tagShaped || (unit.prefix !== undefined && looksLikeTag(unit.prefix, true)) ? textColumns(expr) : expr;
}

/** The MATCH expression of one unit: its forms OR-ed. */
function unitMatch(unit: QueryTerm, distinct = false): string {
	return offTags(unit, `(${unitForms(unit, distinct).join(" OR ")})`);
}

function formMatches(unit: QueryTerm): string[] {
	return unitForms(unit, true).map((form) => offTags(unit, form));
}

/** The unit's forms as folded token sequences (the index folds what the analyser keeps, e.g. accents). */
function formsOf(unit: QueryTerm): string[][] {
	return [unit.text, ...unit.variants].map((v) => v.split(" ").map(foldToken));
}

/** Required terms and phrases of a raw query; throws QueryError (invalid_request) for an unsearchable query. */
export function searchTerms(query: string): { terms: SearchTerm[]; asks?: QuestionAsks } {
	const analyzed = analyzeQuery(query);
	if ("error" in analyzed) throw invalid(analyzed.error);
	const terms = analyzed.terms
		.filter((t) => !t.optional)
		.map((t) => ({
			label: t.text,
			match: unitMatch(t),
			anyForm: unitMatch(t, true),
			formMatches: formMatches(t),
			tokens: t.text.split(" "),
			forms: formsOf(t),
			quoted: false,
		}));
	const phrases = analyzed.phrases.map((p) => ({
		label: `"${p.text}"`,
		match: unitMatch(p),
		anyForm: unitMatch(p, true),
		formMatches: formMatches(p),
		tokens: p.text.split(" "),
		forms: formsOf(p),
		quoted: true,
	}));
	const all = [...phrases, ...terms];
	return analyzed.asks ? { terms: all, asks: analyzed.asks } : { terms: all };
}
