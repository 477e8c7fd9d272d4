/**
 * Reads a file from an offset in fixed-size chunks, so memory stays bounded whatever the file size.
 * Counts bytes read, which tests use to prove that an append reads only the new bytes.
 */
import { readSync } from "node:fs";

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
			const want = Math.min(chunkBytes, end - position);
			const buf = new Uint8Array(want);
			let filled = 0;
			while (filled < want) {
				const n = readSync(fd, buf, filled, want - filled, position + filled);
				if (n === 0) break;
				filled += n;
			}
			position += filled;
			bytesRead += filled;
			if (filled === 0) {
				position = end;
				return null;
			}
			return filled === want ? buf : buf.subarray(0, filled);
		},
		get position() {
			return position;
		},
		get bytesRead() {
			return bytesRead;
		},
	};
}
