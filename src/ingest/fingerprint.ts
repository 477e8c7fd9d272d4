/**
 * xxHash64 fingerprints of byte ranges of a session file. A checkpoint keeps two: the head of the file and the
 * bytes just before the committed offset. Together with (dev, ino) and size they detect rewrites, truncation and
 * replacement without re-reading unchanged bytes.
 */
import { hashBytes } from "../files/hash.js";
import { readRange } from "../files/read-range.js";

/** Bytes hashed at the head of a file and just before the checkpoint. */
const FINGERPRINT_BYTES = 4096;

/** Fingerprint of [start, end) of an open file, or null if the file no longer has those bytes. */
export function hashRange(fd: number, start: number, end: number): string | null {
	const bytes = readRange(fd, start, end);
	if (bytes.length !== end - start) return null;
	return hashBytes(bytes);
}

/** Where the head and tail fingerprints of a checkpoint at `offset` lie. */
export function fingerprintRanges(offset: number): { headLen: number; tailStart: number } {
	return { headLen: Math.min(offset, FINGERPRINT_BYTES), tailStart: Math.max(0, offset - FINGERPRINT_BYTES) };
}
