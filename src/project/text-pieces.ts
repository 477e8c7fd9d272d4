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
	return [...streamPieces([text])];
}

/**
 * The pieces of the text that `parts` join into, as `textPieces` cuts it, made while the parts arrive: at most one
 * piece and one part are held at a time, so a multi-MB text read part by part is never one string (long-line.ts).
 */
export function* streamPieces(parts: Iterable<string>): Generator<string> {
	let held = "";
	for (const part of parts) {
		held += part;
		while (held.length > PIECE_UNITS) {
			const end = cutBefore(held, PIECE_UNITS);
			yield held.slice(0, end);
			held = held.slice(end);
		}
	}
	yield held;
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

/**
 * Piece `index` of the pieces `make()` yields, read in order: asking for the next piece continues the same pass, an
 * earlier one starts a new pass. For a long line's text, whose pieces are read from the file (long-values.ts).
 */
export class PieceCursor {
	private pass: Iterator<string> | undefined;
	private next = 0;

	constructor(private readonly make: () => Iterable<string>) {}

	at(index: number): string {
		if (this.pass === undefined || index < this.next) {
			this.pass = this.make()[Symbol.iterator]();
			this.next = 0;
		}
		for (;;) {
			const r = this.pass.next();
			if (r.done) throw new RangeError(`no piece ${index}`);
			if (this.next++ === index) return r.value;
		}
	}
}
