/**
 * The FTS body transform. SQLite's unicode61 tokenizer (remove_diacritics 2) already does most of what Latin text
 * needs: identifiers split on `_` and punctuation, whole alphanumeric runs are single tokens, accents and case fold.
 * Two things it cannot do, which `searchText` adds:
 *  - A whole run of CJK characters is ONE token, so a word inside a longer run could never match. Each CJK run is
 *    rewritten into its overlapping bigrams plus its final character:
 *      "我们中文很好" → " 我们 们中 中文 文很 很好 好 "
 *    A two-character word inside the run is then one bigram token, a longer word is the phrase of its bigrams, and
 *    a single character matches as a prefix (every position starts some bigram or is the final character).
 *    Why bigrams rather than Intl.Segmenter or a trigram side table: docs/store.md.
 *  - A camelCase or PascalCase identifier is one token (`getContextData` → getcontextdata), while people ask for it
 *    in words ("get context data", "outer ref"). The parts of each such identifier are appended once after the
 *    text (`identifierParts`), so the identifier is found by its parts, as a phrase of them and as a whole. They go
 *    after the text, not beside the identifier, so no phrase of the text itself is broken.
 */

/** Han, Hiragana, Katakana and Hangul letters (plus the prolonged-sound marks, which are Common script). */
export const CJK_CLASS =
	"[[\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}\\u30FC\\uFF70\\uFF9E\\uFF9F]&&[\\p{L}\\p{Nl}]]";
// The v flag (set intersection) keeps CJK symbols and punctuation out of runs; built at run time because the
// TypeScript target predates it, and at first use: building the Unicode sets costs 0.7 ms, paid by every process
// that loads this module (a CLI search of ASCII words never needs them).
let cjkPatterns: { test: RegExp; runSlice: RegExp } | undefined;
function cjk(): { test: RegExp; runSlice: RegExp } {
	cjkPatterns ??= { test: new RegExp(CJK_CLASS, "v"), runSlice: new RegExp(`${CJK_CLASS}{1,${RUN_SLICE}}`, "gv") };
	return cjkPatterns;
}
/**
 * UTF-16 code units one of which every CJK letter has (a BMP letter itself, an astral one its high surrogate): the
 * cheap first test. The class scans two-byte text at about 9 ns a character (one-byte text fails at once), and most
 * two-byte text in sessions is so only for punctuation (U+2000–U+2E7F), emoji (surrogates D83C–D83E and any low
 * surrogate) and variation selectors, none of which this holds. Checked against the class for every code point in
 * test/text/search-text.test.ts.
 */
const CJK_UNITS = /[\u1100-\u11FF\u2E80-\uD83B\uD83F-\uDBFF\uE000-\uFDFF\uFE10-\uFFFF]/;
/**
 * Characters of a run matched at once. A run is matched in slices and adjacent slices are joined again: V8 matches
 * `+` over this class with one level of recursion per character, so one tool output holding a CJK run of about
 * 2 million characters or more (measured on Node 20; a line under the 8 MiB limit holds up to 2.79 million)
 * overflowed the stack and its whole session file failed to index.
 */
const RUN_SLICE = 4096;
/**
 * Tokens joined per piece when a run is expanded, so a long run's bigrams are never all in one array: for a run of
 * 2.79 million characters, one array ran a worker out of memory under a 64 MiB old generation; pieces fit in 40.
 */
const EXPAND_PIECE = 4096;

/** True when `text` contains at least one CJK letter. */
export function hasCjk(text: string): boolean {
	return CJK_UNITS.test(text) && cjk().test.test(text);
}

/** Every maximal CJK run in `text`, in order, with its UTF-16 start offset. */
export function cjkRuns(text: string): Array<{ index: number; run: string }> {
	const out: Array<{ index: number; run: string }> = [];
	for (const m of text.matchAll(cjk().runSlice)) {
		const index = m.index ?? 0;
		const last = out[out.length - 1];
		if (last !== undefined && last.index + last.run.length === index) last.run += m[0];
		else out.push({ index, run: m[0] });
	}
	return out;
}

/** The bigram expansion of one CJK run, in order: overlapping bigrams, then the final character. */
function* cjkBigrams(run: string): Generator<string> {
	let prev: string | undefined;
	for (const ch of run) {
		if (prev !== undefined) yield prev + ch;
		prev = ch;
	}
	if (prev !== undefined) yield prev;
}

/** The bigram expansion of one CJK run: overlapping bigrams, then the final character. */
export function cjkRunTokens(run: string): string[] {
	return [...cjkBigrams(run)];
}

