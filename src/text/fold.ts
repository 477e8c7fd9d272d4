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

/**
 * The scripts whose letters decompose into a base and combining marks (Latin, Greek, Cyrillic, Hebrew, Arabic, Indic,
 * Thai, Tibetan, Myanmar, their extensions, kana) and the marks themselves. A text with none of them needs no NFD/NFC
 * pass, which costs ten times the lowercasing: tool output is full of dashes, quotes and box drawing, and proximity
 * folds up to 200 such texts per query. A plain character class, not a Unicode property: V8 scans it far faster.
 */
const MAY_HOLD_MARKS = /[\u00c0-\u10ff\u1e00-\u1fff\u3040-\u30ff]/;

/**
 * Where toLowerCase() may fold differently from unicode61: Σ (the final-sigma rule) and CASE_UNKNOWN_TO_UNICODE61.
 * A plain character class (V8 scans it far faster than a `u` one): the BMP ranges as they are, a range past the BMP
 * by its lead surrogates (a little wider, and then lowerLikeUnicode61 decides exactly).
 */
const LOWERS_DIFFERENTLY = new RegExp(
	`[\u03a3${CASE_UNKNOWN_TO_UNICODE61.map(([lo, hi]) => (hi <= 0xffff ? `${unit(lo)}-${unit(hi)}` : `${unit(lead(lo))}-${unit(lead(hi))}`)).join("")}]`,
);

function lead(cp: number): number {
	return 0xd800 + ((cp - 0x10000) >> 10);
}

function unit(code: number): string {
	return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` as unicode61 with remove_diacritics 2 stores its tokens (separators are left as they are). */
export function foldLikeUnicode61(text: string): string {
	const stripped = !MAY_HOLD_MARKS.test(text)
		? text
		: text
				.normalize("NFD")
				.replace(/\p{Mn}/gu, "")
				.normalize("NFC");
	return LOWERS_DIFFERENTLY.test(stripped) ? lowerLikeUnicode61(stripped) : stripped.toLowerCase();
}
