/**
 * A small LZ77 codec with a shared dictionary, for the stored heads of fragment texts (fragment-text.ts). Most
 * stored texts are a few hundred bytes: too short for a general compressor to find much in them alone, while across
 * one person's sessions they repeat the same paths, tool arguments and phrases. A dictionary sampled from the corpus
 * (text-dictionary.ts) supplies those; its hash table is built once, so a call costs a few µs in JavaScript where a
 * node:zlib call costs 10–30 µs of set-up before its first byte (measured: docs/store.md, "Fragment text").
 *
 * A packed text is a sequence of steps, each a token byte (high nibble: literal count, low nibble: match code),
 * the literal count's extension, the literals, then, for match code ≥ 1, the offset and the match length's
 * extension. A count of 15 continues in the bytes after it (each adds 0–255; 255 means another follows). Match code
 * 0 ends the text (only the last step has it); code c ≥ 1 copies c + 3 bytes (15: more, extended). The offset
 * counts back from the current output position into the dictionary followed by the output: 2 bytes little-endian
 * below 2^15, otherwise 3 bytes with the second byte's high bit set. Deterministic, no I/O (scratch space is reused per thread).
 */

/** Matches shorter than this are not worth their offset; a 3-byte offset needs one byte more. */
const MIN_MATCH = 4;
const LONG_OFFSET = 1 << 15;
const MAX_OFFSET = 1 << 23;
const DICT_HASH_BITS = 16;
const TEXT_HASH_BITS = 12;
/** Copies shorter than this are faster byte by byte than through a subarray. */
const SHORT_COPY = 32;

/** A dictionary ready for packing and unpacking: its bytes and the hash table of its 4-byte sequences. */
export interface PreparedDictionary {
	readonly bytes: Uint8Array;
	/** Last dictionary position of each hash of 4 bytes (−1: none). */
	readonly table: Int32Array;
}

/** Raised for bytes that are not a packed text (a damaged index): the caller names the row. */
export class PackedTextError extends Error {
	constructor(message: string) {
		super(`packed text: ${message}`);
		this.name = "PackedTextError";
	}
}

const EMPTY = new Uint8Array(0);

/** The hash of the 4 bytes at `i` (read as one little-endian word: a load each instead of four). */
function hash4(view: DataView, i: number): number {
	return Math.imul(view.getUint32(i, true), 0x9e3779b1);
}

/** The dictionary `bytes` with its hash table (the empty dictionary when undefined). */
export function prepareDictionary(bytes: Uint8Array = EMPTY): PreparedDictionary {
	const table = new Int32Array(1 << DICT_HASH_BITS).fill(-1);
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	for (let i = 0; i + MIN_MATCH <= bytes.length; i++) table[hash4(view, i) >>> (32 - DICT_HASH_BITS)] = i;
	return { bytes, table };
}

/** The encoder's scratch space, reused by every call on this thread (a call never yields). */
const scratch = {
	/** The dictionary, then the text: matches read both as one buffer. */
	window: new Uint8Array(0),
	/** The window's bytes, read four at a time by hash4 and matchLength. */
	view: new DataView(new ArrayBuffer(0)),
	windowDict: undefined as Uint8Array | undefined,
	textTable: new Int32Array(1 << TEXT_HASH_BITS),
	/** The call that last wrote each slot of textTable, so the table never needs clearing. */
	stamp: new Int32Array(1 << TEXT_HASH_BITS),
	call: 0,
	out: new Uint8Array(1024),
};

/** The window with `dict` in place and room for `size` bytes after it. */
function windowFor(dict: PreparedDictionary, size: number): Uint8Array {
	const need = dict.bytes.length + size;
	if (scratch.window.length < need || scratch.windowDict !== dict.bytes) {
		if (scratch.window.length < need) {
			scratch.window = new Uint8Array(Math.max(need, scratch.window.length * 2));
			scratch.view = new DataView(scratch.window.buffer);
		}
		scratch.window.set(dict.bytes, 0);
		scratch.windowDict = dict.bytes;
	}
	return scratch.window;
}

/**
 * Length of the match of w[i…] with w[c…], or 0 when c is no candidate or the match is not longer than `beat` (a
 * candidate that differs at byte `beat` is not compared further).
 */
function matchLength(w: Uint8Array, c: number, i: number, end: number, beat: number): number {
	// A stale slot (the call counter wrapped) can point anywhere: only earlier positions are candidates.
	if (c < 0 || c >= i || i - c >= MAX_OFFSET) return 0;
	if (i + beat < end && w[c + beat] !== w[i + beat]) return 0;
	// Four bytes a step while they last: matches are most of a packed text's bytes.
	const view = scratch.view;
	let n = 0;
	while (i + n + 4 <= end && view.getUint32(c + n) === view.getUint32(i + n)) n += 4;
	while (i + n < end && w[c + n] === w[i + n]) n++;
	return n > beat ? n : 0;
}

