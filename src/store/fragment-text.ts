/**
 * How fragment text is stored in `fragments.text`: the ONE module that encodes it for insert and decodes it for
 * reads, snippets and proximity ranking. Fragment text is most of the index's bytes (tool outputs, code), so:
 * - only the first STORED_HEAD_CHARS code points of a fragment are kept in the index; the whole text of a longer one is
 *   read again from its session file when it is needed (src/store/event-line.ts, checked by the line's hash). The FTS
 *   body is written from the whole text, so every word stays searchable;
 * - a kept text of at least MIN_COMPRESS_BYTES is stored brotli-compressed (quality 1) as a BLOB; a shorter one, or one
 *   that would not shrink by COMPRESSION_GAIN, stays a plain TEXT value. The SQLite storage class is the flag
 *   (`typeof(text)`): TEXT = raw, BLOB = compressed. Search never decompresses.
 * Trade and numbers: docs/store.md, "Fragment text".
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { codePointLength, sliceCodePoints } from "../text/code-points.js";

/** A stored fragment text as either driver returns it: TEXT as a string, BLOB as bytes. */
export type StoredFragmentText = string | Uint8Array;

/**
 * Shorter texts are kept raw. Each compression call costs tens of µs whatever the size, and fragments under 512 B
 * are 80 % of all fragments but 12 % of the text (1 GB corpus); compressing from 256 B instead saved 3 % of the
 * index for about twice the calls.
 */
export const MIN_COMPRESS_BYTES = 512;

/** A compressed text is kept only if it is at most this share of the raw UTF-8 bytes. */
export const COMPRESSION_GAIN = 0.85;

/**
 * Brotli quality 1. Measured on fragments of the 1 GB corpus (≥ 256 B): ratio 0.35 (deflate level 1: 0.33, level
 * 6: 0.30) at about half deflate's cost per call; the sync zlib calls cost tens of µs each before any byte is
 * compressed, which is what dominates for the typical 1 KB fragment. The cold build compresses every fragment once.
 */
function compress(raw: Buffer): Buffer {
	return brotliCompressSync(raw, {
		// Output buffers of the input's size, not zlib's 16 KiB each: a build makes a million of them, and V8 frees them
		// only at its next collection (peak RSS of a cold build −10 MiB).
		chunkSize: Math.max(MIN_CHUNK_BYTES, raw.length),
		params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
	});
}

/** zlib's smallest output chunk. */
const MIN_CHUNK_BYTES = 64;

const decoder = new TextDecoder("utf-8");

/**
 * Code points of a fragment's text kept in the index. Proximity ranking and search context read no more than this
 * (rank.ts RERANK_FRAGMENT_CHARS, context.ts, answer-type.ts): measured on the ranking and natural-question sets,
 * proximity over the first 1,000 code points ranks exactly as over the first 2,000 and 32,000 (docs/store.md).
 */
export const STORED_HEAD_CHARS = 1_000;

/** The part of `text` the index keeps: the whole text, or its first STORED_HEAD_CHARS code points. */
export function storedPart(text: string): string {
	return text.length <= STORED_HEAD_CHARS ? text : sliceCodePoints(text, 0, STORED_HEAD_CHARS);
}

/** True when `decoded` (a decoded stored value) is the whole text of a fragment of `charCount` code points. */
export function isWholeText(decoded: string, charCount: number): boolean {
	return charCount <= STORED_HEAD_CHARS || (decoded.length >= charCount && codePointLength(decoded) >= charCount);
}

/** The value to insert into `fragments.text` for a fragment whose whole text is `whole`. */
export function encodeFragmentText(whole: string): StoredFragmentText {
	const text = storedPart(whole);
	// A UTF-16 unit is at most 3 UTF-8 bytes: a short string is kept without being encoded at all.
	if (text.length * 3 < MIN_COMPRESS_BYTES) return text;
	const raw = Buffer.from(text, "utf8");
	if (raw.length < MIN_COMPRESS_BYTES) return text;
	const packed = compress(raw);
	return packed.length <= raw.length * COMPRESSION_GAIN ? packed : text;
}

/** The full text of a stored value. */
export function decodeFragmentText(stored: StoredFragmentText): string {
	if (typeof stored === "string") return stored;
	return decoder.decode(brotliDecompressSync(stored));
}

/**
 * The first `maxChars` code points of a stored value (the whole text when it is shorter), as SQL `substr(text, 1,
 * maxChars)` gave: only a prefix of a long compressed text is decompressed (a brotli stream decodes from its start
 * as far as its bytes go).
 */
export function decodeFragmentPrefix(stored: StoredFragmentText, maxChars: number): string {
	return sliceCodePoints(decodePrefixBytes(stored, maxChars), 0, maxChars);
}

/** At least `maxChars` code points from the start (or the whole text); a character cut at the end is dropped. */
function decodePrefixBytes(stored: StoredFragmentText, maxChars: number): string {
	if (typeof stored === "string") return stored;
	// maxChars code points need at most 4 × maxChars UTF-8 bytes; a compressed text is smaller than its raw bytes,
	// so as many compressed bytes usually suffice. Double until they do or the whole stream is read.
	let take = Math.max(1024, maxChars * 4);
	for (;;) {
		if (take >= stored.length) return decodeFragmentText(stored);
		const out = brotliDecompressSync(stored.subarray(0, take), { finishFlush: constants.BROTLI_OPERATION_FLUSH });
		if (out.length >= maxChars * 4) return decoder.decode(out.subarray(0, completeUtf8Length(out, maxChars * 4)));
		take *= 2;
	}
}

/** Length of the longest prefix of `bytes[0, limit)` that ends on a UTF-8 character boundary. */
function completeUtf8Length(bytes: Uint8Array, limit: number): number {
	let end = Math.min(limit, bytes.length);
	// Back up over continuation bytes (10xxxxxx) to the lead byte, then drop it if its sequence is cut.
	let i = end;
	while (i > 0 && i > end - 4 && ((bytes[i - 1] as number) & 0xc0) === 0x80) i--;
	if (i > 0 && i > end - 4) {
		const lead = bytes[i - 1] as number;
		const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
		if (end - (i - 1) < need) end = i - 1;
	}
	return end;
}
