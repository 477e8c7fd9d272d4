/**
 * The patterns over Unicode's letter, number and mark classes that a search runs on the query and its snippets, each
 * with its ASCII form. For ASCII text `\p{L}` is [A-Za-z], `\p{N}` is [0-9] and there is no `\p{M}`, so the ASCII form
 * gives the same result; it compiles without Unicode's tables, which cost 0.3–0.6 ms for each pattern's first use in
 * every process (about 2 ms of a whole CLI search of an English word). `test/text/word-classes.test.ts` checks each
 * pair against the other on ASCII text.
 */

const NON_ASCII = /[\u0080-\uffff]/;

/** True when every UTF-16 unit of `s` is ASCII. */
export function isAscii(s: string): boolean {
	return !NON_ASCII.test(s);
}

/** A pattern and its ASCII form; `in(s)` is the one to run on `s`. */
export interface ClassPattern {
	unicode: RegExp;
	ascii: RegExp;
	in(s: string): RegExp;
}

function classPattern(unicode: RegExp, ascii: RegExp): ClassPattern {
	return { unicode, ascii, in: (s) => (isAscii(s) ? ascii : unicode) };
}

/** Non-letters and non-digits at either end (a word's surrounding punctuation). */
export const EDGE_NON_WORD = classPattern(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, /^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g);

/** A digit, `_`, or a dot between letters or digits: what marks a typed segment as an identifier. */
export const IDENTIFIER_MARK = classPattern(/[\p{N}_]|[\p{L}\p{N}]\.[\p{L}\p{N}]/u, /[0-9_]|[A-Za-z0-9]\.[A-Za-z0-9]/);

/** A run of characters that are neither letters nor digits (where a query splits into words). */
export const NON_WORD_RUN = classPattern(/[^\p{L}\p{N}]+/u, /[^A-Za-z0-9]+/);

/** A run of letters, digits and marks (a token, as a window's width is counted). */
export const WORD_RUN = classPattern(/[\p{L}\p{N}\p{M}]+/gu, /[A-Za-z0-9]+/g);

/** A combining mark (what folding drops after NFD; ASCII text has none). */
export const COMBINING_MARK = /\p{M}/gu;
