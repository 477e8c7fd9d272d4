/**
 * A long text cut into pieces of bounded length, each its own fragment (docs/data-model.md, "Long texts"). Pure.
 * Why: one fragment is one FTS row, and SQLite copies every bound value whole (twice with better-sqlite3's UTF-8
 * conversion); a multi-MB value's copies are multi-MB allocations whose release raises glibc's mmap threshold,
 * after which the worker's heap keeps what later lines free (docs/lifecycle.md, "Memory").
 */
import { isHighSurrogate } from "../text/code-points.js";

/** Longest piece, in UTF-16 code units (at most 192 KiB of UTF-8, and about twice that as a CJK search body). */
export const PIECE_UNITS = 65_536;

/** How far back from a piece's limit a cut looks for a line end, then for a space, so words stay whole. */
const CUT_WINDOW = 8_192;

const LINE_FEED = 10;
const SPACE = 32;
const TAB = 9;

/** `text` cut into consecutive pieces of at most PIECE_UNITS code units that join back to it (a short text is one). */
export function textPieces(text: string): string[] {
	if (text.length <= PIECE_UNITS) return [text];
	const pieces: string[] = [];
	let at = 0;
	while (text.length - at > PIECE_UNITS) {
		const end = cutBefore(text, at + PIECE_UNITS);
		pieces.push(text.slice(at, end));
		at = end;
	}
	pieces.push(text.slice(at));
	return pieces;
}

/**
 * Where the piece that must end by `limit` ends: after the last line end of the window before `limit`, else after
 * its last space or tab, else at `limit` itself (one code unit earlier when that would split a surrogate pair).
 */
function cutBefore(text: string, limit: number): number {
	const floor = limit - CUT_WINDOW;
	for (let i = limit - 1; i >= floor; i--) if (text.charCodeAt(i) === LINE_FEED) return i + 1;
	for (let i = limit - 1; i >= floor; i--) {
		const c = text.charCodeAt(i);
		if (c === SPACE || c === TAB) return i + 1;
	}
	return isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
}