/**
 * Length of the longest match for `i` among the last text position and the last dictionary position with its hash
 * (its start in `matchFrom`); 0 when none is worth an offset or none is longer than `beat` (the text position wins
 * a tie). `record` enters `i` in the text's table.
 */
function longestMatch(
	w: Uint8Array,
	i: number,
	end: number,
	dict: PreparedDictionary,
	record: boolean,
	beat: number,
): number {
	const h = hash4(scratch.view, i);
	const slot = h >>> (32 - TEXT_HASH_BITS);
	const inText = scratch.stamp[slot] === scratch.call ? (scratch.textTable[slot] as number) : -1;
	const inDict = dict.table[h >>> (32 - DICT_HASH_BITS)] as number;
	if (record) {
		scratch.stamp[slot] = scratch.call;
		scratch.textTable[slot] = i;
	}
	const fromText = matchLength(w, inText, i, end, beat);
	const fromDict = matchLength(w, inDict, i, end, Math.max(beat, fromText));
	const best = Math.max(fromDict, fromText);
	const from = fromDict > fromText ? inDict : inText;
	if (best < MIN_MATCH || (i - from >= LONG_OFFSET && best < MIN_MATCH + 1)) return 0;
	matchFrom = from;
	return best;
}
let matchFrom = 0;

function ensureOut(o: number, more: number): void {
	if (o + more <= scratch.out.length) return;
	const grown = new Uint8Array(Math.max(o + more, scratch.out.length * 2));
	grown.set(scratch.out.subarray(0, o));
	scratch.out = grown;
}

function putCount(o: number, rest: number): number {
	const out = scratch.out;
	while (rest >= 255) {
		out[o++] = 255;
		rest -= 255;
	}
	out[o++] = rest;
	return o;
}

/** Appends one step (literals w[litStart, litEnd), then a match of `length` at `offset`, or none when 0). */
function putStep(w: Uint8Array, o: number, litStart: number, litEnd: number, length: number, offset: number): number {
	const literals = litEnd - litStart;
	ensureOut(o, literals + 16 + Math.ceil(literals / 255) + Math.ceil(length / 255));
	const out = scratch.out;
	const code = length === 0 ? 0 : length - MIN_MATCH + 1;
	out[o++] = (Math.min(literals, 15) << 4) | Math.min(code, 15);
	if (literals >= 15) o = putCount(o, literals - 15);
	if (literals < SHORT_COPY) for (let k = 0; k < literals; k++) out[o + k] = w[litStart + k] as number;
	else out.set(w.subarray(litStart, litEnd), o);
	o += literals;
	if (length === 0) return o;
	out[o++] = offset & 0xff;
	if (offset < LONG_OFFSET) out[o++] = offset >>> 8;
	else {
		out[o++] = ((offset >>> 8) & 0x7f) | 0x80;
		out[o++] = offset >>> 15;
	}
	if (code >= 15) o = putCount(o, code - 15);
	return o;
}

/**
 * `src` packed against `dict` (greedy matching with one step of lookahead), after the byte `lead` when given.
 * Deterministic: the same text and dictionary always give the same bytes.
 */
export function pack(src: Uint8Array, dict: PreparedDictionary, lead?: number): Uint8Array {
	windowFor(dict, src.length).set(src, dict.bytes.length);
	// Packing may grow scratch.out: read it after.
	const size = packWindow(dict, src.length, lead);
	return scratch.out.slice(0, size);
}

const UTF8 = new TextEncoder();

/** When packText keeps a packed text. */
export interface PackWorth {
	/** UTF-8 bytes a text needs to be packed at all. */
	minBytes: number;
	/** Largest share of its UTF-8 bytes its packed form may take. */
	gain: number;
}

/**
 * The UTF-8 bytes of `text` packed as `pack` packs them, or undefined when they are not `worth` packing. The text is
 * encoded straight into the window: no buffer of its own, no copy.
 */
export function packText(
	text: string,
	dict: PreparedDictionary,
	lead: number,
	worth: PackWorth,
): Uint8Array | undefined {
	const base = dict.bytes.length;
	// A UTF-16 unit is at most 3 bytes of UTF-8.
	const { written } = UTF8.encodeInto(text, windowFor(dict, text.length * 3).subarray(base));
	if (written < worth.minBytes) return undefined;
	const size = packWindow(dict, written, lead);
	return size <= written * worth.gain ? scratch.out.slice(0, size) : undefined;
}

