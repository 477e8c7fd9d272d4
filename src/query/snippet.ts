/**
 * Search snippets: a bounded excerpt of a fragment centred on the first place a query term matches. Matching here
 * mirrors the index loosely (case and diacritics folded) — it only chooses where to centre, never what matches.
 * Tool outputs run to tens of thousands of characters, so ASCII text (most of it) is folded in one call and only
 * non-ASCII code points are folded one by one.
 */
import { codePointLength, sliceCodePoints } from "../text/code-points.js";
import { COMBINING_MARK, isAscii } from "../text/word-classes.js";

/** Folds text the way the tokenizer does (lower case, diacritics removed). */
function fold(s: string): string {
	return isAscii(s) ? s.toLowerCase() : s.normalize("NFD").replace(COMBINING_MARK, "").toLowerCase();
}

/** A piece of folded text: where it starts in the folded string and at which original code point. */
interface Piece {
	at: number;
	cp: number;
	ascii: boolean;
}

/**
 * The folded text and the pieces it was built from (null when nothing but ASCII: indices then coincide). ASCII runs
 * fold in bulk and keep their length; other code points are folded one at a time.
 */
function foldWithPieces(text: string): { folded: string; pieces: Piece[] | null } {
	if (isAscii(text)) return { folded: text.toLowerCase(), pieces: null };
	let folded = "";
	const pieces: Piece[] = [];
	let cp = 0;
	for (const [piece] of text.matchAll(/\p{ASCII}+|\P{ASCII}/gu)) {
		const ascii = piece.charCodeAt(0) < 0x80;
		pieces.push({ at: folded.length, cp, ascii });
		folded += ascii ? piece.toLowerCase() : fold(piece);
		cp += ascii ? piece.length : 1;
	}
	return { folded, pieces };
}

/** Original code-point index of folded index `at` (the last piece starting at or before it). */
function originOf(pieces: Piece[], at: number): number {
	let lo = 0;
	let hi = pieces.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (pieces[mid].at <= at) lo = mid;
		else hi = mid - 1;
	}
	const p = pieces[lo];
	return p.ascii ? p.cp + (at - p.at) : p.cp;
}

/** Code-point position of the earliest occurrence of any needle in `text` (folded), or -1. */
export function firstMatchPosition(text: string, needles: readonly string[]): number {
	const { folded, pieces } = foldWithPieces(text);
	let best = -1;
	for (const needle of needles) {
		const n = fold(needle).trim();
		if (n === "") continue;
		const at = folded.indexOf(n);
		if (at >= 0) {
			const cp = pieces ? originOf(pieces, at) : at;
			if (best < 0 || cp < best) best = cp;
		}
	}
	return best;
}

/**
 * At most `maxChars` code points of `text` around the first matched needle (whitespace runs collapsed), with "…"
 * marking cut ends. Without a match the snippet is the head of the text.
 */
export function makeSnippet(text: string, needles: readonly string[], maxChars: number): string {
	return snippetFromStart(text, codePointLength(text), needles, maxChars) as string;
}

/**
 * makeSnippet of a text of `total` code points of which only the start, `known`, is at hand; undefined when that
 * snippet needs more of the text (no needle in `known`, or the excerpt reaches past it).
 */
export function snippetFromStart(
	known: string,
	total: number,
	needles: readonly string[],
	maxChars: number,
): string | undefined {
	const cap = Math.max(1, Math.floor(maxChars));
	if (total <= cap) return codePointLength(known) >= total ? collapse(known) : undefined;
	const found = firstMatchPosition(known, needles);
	const inner = cap - 2; // room for both ellipses
	const at = Math.max(0, found);
	let start = Math.max(0, at - Math.floor(inner / 2));
	start = Math.min(start, total - inner);
	const end = start + inner;
	const slice = sliceCodePoints(known, start, end);
	// The excerpt must lie inside `known`, and without a match there the earliest match may come later.
	if (codePointLength(slice) < end - start || (found < 0 && codePointLength(known) < total)) return undefined;
	const head = start > 0 ? "…" : "";
	const tail = end < total ? "…" : "";
	return collapse(head + slice + tail);
}

function collapse(s: string): string {
	return s.replace(/\s+/g, " ").trim();
}
