/**
 * xxHash64 fingerprints of byte ranges of a session file. A checkpoint keeps two: the head of the file and the
 * bytes just before the committed offset. Together with (dev, ino) and size they detect rewrites, truncation and
 * replacement without re-reading unchanged bytes.
 */
import { readSync } from "node:fs";
import xxhash from "xxhash-wasm";

/** Bytes hashed at the head of a file and just before the checkpoint. */
export const FINGERPRINT_BYTES = 4096;

type Hasher = Awaited<ReturnType<typeof xxhash>>;
let hasher: Hasher | undefined;

/**
 * Loads the wasm hasher once per process (or worker). Must be awaited before any fingerprint call. The package is
 * imported statically: a dynamic import of it is not bundled into a compiled Pi binary (Bun `--compile`).
 */
export async function initFingerprints(): Promise<void> {
	hasher ??= await xxhash();
}

function requireHasher(): Hasher {
	if (!hasher) throw new Error("fingerprints used before initFingerprints()");
	return hasher;
}

/**
 * Inputs longer than this are hashed in pieces. The hasher copies its input into its wasm memory, which grows to fit
 * and never shrinks: one 6 MB line kept 6 MB more in every process that had indexed it.
 */
export const HASH_PIECE_BYTES = 64 * 1024;

/** xxHash64 of the bytes: the same value whole or in pieces. */
function h64(bytes: Uint8Array): bigint {
	const hasher = requireHasher();
	if (bytes.length <= HASH_PIECE_BYTES) return hasher.h64Raw(bytes);
	const state = hasher.create64();
	feed(state, bytes);
	return state.digest();
}

function feed(state: ReturnType<Hasher["create64"]>, bytes: Uint8Array): void {
	for (let at = 0; at < bytes.length; at += HASH_PIECE_BYTES) state.update(bytes.subarray(at, at + HASH_PIECE_BYTES));
}

/** Hex xxHash64 of the given bytes. */
export function hashBytes(bytes: Uint8Array): string {
	return h64(bytes).toString(16).padStart(16, "0");
}

/** Bytes of a line hash. */
export const LINE_HASH_BYTES = 8;

/** xxHash64 of one line's bytes as LINE_HASH_BYTES big-endian bytes (the `events.line_hash` column). */
export function lineHash(bytes: Uint8Array): Buffer {
	return asLineHash(h64(bytes));
}

function asLineHash(value: bigint): Buffer {
	const out = Buffer.alloc(LINE_HASH_BYTES);
	out.writeBigUInt64BE(value);
	return out;
}

/** A line's lineHash, its bytes fed part by part (a long line read without holding it whole). */
export function lineHasher(): { update(bytes: Uint8Array): void; digest(): Buffer } {
	const state = requireHasher().create64();
	return {
		update: (bytes) => feed(state, bytes),
		digest: () => asLineHash(state.digest()),
	};
}

/** Reads exactly [start, end) of an open file into `allocate(size)`; returns fewer bytes only if the file is shorter. */
export function readRange(
	fd: number,
	start: number,
	end: number,
	allocate: (size: number) => Uint8Array = (size) => new Uint8Array(size),
): Uint8Array {
	const length = Math.max(0, end - start);
	const buf = allocate(length);
	let filled = 0;
	while (filled < length) {
		const n = readSync(fd, buf, filled, length - filled, start + filled);
		if (n === 0) break;
		filled += n;
	}
	return filled === length ? buf : buf.subarray(0, filled);
}

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
