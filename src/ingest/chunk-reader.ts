/**
 * Reads a file from an offset in fixed-size chunks, so memory stays bounded whatever the file size.
 * Counts bytes read, which tests use to prove that an append reads only the new bytes.
 */
import { readRange } from "./fingerprint.js";

/** Default chunk size: large enough for throughput, small enough to keep memory flat. */
export const CHUNK_BYTES = 1 << 20;

export interface ChunkReader {
	/** Next chunk starting at the current position, or null at `end`. */
	next(): Uint8Array | null;
	/** Absolute position of the next unread byte. */
	readonly position: number;
	readonly bytesRead: number;
}

/** Reads [start, end) of `fd` chunk by chunk. Each returned chunk is a fresh buffer the caller may keep. */
export function chunkReader(fd: number, start: number, end: number, chunkBytes = CHUNK_BYTES): ChunkReader {
	let position = start;
	let bytesRead = 0;
	return {
		next() {
			if (position >= end) return null;
			const buf = readRange(fd, position, Math.min(position + chunkBytes, end));
			position += buf.length;
			bytesRead += buf.length;
			if (buf.length === 0) {
				// The file shrank under us: the caller's checks will see it on the next sync.
				position = end;
				return null;
			}
			return buf;
		},
		get position() {
			return position;
		},
		get bytesRead() {
			return bytesRead;
		},
	};
}

/** `a` followed by `b`, in a new buffer. */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
	const out = new Uint8Array(a.length + b.length);
	out.set(a, 0);
	out.set(b, a.length);
	return out;
}
