/**
 * Folding a text or token the way FTS5's `unicode61 remove_diacritics 2` stores it: combining marks removed, then
 * each code point lowercased with Unicode 6.1's tables. The one fold of the query side (query terms, term presence,
 * proximity); test/text/fold.test.ts checks it against SQLite on the scripts where JavaScript's own lowercasing
 * differs (Greek final sigma, case pairs newer than Unicode 6.1, Hangul with accents beside it).
 */

/**
 * Code points JavaScript lowercases but unicode61 (Unicode 6.1 tables) does not: case pairs added to Unicode
 * later (Cherokee, Georgian Mtavruli, Adlam, …). Found by indexing "q<c>q" and "q<lowercase c>q" for every code
 * point in a real FTS5 table; test/text/natural-query.test.ts re-checks it against SQLite.
 */
const CASE_UNKNOWN_TO_UNICODE61: ReadonlyArray<readonly [number, number]> = [
	[0x37f, 0x37f],
	[0x528, 0x52e],
	[0x13a0, 0x13f5],
	[0x1c89, 0x1c89],
	[0x1c90, 0x1cbf],
	[0x2c2f, 0x2c2f],
	[0xa698, 0xa69a],
	[0xa796, 0xa79e],
	[0xa7ab, 0xa7dc],
	[0xa7f5, 0xa7f5],
	[0x104b0, 0x104d3],
	[0x10570, 0x10595],
	[0x10c80, 0x10cb2],
	[0x10d50, 0x10d65],
	[0x118a0, 0x118bf],
	[0x16e40, 0x16e5f],
	[0x16ea0, 0x16eb8],
	[0x1e900, 0x1e921],
];

/** Lowercase `token` one code point at a time (no final-sigma rule), as unicode61 does; nothing else is folded. */
export function lowerLikeUnicode61(token: string): string {
	let out = "";
	for (const ch of token) {
		const cp = ch.codePointAt(0) ?? 0;
		const unknown = cp >= 0x37f && CASE_UNKNOWN_TO_UNICODE61.some(([lo, hi]) => cp >= lo && cp <= hi);
		out += unknown ? ch : ch.toLowerCase();
	}
	return out;
}

/** Nothing here decomposes into combining marks (ASCII and Latin-1 punctuation and symbols). */
const NO_MARKS = /^[\t\n\r -~\u00a0-\u00bf]*$/;

/** Code points toLowerCase() folds differently from unicode61: Σ (final-sigma rule) and CASE_UNKNOWN_TO_UNICODE61. */
const LOWERS_DIFFERENTLY = new RegExp(
	`[\u03a3${CASE_UNKNOWN_TO_UNICODE61.map(([lo, hi]) => `\\u{${lo.toString(16)}}-\\u{${hi.toString(16)}}`).join("")}]`,
	"u",
);

/** `text` as unicode61 with remove_diacritics 2 stores its tokens (separators are left as they are). */
export function foldLikeUnicode61(text: string): string {
	const stripped = NO_MARKS.test(text)
		? text
		: text
				.normalize("NFD")
				.replace(/\p{Mn}/gu, "")
				.normalize("NFC");
	return LOWERS_DIFFERENTLY.test(stripped) ? lowerLikeUnicode61(stripped) : stripped.toLowerCase();
}
