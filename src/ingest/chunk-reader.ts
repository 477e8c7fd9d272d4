/**
 * Reads a file from an offset in fixed-size chunks, so memory stays bounded whatever the file size.
 * Counts bytes read, which tests use to prove that an append reads only the new bytes.
 */

import { readRange } from "../files/read-range.js";
import { NEWLINE } from "../parse/parse-chunk.js";
import type { ParseState, SkipReceipt } from "../parse/types.js";
import type { ProjectedEvent } from "../project/types.js";
import { pagedBytes } from "../runtime.js";

/**
 * A line at least this long is a long line: joined into pages of its own (pagedBytes), followed by full garbage
 * collections (read-batch.ts), left to the writer by the prefetch thread (prefetch-worker.ts).
 */
export const HUGE_LINE_BYTES = 1 << 20;

/** Default chunk size: large enough for throughput, small enough to keep memory flat. */
export const CHUNK_BYTES = 1 << 20;

/** A buffer for `ChunkReader.next(into)` of `reader`'s chunks. */
export function chunkBuffer(reader: ChunkReader): Uint8Array {
	return new Uint8Array(reader.chunkBytes);
}

export interface ChunkReader {
	/** The open file. */
	readonly fd: number;
	readonly chunkBytes: number;
	/**
	 * Next chunk starting at the current position, or null at `end`: a fresh buffer, or with `into` (at least a
	 * chunk long) a view of it, overwritten by the next call that passes it.
	 */
	next(into?: Uint8Array): Uint8Array | null;
	/** Absolute position of the next unread byte. */
	readonly position: number;
	readonly bytesRead: number;
}

/** Reads [start, end) of `fd` chunk by chunk. */
export function chunkReader(fd: number, start: number, end: number, chunkBytes = CHUNK_BYTES): ChunkReader {
	let position = start;
	let bytesRead = 0;
	return {
		fd,
		chunkBytes,
		next(into) {
			if (position >= end) return null;
			const buf = readRange(
				fd,
				position,
				Math.min(position + chunkBytes, end),
				into && ((size) => into.subarray(0, size)),
			);
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

/** The first chunks of a line of HUGE_LINE_BYTES or more, not joined (long-line-read.ts reads the rest). */
export interface LongLineStart {
	parts: Uint8Array[];
}

/**
 * The bytes to parse next: `pending` (the unfinished line the last parse left) joined, once, with the chunks up to
 * the first that ends a line, or until `maxBytes` are held (an oversized line the parser skips), or the end of the
 * range; null when the range has no byte left. Joining each chunk to the growing line instead copied and rescanned
 * a multi-MB line once per chunk: quadratic, 1.1–1.5 s under the write lock for one 6 MiB line in 16 KiB chunks.
 * With `longLines`, a line that reaches HUGE_LINE_BYTES before its end is returned unjoined.
 */
export function nextParseBuffer(reader: ChunkReader, pending: Uint8Array, maxBytes: number): Uint8Array | null;
export function nextParseBuffer(
	reader: ChunkReader,
	pending: Uint8Array,
	maxBytes: number,
	longLines: boolean,
): Uint8Array | LongLineStart | null;
export function nextParseBuffer(
	reader: ChunkReader,
	pending: Uint8Array,
	maxBytes: number,
	longLines = false,
): Uint8Array | LongLineStart | null {
	const parts: Uint8Array[] = pending.length > 0 ? [pending] : [];
	let size = pending.length;
	let read = false;
	for (let chunk = reader.next(); chunk; chunk = reader.next()) {
		read = true;
		parts.push(chunk);
		size += chunk.length;
		if (chunk.includes(NEWLINE)) break;
		if (longLines && size >= HUGE_LINE_BYTES) return { parts };
		if (size >= maxBytes) break;
	}
	if (!read) return null;
	return parts.length === 1 ? (parts[0] as Uint8Array) : joinAll(parts, size);
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

/** One parsed chunk of a file, as the prefetch thread makes it and a batch would have read it. */
export interface ChunkStep {
	events: ProjectedEvent[];
	receipts: SkipReceipt[];
	hashes: Map<number, Uint8Array>;
	sessionName: string | null | undefined;
	state: ParseState;
	/** What is left of the buffer after the last complete line. */
	pending: Uint8Array;
	/** A line of at least HUGE_LINE_BYTES was read. */
	huge: boolean;
}
