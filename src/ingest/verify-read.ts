/**
 * `verify`'s reading of one session file: its committed bytes parsed from byte 0, chunk by chunk, so memory stays flat
 * whatever the file's size (a file read whole cost its size in memory, and one over 2 GiB could not be read at all).
 * Each line is parsed whole by the parser's own rules, never by the sync's long-line path (long-line-read.ts): the
 * parse verify compares the index with is the reference, not the code under test; a line is at most `maxLineBytes`.
 */
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { readRange } from "../files/read-range.js";
import { DEFAULT_MAX_LINE_BYTES, initialParseState, NEWLINE, parseChunk } from "../parse/parse-chunk.js";
import type { ParseState, SessionHeader } from "../parse/types.js";
import { projectEntry } from "../project/project-entry.js";
import type { ProjectedEvent } from "../project/types.js";
import { collectGarbage } from "../runtime.js";
import { CHUNK_BYTES, chunkReader, nextParseBuffer } from "./chunk-reader.js";

/**
 * Bytes read between two full garbage collections. V8 puts off collecting the chunks, decoded lines and projections
 * a read leaves behind while its heap grows (the bulk pass does the same: catch-up-job.ts BULK_COLLECT_BYTES).
 */
const VERIFY_COLLECT_BYTES = 16 << 20;

/** Counts the bytes a verify read, across files, and collects garbage every VERIFY_COLLECT_BYTES. */
export class GarbageCollector {
	private since = 0;

	read(bytes: number): void {
		this.since += bytes;
		if (this.since < VERIFY_COLLECT_BYTES) return;
		collectGarbage();
		this.since = 0;
	}
}

/** A session file opened for verify: its descriptor and size, from the same inode. */
export interface OpenedFile {
	fd: number;
	size: number;
}

/** Why a file cannot be verified: gone (no such path), or unreadable (with why). */
export type OpenFailure = { gone: true } | { gone: false; why: string };

/**
 * Opens `path` for reading; a failure says whether it is gone or unreadable (not a regular file, permissions).
 * O_NONBLOCK, as the sync opens (file-facts.ts): a FIFO put in a session file's place must not block verify.
 */
export function openSessionFile(path: string): OpenedFile | OpenFailure {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (err) {
		const code = (err as { code?: string }).code;
		return code === "ENOENT" || code === "ENOTDIR" ? { gone: true } : { gone: false, why: code ?? String(err) };
	}
	try {
		const stat = fstatSync(fd);
		if (stat.isFile()) return { fd, size: stat.size };
		closeSync(fd);
		return { gone: false, why: "no longer a regular file" };
	} catch (err) {
		closeSync(fd);
		return { gone: false, why: (err as { code?: string }).code ?? String(err) };
	}
}

/** One parsed chunk of the committed bytes: its entries projected, each with the xxHash64 input of its line. */
export interface VerifyChunk {
	events: ProjectedEvent[];
	/** The bytes of event `i`'s line (a view of the chunk: valid only during the callback). */
	line(i: number): Uint8Array;
}

/** What the whole read found besides the chunks. */
export interface CommittedRead {
	header: SessionHeader | undefined;
	/** The parse state after the last complete line before the checkpoint (its `entryCount`: the events expected). */
	state: ParseState;
}

/** Parses bytes [0, `end`) of `fd` chunk by chunk, handing each chunk's events to `onChunk` in file order. */
export function readCommitted(
	fd: number,
	end: number,
	collector: GarbageCollector,
	onChunk: (chunk: VerifyChunk) => void,
): CommittedRead {
	const maxLineBytes = DEFAULT_MAX_LINE_BYTES;
	const reader = chunkReader(fd, 0, end, CHUNK_BYTES);
	let state = initialParseState();
	let header: SessionHeader | undefined;
	let pending: Uint8Array = new Uint8Array(0);
	// A line is joined whole up to the limit; one past it is consumed as it arrives, a chunk at a time, read into one
	// reused buffer (the parser keeps nothing of it: pending is empty while it skips).
	const scratch = new Uint8Array(CHUNK_BYTES);
	const next = () =>
		state.skipLineStart !== undefined && pending.length === 0
			? reader.next(scratch)
			: nextParseBuffer(reader, pending, maxLineBytes);
	let counted = 0;
	for (let buffer = next(); buffer; ) {
		collector.read(reader.bytesRead - counted);
		counted = reader.bytesRead;
		const parsed = parseChunk(buffer, state, { maxLineBytes });
		header ??= parsed.header;
		const base = state.byteOffset;
		const events = parsed.entries.map(projectEntry);
		const bytes = buffer;
		if (events.length > 0) {
			onChunk({ events, line: (i) => bytes.subarray(events[i].byteStart - base, events[i].byteEnd - base) });
		}
		state = parsed.state;
		pending = buffer.subarray(state.byteOffset - base);
		buffer = next();
	}
	return { header, state };
}

/**
 * Bytes of complete lines after `from` (up to the last `\n` of the file), read backwards from the end one chunk
 * at a time: 0 when no line was completed after `from`.
 */
export function completeBytesAfter(fd: number, from: number, size: number): number {
	for (let end = size; end > from; ) {
		const start = Math.max(from, end - CHUNK_BYTES);
		const chunk = readRange(fd, start, end);
		const last = chunk.lastIndexOf(NEWLINE);
		if (last >= 0) return start + last + 1 - from;
		end = start;
	}
	return 0;
}