/** `cjkRunTokens(run).join(" ")`, built in pieces. */
function expandRun(run: string): string {
	const pieces: string[] = [];
	let piece: string[] = [];
	for (const token of cjkBigrams(run)) {
		piece.push(token);
		if (piece.length === EXPAND_PIECE) {
			pieces.push(piece.join(" "));
			piece = [];
		}
	}
	if (piece.length > 0) pieces.push(piece.join(" "));
	return pieces.join(" ");
}

/** A lowercase letter or digit before a capital, or a capital before a capitalised word (`HTTPServer`). */
const CAMEL_JOINT = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]{2}/g;
/**
 * Identifiers split at most into this many parts, and at most this long: a random token (base64, a key, a hash)
 * has capitals everywhere, and its "parts" would only grow the index.
 */
const MAX_IDENTIFIER_PARTS = 6;
const MAX_IDENTIFIER_CHARS = 64;
/**
 * Fragment kinds whose identifiers are not split: raw tool and bash output, two thirds of all text (file reads, logs).
 * Splitting theirs too grew the index by about 4 % against 0.6 % on the quick bench corpus, for no gain on the coding
 * questions (docs/ranking.md, "Identifier parts").
 */
const UNSPLIT_KINDS: ReadonlySet<string> = new Set(["tool_result", "bash_output"]);

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * `getHTTPResponse` → ["get", "HTTP", "Response"]: a part ends before a capital that follows a lowercase letter or
 * digit, or before the capital that starts a capitalised word after capitals; `IDs` and `URLs` stay whole.
 */
export function splitIdentifier(identifier: string): string[] {
	const parts: string[] = [];
	let start = 0;
	for (let i = 1; i < identifier.length; i++) {
		const c = identifier.charCodeAt(i);
		if (!isUpper(c)) continue;
		const before = identifier.charCodeAt(i - 1);
		const joint =
			isLower(before) ||
			isDigit(before) ||
			(isUpper(before) && isLower(identifier.charCodeAt(i + 1)) && isLower(identifier.charCodeAt(i + 2)));
		if (joint && i > start) {
			parts.push(identifier.slice(start, i));
			start = i;
		}
	}
	parts.push(identifier.slice(start));
	return parts;
}

/**
 * The parts of every distinct camelCase or PascalCase identifier in `text` (an ASCII letter-and-digit run with an
 * inner capital), each identifier's parts in order, joined by spaces; "" when there is none. Linear: the text is
 * scanned for joints only, and each run is read once.
 */
export function identifierParts(text: string): string {
	const seen = new Set<string>();
	const out: string[] = [];
	const joint = new RegExp(CAMEL_JOINT);
	for (let m = joint.exec(text); m !== null; m = joint.exec(text)) {
		let start = m.index;
		let end = m.index + m[0].length;
		while (start > 0 && isAsciiAlnum(text.charCodeAt(start - 1))) start--;
		while (end < text.length && isAsciiAlnum(text.charCodeAt(end))) end++;
		joint.lastIndex = end;
		if (end - start > MAX_IDENTIFIER_CHARS) continue;
		const identifier = text.slice(start, end);
		if (seen.has(identifier)) continue;
		seen.add(identifier);
		const parts = splitIdentifier(identifier);
		if (parts.length >= 2 && parts.length <= MAX_IDENTIFIER_PARTS) out.push(parts.join(" "));
	}
	return out.join(" ");
}

function isAsciiAlnum(c: number): boolean {
	return isDigit(c) || isUpper(c) || isLower(c);
}

/** `text` with each CJK run expanded (cjkRunTokens); text without CJK is returned unchanged. */
function withCjkExpanded(text: string): string {
	if (!hasCjk(text)) return text;
	// Spaces around the expansion keep it from merging with adjacent Latin letters or digits.
	let out = "";
	let at = 0;
	for (const { index, run } of cjkRuns(text)) {
		out += `${text.slice(at, index)} ${expandRun(run)} `;
		at = index + run.length;
	}
	return out + text.slice(at);
}

/**
 * What goes into `fragments_fts.body` for a fragment's text: CJK runs expanded, then, unless the fragment's `kind`
 * is raw output (UNSPLIT_KINDS), the parts of its camelCase identifiers. Without a kind (text of no one fragment:
 * a conversation's context) the parts are added. Text with neither is returned unchanged.
 */
export function searchText(text: string, kind?: string): string {
	const parts = kind !== undefined && UNSPLIT_KINDS.has(kind) ? "" : identifierParts(text);
	const expanded = withCjkExpanded(text);
	return parts === "" ? expanded : `${expanded}\n${parts}`;
}
