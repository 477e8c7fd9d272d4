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

import { lowerLikeUnicode61 } from "./fold.js";
import { compileQuery, type QueryToken, segmentTokens, splitQuery, unicode61Tokens } from "./query-compiler.js";
import { type AskedKind, askedKind, namesTheAsking, requestWords } from "./request-words.js";
import { MAX_WORD_FORMS, wordForms } from "./stem.js";
import { isStopword } from "./stopwords.js";
import { EDGE_NON_WORD, IDENTIFIER_MARK } from "./word-classes.js";

/**
 * One unit of the query. Every string in `variants` and `prefix` is valid double-quoted in an FTS5 MATCH
 * (`"v"`, `"prefix"*`); a string with spaces is a phrase of adjacent tokens.
 */
export interface QueryTerm {
	/**
	 * The unit as typed, lowercased exactly as unicode61 lowercases, tokens joined by single spaces. Accents are
	 * left for SQLite to fold (a JS fold disagrees with unicode61 on thousands of characters, e.g. kana with
	 * dakuten), so the text always matches the tokens the index holds for the same typed word.
	 */
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

/** What a question asks for, where its question words say (see AnalyzedQuery.asks). */
export type QuestionAsks = "measure" | "name";

/** The analysed query: loose terms in query order, quoted phrases, and the words made optional. */
export interface AnalyzedQuery {
	/** Unquoted units in query order, duplicates removed. */
	terms: QueryTerm[];
	/** Quoted phrases: exact (variants = [text]), always required, never inflected. */
	phrases: QueryTerm[];
	/** The optional words as the user wrote them (lowercase, e.g. "didn't"), for the text the model reads. */
	ignored: string[];
	/**
	 * What the question asks for, when its words say: a measure ("how many", "how long", "how old"), whose answer
	 * likely states a number, or a name ("which test …", "which hook …"), whose answer likely names it.
	 */
	asks?: QuestionAsks;
	/** The kind of event the question asks for, where a cue word says ("what error …", "how did we fix …"). */
	wants?: AskedKind;
}

/** Shortest English prefix offered: shorter ones ("use"*, "run"*) match too many unrelated words. */
const MIN_PREFIX_LENGTH = 4;

/** Analyse a query. Errors (empty, no searchable words, too long) are compileQuery's, word for word. */
export function analyzeQuery(query: string): AnalyzedQuery | { error: string } {
	const compiled = compileQuery(query);
	if (!compiled.ok) return { error: compiled.error };
	const terms: QueryTerm[] = [];
	const phrases: QueryTerm[] = [];
	const ignored: string[] = [];
	let previous = "";
	let asks: QuestionAsks | undefined;
	const segments = splitQuery(query);
	const words = segments.map((s) => (s.quoted ? "" : contractionForm(s.text)));
	const asking = requestWords(
		segments.map((s) => s.text),
		words,
	);
	// Only a query phrased as a question or a request states an intent; a list of keywords does not.
	const phrased = words.length > 0 && (isStopword(words[0]) || asking.has(0));
	const wants = phrased
		? askedKind(
				words.filter((w) => w !== "" && !isStopword(w)),
				words,
			)
		: undefined;
	for (const [index, segment] of segments.entries()) {
		const tokens = segmentTokens(segment.quoted ? segment.text : withoutPossessive(segment.text));
		if (tokens.length === 0) continue;
		const text = tokens.map((t) => lowerLikeUnicode61(t.text)).join(" ");
		if (segment.quoted) {
			if (!phrases.some((p) => p.text === text)) phrases.push(exactUnit(text, tokens));
			continue;
		}
		const word = contractionForm(segment.text);
		const after = previous;
		previous = word;
		if (terms.some((t) => t.text === text)) continue;
		const month = index > 0 && isMonthMay(segment.text);
		// The plain word right after "how" asks a degree (how long, how old, how often): the answer says a measure.
		const degree = after === "how" && !isStopword(word) && isInflectable(segment.text, tokens);
		if (after === "how" && (degree || word === "many" || word === "much")) asks ??= "measure";
		if (index === 0 && word === "which") asks = "name";
		const act = wants !== undefined && namesTheAsking(word);
		if ((isStopword(word) && !month) || degree || asking.has(index) || act) {
			terms.push({ text, variants: [text], optional: true });
			ignored.push(word);
		} else if (isInflectable(segment.text, tokens) && !month) terms.push(wordUnit(text));
		else {
			const unit = exactUnit(text, tokens);
			const joined = joinedForm(segment.text, tokens);
			if (joined !== undefined) unit.variants.push(joined);
			terms.push(unit);
		}
	}
	// A query of nothing but function words ("the", "what was it") still searches for them.
	if (phrases.length === 0 && terms.every((t) => t.optional)) {
		for (const t of terms) t.optional = false;
		ignored.length = 0;
	}
	// A measure question counts the cue's thing ("how many errors …"); it does not ask for that kind of event.
	const intent = asks === "measure" ? undefined : wants;
	return { terms, phrases, ignored, ...(asks ? { asks } : {}), ...(intent ? { wants: intent } : {}) };
}

/**
 * `May` capitalised after the query's first word is the month ("what did Caroline paint in May"), a word the
 * conversation context can match by date; lowercase, or opening the query ("May I …"), it is the modal verb.
 */
function isMonthMay(segment: string): boolean {
	return /^May[^\p{L}\p{N}]*$/u.test(segment);
}

/**
 * Prefixes English writes both joined and hyphenated (`rerun` / `re-run`, `preprocess` / `pre-process`,
 * `nonempty` / `non-empty`); the tokenizer splits the hyphenated spelling into two tokens.
 */
const HYPHEN_PREFIXES = /^(re|pre|co|non|multi|sub)([a-z]{3,})$/u;

/** An English word: its inflections, its hyphenated spelling, and its stem as a prefix when long enough. */
function wordUnit(text: string): QueryTerm {
	const forms = wordForms(text);
	const prefix = commonPrefix(forms);
	// `rerunning` also as the phrase `re running`, and its base (the next form, when shorter) as `re run`.
	const bases = forms.length > 1 && forms[1].length < text.length ? [text, forms[1]] : [text];
	const split = bases.flatMap((f) => f.match(HYPHEN_PREFIXES)?.slice(1).join(" ") ?? []);
	const variants = [...forms, ...split].slice(0, MAX_WORD_FORMS);
	return prefix.length >= MIN_PREFIX_LENGTH
		? { text, variants, prefix, optional: false }
		: { text, variants, optional: false };
}

/** A hyphenated word with a joinable prefix (`re-running`) also matches its joined spelling (`rerunning`). */
function joinedForm(segment: string, tokens: QueryToken[]): string | undefined {
	if (tokens.length !== 2 || !/^\p{L}+-\p{L}+$/u.test(segment.replace(/[^\p{L}\p{N}-]+$/u, ""))) return undefined;
	const joined = lowerLikeUnicode61(tokens[0].text + tokens[1].text);
	return HYPHEN_PREFIXES.test(joined) ? joined : undefined;
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
 * True for a plain English word: one token typed in ASCII letters, without digits, `_`, inner dots or inner
 * capitals anywhere in the segment, and not ALL CAPS (an acronym or a log constant is matched as written).
 */
function isInflectable(raw: string, tokens: QueryToken[]): boolean {
	const word = tokens.length === 1 ? tokens[0].text : "";
	if (!/^[A-Za-z]{2,}$/u.test(word)) return false;
	if (/^[A-Z]+$/u.test(word) || /[a-z][A-Z]/u.test(word)) return false;
	// Digits, `_` or a dot between token characters anywhere in the typed segment mark an identifier.
	return !IDENTIFIER_MARK.in(raw).test(raw);
}

/** `Caroline's` → `Caroline` (the possessive is not part of the word), keeping any trailing punctuation. */
function withoutPossessive(segment: string): string {
	// No apostrophe, nothing to strip (and no Unicode pattern to compile).
	if (!segment.includes("'") && !segment.includes("’")) return segment;
	const stripped = segment.replace(/(?<=\p{L})['’][sS](?=[^\p{L}\p{N}]*$)/u, "");
	return unicode61Tokens(stripped).length > 0 ? stripped : segment;
}

/** Longer segments are never function words, whatever punctuation surrounds them. */
const MAX_STOPWORD_SEGMENT = 40;

/** The segment as a lowercase word with straight apostrophes and no surrounding punctuation ("Didn’t?" → "didn't"). */
function contractionForm(segment: string): string {
	// Every stopword is short; the guard keeps the trimming regex linear on hostile input.
	if (segment.length > MAX_STOPWORD_SEGMENT) return "";
	return segment.toLowerCase().replaceAll("’", "'").replace(EDGE_NON_WORD.in(segment), "");
}
