/**
 * Natural phrasing: a search query as a model or a person writes it ("when did we fix the failing migrations?")
 * → the units search-core matches. Pure, no I/O. Tokenisation is query-compiler's own (unicode61 splits, CJK
 * bigrams, quoting rules), so every string here is a token sequence the index can hold:
 *  - a plain English word becomes a term with its inflections as variants (stem.ts) and, when safe, a prefix;
 *  - an identifier (digits, `_`, an inner capital or an inner dot: RETRY_BUDGET_MS, parseChunk, v0.73.1, 0.73),
 *    an ALL-CAPS word, a CJK run, a hyphenated or otherwise split word and any non-English word match exactly
 *    (one variant; a unit of several tokens is a phrase: its text joins the tokens with spaces);
 *  - function and question words are optional (stopwords.ts), unless the query has nothing else;
 *  - quoted phrases are exact and always required.
 * Rules and measured variant counts: docs/natural-phrasing.md.
 */

import {
	compileQuery,
	normalizeToken,
	type QueryToken,
	segmentTokens,
	splitQuery,
	unicode61Tokens,
} from "./query-compiler.js";
import { wordForms } from "./stem.js";
import { isStopword } from "./stopwords.js";

/**
 * One unit of the query. Every string in `variants` and `prefix` is valid double-quoted in an FTS5 MATCH
 * (`"v"`, `"prefix"*`); a string with spaces is a phrase of adjacent tokens.
 */
export interface QueryTerm {
	/** The normalised unit as typed: lowercase, diacritics folded like unicode61; tokens joined by single spaces. */
	text: string;
	/** FTS token strings that count as the same word: `text` first, then inflections (at most MAX_WORD_FORMS). */
	variants: string[];
	/**
	 * A stem to match as an FTS5 prefix (`"migrat"*`), a superset of the variants. English words: only when ≥ 4
	 * letters; search-core decides whether to use it. A unit ending in a lone CJK character: the prefix is what
	 * compileQuery matches (the index holds such a character only inside bigrams), so it is needed for parity.
	 */
	prefix?: string;
	/** True for function and question words: they may add score but must not decide whether an event matches. */
	optional: boolean;
}

/** The analysed query: loose terms in query order, quoted phrases, and the words made optional. */
export interface AnalyzedQuery {
	/** Unquoted units in query order, duplicates removed. */
	terms: QueryTerm[];
	/** Quoted phrases: exact (variants = [text]), always required, never inflected. */
	phrases: QueryTerm[];
	/** The optional words as the user wrote them (lowercase, e.g. "didn't"), for the text the model reads. */
	ignored: string[];
}

/** Shortest English prefix offered: shorter ones ("use"*, "run"*) match too many unrelated words. */
export const MIN_PREFIX_LENGTH = 4;

/** Analyse a query. Errors (empty, no searchable words, too long) are compileQuery's, word for word. */
export function analyzeQuery(query: string): AnalyzedQuery | { error: string } {
	const compiled = compileQuery(query);
	if (!compiled.ok) return { error: compiled.error };
	const terms: QueryTerm[] = [];
	const phrases: QueryTerm[] = [];
	const ignored: string[] = [];
	for (const segment of splitQuery(query)) {
		const tokens = segmentTokens(segment.quoted ? segment.text : withoutPossessive(segment.text));
		const text = tokens.map((t) => normalizeToken(t.text)).join(" ");
		if (text.trim() === "") continue;
		if (segment.quoted) {
			if (!phrases.some((p) => p.text === text)) phrases.push(exactUnit(text, tokens));
			continue;
		}
		if (terms.some((t) => t.text === text)) continue;
		const word = contractionForm(segment.text);
		if (isStopword(word)) {
			terms.push({ text, variants: [text], optional: true });
			ignored.push(word);
		} else terms.push(isInflectable(segment.text, tokens, text) ? wordUnit(text) : exactUnit(text, tokens));
	}
	// A query of nothing but function words ("the", "what was it") still searches for them.
	if (phrases.length === 0 && terms.every((t) => t.optional)) {
		for (const t of terms) t.optional = false;
		ignored.length = 0;
	}
	return { terms, phrases, ignored };
}

/** An English word: its inflections, and its stem as a prefix when long enough. */
function wordUnit(text: string): QueryTerm {
	const variants = wordForms(text);
	const prefix = commonPrefix(variants);
	return prefix.length >= MIN_PREFIX_LENGTH
		? { text, variants, prefix, optional: false }
		: { text, variants, optional: false };
}

/** A unit matched exactly as tokenised; a trailing lone CJK character keeps compileQuery's prefix match. */
function exactUnit(text: string, tokens: QueryToken[]): QueryTerm {
	const unit: QueryTerm = { text, variants: [text], optional: false };
	if (tokens[tokens.length - 1]?.prefix) unit.prefix = text;
	return unit;
}

function commonPrefix(words: string[]): string {
	let prefix = words[0];
	for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
	return prefix;
}

/**
 * True for a plain English word: one token of ASCII letters after folding, typed without digits, `_`, inner dots
 * or inner capitals, and not ALL CAPS (an acronym or a log constant is matched as written).
 */
function isInflectable(raw: string, tokens: QueryToken[], text: string): boolean {
	if (tokens.length !== 1 || !/^[a-z]{2,}$/u.test(text)) return false;
	const word = tokens[0].text;
	if (/[\p{Lu}]{2,}/u.test(word) && word === word.toUpperCase()) return false;
	if (/\p{Ll}\p{Lu}/u.test(word)) return false;
	// Digits, `_` or a dot between token characters anywhere in the typed segment mark an identifier.
	return !/[\p{N}_]|[\p{L}\p{N}]\.[\p{L}\p{N}]/u.test(raw);
}

/** `Caroline's` → `Caroline` (the possessive is not part of the word), keeping any trailing punctuation. */
function withoutPossessive(segment: string): string {
	const stripped = segment.replace(/(?<=\p{L})['’][sS](?=[^\p{L}\p{N}]*$)/u, "");
	return unicode61Tokens(stripped).length > 0 ? stripped : segment;
}

/** The segment as a lowercase word with straight apostrophes and no surrounding punctuation ("Didn’t?" → "didn't"). */
function contractionForm(segment: string): string {
	return normalizeToken(segment)
		.replaceAll("’", "'")
		.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}