/** Packs the `size` bytes after the dictionary in the window into scratch.out; returns how many it wrote there. */
function packWindow(dict: PreparedDictionary, size: number, lead: number | undefined): number {
	const base = dict.bytes.length;
	const w = scratch.window;
	const end = base + size;
	scratch.call = (scratch.call + 1) | 0;
	let o = 0;
	if (lead !== undefined) {
		ensureOut(0, 1);
		scratch.out[o++] = lead;
	}
	let literalStart = base;
	let i = base;
	while (i + MIN_MATCH <= end) {
		const length = longestMatch(w, i, end, dict, true, 0);
		if (length === 0) {
			i++;
			continue;
		}
		const from = matchFrom;
		// A longer match one byte on is worth a literal.
		if (i + 1 + MIN_MATCH <= end && longestMatch(w, i + 1, end, dict, false, length + 1) > 0) {
			i++;
			continue;
		}
		o = putStep(w, o, literalStart, i, length, i - from);
		for (let j = i + 1; j < i + length && j + MIN_MATCH <= end; j++) {
			const slot = hash4(scratch.view, j) >>> (32 - TEXT_HASH_BITS);
			scratch.stamp[slot] = scratch.call;
			scratch.textTable[slot] = j;
		}
		i += length;
		literalStart = i;
	}
	return putStep(w, o, literalStart, end, 0, 0);
}

/**
 * The text `packed` was made from with dictionary bytes `d`, or its first `limit` bytes or more (a step's copy is finished) when the text is
 * longer. Throws PackedTextError for bytes that cannot be a packed text.
 */
export function unpack(packed: Uint8Array, d: Uint8Array, limit = Number.POSITIVE_INFINITY): Uint8Array {
	// No closures over the cursors: V8 keeps captured variables in a heap context (3.2 against 2.2 µs a text).
	const base = d.length;
	const n = packed.length;
	let out: Uint8Array = new Uint8Array(Math.max(64, n * 4));
	let o = 0;
	let p = 0;
	while (p < n && o < limit) {
		const token = packed[p++] as number;
		let literals = token >>> 4;
		if (literals === 15) {
			for (let b = 255; b === 255; literals += b) {
				if (p >= n) throw new PackedTextError("a count runs past the end");
				b = packed[p++] as number;
			}
		}
		if (p + literals > n) throw new PackedTextError("literals run past the end");
		if (o + literals > out.length) out = grow(out, o, literals);
		if (literals < SHORT_COPY) for (let k = 0; k < literals; k++) out[o + k] = packed[p + k] as number;
		else out.set(packed.subarray(p, p + literals), o);
		o += literals;
		p += literals;
		let length = token & 15;
		if (length === 0) {
			if (p !== n) throw new PackedTextError("a step without a match before the end");
			return out.subarray(0, o);
		}
		if (p + 2 > n) throw new PackedTextError("an offset runs past the end");
		let offset = (packed[p] as number) | ((packed[p + 1] as number) << 8);
		p += 2;
		if (offset >= LONG_OFFSET) {
			if (p >= n) throw new PackedTextError("an offset runs past the end");
			offset = (offset & 0x7fff) | ((packed[p++] as number) << 15);
		}
		if (length === 15) {
			for (let b = 255; b === 255; length += b) {
				if (p >= n) throw new PackedTextError("a count runs past the end");
				b = packed[p++] as number;
			}
		}
		length += MIN_MATCH - 1;
		const from = base + o - offset;
		if (offset === 0 || from < 0) throw new PackedTextError(`offset ${offset} before the dictionary`);
		if (o + length > out.length) out = grow(out, o, length);
		copyMatch(d, out, from - base, o, length);
		o += length;
	}
	if (o < limit) throw new PackedTextError("no final step");
	return out.subarray(0, o);
}

/** `out` with room for `more` bytes after its first `o`. */
function grow(out: Uint8Array, o: number, more: number): Uint8Array {
	const grown = new Uint8Array(Math.max(o + more, out.length * 2));
	grown.set(out.subarray(0, o));
	return grown;
}

/** Copies `length` bytes from virtual position `from` (negative: the dictionary's tail) to out[o…]. */
function copyMatch(d: Uint8Array, out: Uint8Array, from: number, o: number, length: number): void {
	let k = 0;
	if (from < 0) {
		const inDict = Math.min(length, -from);
		const at = d.length + from;
		if (inDict < SHORT_COPY) for (; k < inDict; k++) out[o + k] = d[at + k] as number;
		else {
			out.set(d.subarray(at, at + inDict), o);
			k = inDict;
		}
	}
	const start = from + k;
	if (length - k >= SHORT_COPY && o + k - start >= length - k) {
		out.copyWithin(o + k, start, start + length - k);
		return;
	}
	// The match overlaps what it writes (a repeat): byte by byte.
	for (; k < length; k++) out[o + k] = out[from + k] as number;
}
