/**
 * Reads a file from an offset in fixed-size chunks, so memory stays bounded whatever the file size.
 * Counts bytes read, which tests use to prove that an append reads only the new bytes.
 */
import { NEWLINE } from "../parse/parse-chunk.js";
import { pagedBytes } from "../runtime.js";
import { readRange } from "./fingerprint.js";

/**
 * A line at least this long is a long line: joined into pages of its own (pagedBytes), followed by full garbage
 * collections (read-batch.ts), left to the writer by the prefetch thread (prefetch-worker.ts).
 */
export const HUGE_LINE_BYTES = 1 << 20;

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

/**
 * The bytes to parse next: `pending` (the unfinished line the last parse left) joined, once, with the chunks up to
 * the first that ends a line, or until `maxBytes` are held (an oversized line the parser skips), or the end of the
 * range; null when the range has no byte left. Joining each chunk to the growing line instead copied and rescanned
 * a multi-MB line once per chunk: quadratic, 1.1–1.5 s under the write lock for one 6 MiB line in 16 KiB chunks.
 */
export function nextParseBuffer(reader: ChunkReader, pending: Uint8Array, maxBytes: number): Uint8Array | null {
	const parts: Uint8Array[] = pending.length > 0 ? [pending] : [];
	let size = pending.length;
	let read = false;
	for (let chunk = reader.next(); chunk; chunk = reader.next()) {
		read = true;
		parts.push(chunk);
		size += chunk.length;
		if (chunk.includes(NEWLINE) || size >= maxBytes) break;
	}
	if (!read) return null;
	return parts.length === 1 ? parts[0] : joinAll(parts, size);
}

function joinAll(parts: readonly Uint8Array[], size: number): Uint8Array {
	// A long line is rare and freed soon: its bytes stay out of malloc's heap (runtime.ts pagedBytes).
	const out = size >= HUGE_LINE_BYTES ? pagedBytes(size) : new Uint8Array(size);
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}
