/**
 * How fragment text is stored in `fragments.text`: the ONE module that encodes it for insert and decodes it for
 * reads, snippets and proximity ranking. Fragment text is most of the index's bytes (tool outputs, code), so:
 * - only the first STORED_HEAD_CHARS code points of a fragment are kept in the index; the whole text of a longer one is
 *   read again from its session file when it is needed (src/session-file/event-line.ts, checked by the line's hash). The FTS
 *   body is written from the whole text, so every word stays searchable;
 * - a kept text of at least MIN_PACK_BYTES is stored packed (lz-dict.ts) as a BLOB whose first byte says against
 *   what: PACKED_ALONE, or PACKED_WITH_DICTIONARY, the generation's text dictionary (text-dictionary.ts); a shorter
 *   one, or one that would not shrink by PACK_GAIN, stays a plain TEXT value. The SQLite storage class is the flag
 *   (`typeof(text)`): TEXT = raw, BLOB = packed. Search never unpacks.
 * Trade and numbers: docs/store.md, "Fragment text".
 */
import { codePointLength, sliceCodePoints } from "../text/code-points.js";
import { STORED_HEAD_CHARS, storedPart } from "../text/stored-head.js";
import {
	PackedTextError,
	type PackWorth,
	type PreparedDictionary,
	packText,
	prepareDictionary,
	unpack,
} from "./lz-dict.js";
import type { DictionaryLookup } from "./text-dictionary.js";

/** A stored fragment text as either driver returns it: TEXT as a string, BLOB as bytes. */
export type StoredFragmentText = string | Uint8Array;

/** Shorter texts are kept raw: packing one saves a byte or two at best. */
export const MIN_PACK_BYTES = 24;

/** A packed text is kept only if it is at most this share of the raw UTF-8 bytes. */
const PACK_GAIN = 0.9;

const PACK_WORTH: PackWorth = { minBytes: MIN_PACK_BYTES, gain: PACK_GAIN };

/** First byte of a packed value: packed against nothing (a generation without a dictionary yet) or its dictionary. */
const PACKED_ALONE = 0;
const PACKED_WITH_DICTIONARY = 1;

let noDictionary: PreparedDictionary | undefined;
const NO_DICTIONARY_BYTES = new Uint8Array(0);

/** The empty dictionary, prepared on first packing: its hash table is 256 KiB, which a reading process never needs. */
function emptyDictionary(): PreparedDictionary {
	noDictionary ??= prepareDictionary();
	return noDictionary;
}

const decoder = new TextDecoder("utf-8");

/** True when `decoded` (a decoded stored value) is the whole text of a fragment of `charCount` code points. */
export function isWholeText(decoded: string, charCount: number): boolean {
	return charCount <= STORED_HEAD_CHARS || (decoded.length >= charCount && codePointLength(decoded) >= charCount);
}

/** The value to insert into `fragments.text` for a fragment whose whole text is `whole`. */
export function encodeFragmentText(whole: string, dictionary?: PreparedDictionary): StoredFragmentText {
	const text = storedPart(whole);
	// A UTF-16 unit is at most 3 UTF-8 bytes: a short string is kept without being encoded at all.
	if (text.length * 3 < MIN_PACK_BYTES) return text;
	const packed = dictionary
		? packText(text, dictionary, PACKED_WITH_DICTIONARY, PACK_WORTH)
		: packText(text, emptyDictionary(), PACKED_ALONE, PACK_WORTH);
	return packed ?? text;
}

/** The full text of a stored value; `dictionary` is asked only for a value packed against it. */
export function decodeFragmentText(stored: StoredFragmentText, dictionary: DictionaryLookup): string {
	if (typeof stored === "string") return stored;
	return decoder.decode(unpackStored(stored, dictionary));
}

/**
 * The first `maxChars` code points of a stored value (the whole text when it is shorter), as SQL `substr(text, 1,
 * maxChars)` gave: a packed text is unpacked only as far as those need.
 */
export function decodeFragmentPrefix(
	stored: StoredFragmentText,
	maxChars: number,
	dictionary: DictionaryLookup,
): string {
	if (typeof stored === "string") return sliceCodePoints(stored, 0, maxChars);
	// maxChars code points need at most 4 × maxChars UTF-8 bytes.
	const limit = maxChars * 4;
	const bytes = unpackStored(stored, dictionary, limit);
	return sliceCodePoints(decoder.decode(bytes.subarray(0, completeUtf8Length(bytes, limit))), 0, maxChars);
}

/** The UTF-8 bytes of a packed value, or at least its first `limit` bytes. Throws PackedTextError when damaged. */
function unpackStored(stored: Uint8Array, dictionary: DictionaryLookup, limit?: number): Uint8Array {
	const against = stored[0];
	let dict: Uint8Array | undefined;
	if (against === PACKED_ALONE) dict = NO_DICTIONARY_BYTES;
	else if (against === PACKED_WITH_DICTIONARY) {
		dict = dictionary.get();
		if (dict === undefined) throw new PackedTextError("packed against a dictionary the index does not have");
	} else throw new PackedTextError(`unknown packing ${against}`);
	return unpack(stored.subarray(1), dict, limit);
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
