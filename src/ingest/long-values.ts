/**
 * The long string values of a line read without holding it whole (long-line-read.ts): their markers, and their text
 * decoded window by window from the session file, each window as JSON.parse would have decoded it within the line.
 */
import { readRange } from "../files/read-range.js";
import { BACKSLASH, LETTER_U, type LongValueSpan } from "../parse/long-line.js";
import { decodeUtf8 } from "../parse/parse-chunk.js";
import type { LongValues } from "../parse/types.js";

/** Bytes of a long value's JSON text decoded at a time. */
const VALUE_WINDOW_BYTES = 64 * 1024;

// Private-use brackets and a per-process nonce: no text of a session holds one of this process's markers.
// Made at the first long line, not as the module loads: node:crypto costs Pi's start 3 ms on Node 22, and few
// sessions have such a line (the Web Crypto global is loaded only when first used, on Node and on Bun alike).
let markers: { nonce: string; open: string; pattern: RegExp } | undefined;
const MARKER_CLOSE = "\uE001";

function theMarkers(): { nonce: string; open: string; pattern: RegExp } {
	if (markers === undefined) {
		const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(9))).toString("base64url");
		const open = `\uE000${nonce}:`;
		markers = { nonce, open, pattern: new RegExp(`${open}(\\d+)${MARKER_CLOSE}`, "g") };
	}
	return markers;
}

/** The marker string that stands for long value `index` in a line's skeleton, as the UTF-8 of its JSON text. */
export function markerBytes(index: number): Uint8Array {
	return Buffer.from(`${theMarkers().open}${index}${MARKER_CLOSE}`, "utf8");
}

/** Number of backslashes that end just before `at` (down to `floor`). */
function backslashesBefore(bytes: Uint8Array, at: number, floor: number): number {
	let n = 0;
	while (at - n - 1 >= floor && bytes[at - n - 1] === BACKSLASH) n++;
	return n;
}

/**
 * The largest cut in (0, limit] of a value's JSON text where it can be decoded in two halves with the same result as
 * whole: before a byte that does not continue a UTF-8 sequence (so invalid bytes become the same replacement
 * characters) and outside any escape; 0 if there is none.
 */
export function windowCut(bytes: Uint8Array, limit: number): number {
	let cut = Math.min(limit, bytes.length);
	if (cut === bytes.length) return cut;
	while (cut > 0) {
		if (((bytes[cut] as number) & 0xc0) === 0x80) {
			cut--;
			continue;
		}
		// Inside `\x`: the byte at the cut is escaped.
		if (backslashesBefore(bytes, cut, 0) % 2 === 1) {
			cut--;
			continue;
		}
		// Inside `\uXXXX`: cut before its backslash.
		let inside = -1;
		for (let k = 1; k <= 4 && cut - k - 1 >= 0; k++) {
			const u = cut - k;
			if (bytes[u] === LETTER_U && backslashesBefore(bytes, u, 0) % 2 === 1) {
				inside = u - 1;
				break;
			}
		}
		if (inside < 0) return cut;
		cut = inside;
	}
	return 0;
}

/** The decoded text of one window of a value's JSON text (a cut by windowCut). */
function decodeWindow(bytes: Uint8Array): string {
	const text = decodeUtf8(bytes);
	return text.includes("\\") ? (JSON.parse(`"${text}"`) as string) : text;
}

/** Reads [start, end) of the file (absolute offsets) into `allocate(size)`. */
export type ReadRange = (start: number, end: number, allocate: (size: number) => Uint8Array) => Uint8Array;

/** A long value's text, window by window, read from the file at its span. */
export function* valueParts(read: ReadRange, span: LongValueSpan, windowBytes = VALUE_WINDOW_BYTES): Generator<string> {
	let at = span.start;
	let size = windowBytes;
	// One buffer for every window (the decoded text is a copy): a window's bytes are never garbage to collect.
	let buffer = new Uint8Array(0);
	const into = (n: number) => {
		if (buffer.length < n) buffer = new Uint8Array(n);
		return buffer.subarray(0, n);
	};
	while (at < span.end) {
		const bytes = read(at, Math.min(span.end, at + size), into);
		if (bytes.length === 0) throw new Error("the session file ended inside a long value");
		const cut = at + bytes.length === span.end ? bytes.length : windowCut(bytes, bytes.length - 1);
		if (cut === 0) {
			// No cut in the window (a run of continuation bytes): read a larger one.
			size *= 2;
			continue;
		}
		yield decodeWindow(bytes.subarray(0, cut));
		at += cut;
		size = windowBytes;
	}
}

/** The long values of one line at `lineStart` of the open file `fd`, their spans relative to the line. */
export function fileLongValues(fd: number, lineStart: number, spans: readonly LongValueSpan[]): LongValues {
	const read: ReadRange = (start, end, allocate) => readRange(fd, start, end, allocate);
	return {
		holds: (text) => text.includes(theMarkers().open),
		*parts(text) {
			let at = 0;
			for (const m of text.matchAll(theMarkers().pattern)) {
				const index = m.index ?? 0;
				if (index > at) yield text.slice(at, index);
				const span = spans[Number(m[1])];
				if (span === undefined) throw new RangeError(`no long value ${m[1]}`);
				yield* valueParts(read, { start: lineStart + span.start, end: lineStart + span.end });
				at = index + m[0].length;
			}
			if (at < text.length) yield text.slice(at);
		},
	};
}

/** True when `json` (an event's facts as JSON) holds a marker: the line must be parsed whole. */
export function holdsMarker(json: string): boolean {
	return json.includes(theMarkers().nonce);
}
