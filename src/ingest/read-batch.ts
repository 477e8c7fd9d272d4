/**
 * The read half of one batch: the new lines of a file from a parse state on, parsed and projected, chunk by chunk,
 * until the batch budget is crossed or a hot-path writer asks for the lock. A chunk comes from the file itself or,
 * in a bulk pass, ready-made from the prefetch thread (prefetch.ts): same lines, same parse states.
 */

import { LINE_HASH_BYTES, lineHash } from "../files/hash.js";
import { DEFAULT_MAX_LINE_BYTES, initialParseState, NEWLINE, parseChunk } from "../parse/parse-chunk.js";
import type { ParseState, SkipReceipt } from "../parse/types.js";
import { projectEntry } from "../project/project-entry.js";
import { collectGarbage } from "../runtime.js";
import type { PreparedDictionary } from "../store/lz-dict.js";
import {
	CHUNK_BYTES,
	type ChunkReader,
	type ChunkStep,
	chunkReader,
	HUGE_LINE_BYTES,
	nextParseBuffer,
} from "./chunk-reader.js";
import { type EventRow, eventRow, type IndexedEvent } from "./event-rows.js";
import type { FileFacts } from "./file-facts.js";
import { readLongLine } from "./long-line-read.js";

/** Input bytes per batch unless the caller says (bulk passes: 256 KiB, catch-up-job.ts). */
const DEFAULT_BATCH_BYTES = 4 << 20;

/** How a batch reads: its budget, chunk size and longest line, and when it ends early. */
export interface ReadOptions {
	/** Input bytes per transaction; a longer backlog is committed in several batches. */
	batchBytes?: number;
	/** Lines longer than this are skipped with a receipt, without being held in memory. */
	maxLineBytes?: number;
	chunkBytes?: number;
	/**
	 * Checked before each further chunk once the batch has indexed a line: true ends the batch there, so a hot-path
	 * writer that is waiting gets the write lock after one chunk (`chunkBytes`) instead of one whole batch (catch-up.ts).
	 */
	endBatchEarly?: () => boolean;
	/** Chunks of new files parsed and projected by another thread (prefetch.ts). */
	prepared?: PreparedChunks;
}

/** One chunk of a file, parsed and projected, its events' rows derived: what a batch takes in one step. */
export interface PreparedChunk {
	/** The parse state's offset the chunk starts at. */
	start: number;
	events: EventRow[];
	receipts: SkipReceipt[];
	/** The events' line hashes, LINE_HASH_BYTES each, in order (one buffer: each crossing buffer costs). */
	hashes: Uint8Array;
	sessionName: string | null | undefined;
	/** The parse state after the chunk. */
	state: ParseState;
	bytesRead: number;
}

/** Prepared chunks of a pass's new files, in file order. */
export interface PreparedChunks {
	/** The chunk of the file at `path` (with these facts) that starts at `offset`, or undefined: read it here. */
	take(path: string, file: FileFacts, offset: number): PreparedChunk | undefined;
}

/** What one batch read from a file: its chunks' steps together, and how far it read. */
export interface ReadBatch extends Omit<ChunkStep, "events"> {
	projected: IndexedEvent[];
	bytesRead: number;
	/** The reader's position: the next byte it would read. */
	readTo: number;
}

/**
 * Parses the next buffer of `reader` after `pending` from `state` and projects its entries (with a full collection
 * before a huge line is projected); null at the end of the range. Without `stopBefore`, a line of HUGE_LINE_BYTES or
 * more is read without being held whole (long-line-read.ts).
 */
function readChunk(
	reader: ChunkReader,
	pending: Uint8Array,
	state: ParseState,
	maxLine: number,
	stopBefore = Number.POSITIVE_INFINITY,
): ChunkStep | null | "too-long" {
	// The first line of a file (its header, maybe after a byte-order mark) and a line being skipped are read as ever.
	const longLines =
		stopBefore === Number.POSITIVE_INFINITY && state.byteOffset > 0 && state.skipLineStart === undefined;
	// With `stopBefore`, a longer line is never joined whole: the caller leaves it to another reader.
	const buffer = nextParseBuffer(reader, pending, Math.min(maxLine, stopBefore), longLines);
	if (!buffer) return null;
	if (buffer instanceof Uint8Array) {
		return buffer.length >= stopBefore ? "too-long" : parseBuffer(buffer, state, maxLine);
	}
	const { step, rest } = readLongLine(reader, buffer, state, maxLine, (b) => parseBuffer(b, state, maxLine));
	return rest.length === 0 ? step : joinSteps(step, parseBuffer(rest, step.state, maxLine));
}

/** Step `a` followed by step `b`, which starts where `a` ended. */
function joinSteps(a: ChunkStep, b: ChunkStep): ChunkStep {
	for (const [seq, hash] of b.hashes) a.hashes.set(seq, hash);
	return {
		events: [...a.events, ...b.events],
		receipts: [...a.receipts, ...b.receipts],
		hashes: a.hashes,
		sessionName: b.sessionName !== undefined ? b.sessionName : a.sessionName,
		state: b.state,
		pending: b.pending,
		huge: a.huge || b.huge,
	};
}

/** The complete lines of `buffer` (which starts at `state.byteOffset`) parsed and projected. */
function parseBuffer(buffer: Uint8Array, state: ParseState, maxLine: number): ChunkStep {
	// A long line was joined from its chunks: free them before the parse decodes it (−4 MiB of a 1 GB one-thread
	// build's peak: docs/lifecycle.md, "Memory").
	if (startsLongLine(buffer)) collectGarbage();
	// The parser consumes an oversized line as it arrives (receipt at its `\n`), so `pending` stays bounded.
	const parsed = parseChunk(buffer, state, { maxLineBytes: maxLine });
	const base = state.byteOffset;
	const step: ChunkStep = {
		events: [],
		receipts: parsed.receipts,
		hashes: new Map(),
		sessionName: undefined,
		state: parsed.state,
		pending: buffer.subarray(parsed.state.byteOffset - base),
		huge: false,
	};
	for (const entry of parsed.entries) {
		if (entry.byteEnd - entry.byteStart >= HUGE_LINE_BYTES) {
			// Free the decoded line (and what earlier batches left) before projecting makes more copies of it.
			step.huge = true;
			collectGarbage();
		}
		const event = projectEntry(entry);
		if (event.sessionName !== undefined) step.sessionName = event.sessionName || null;
		step.events.push(event);
		// Every indexed line keeps a hash of its bytes, so `verify` can prove the index against the file.
		step.hashes.set(event.seq, lineHash(buffer.subarray(event.byteStart - base, event.byteEnd - base)));
	}
	return step;
}

/** True when the first line of `buffer` (the unfinished line the last parse left, and on) is HUGE_LINE_BYTES or longer. */
export function startsLongLine(buffer: Uint8Array): boolean {
	if (buffer.length < HUGE_LINE_BYTES) return false;
	const end = buffer.indexOf(NEWLINE);
	return end < 0 || end >= HUGE_LINE_BYTES;
}

/** One chunk of a file read from its start: its step, the parse offset it started at, and the bytes it read. */
export interface FileChunk {
	step: ChunkStep;
	start: number;
	bytesRead: number;
}

/**
 * The chunks of a file read from its start (readChunk after readChunk), as the prefetch thread and the dictionary
 * sample read new files. Ends at the end of `reader`, or before a line of `stopBefore` bytes or more. Each chunk is
 * read when the caller asks for the next one, so a caller can wait (or stop) between chunks.
 */
export function* fileChunks(reader: ChunkReader, maxLine: number, stopBefore: number): Generator<FileChunk> {
	let state = initialParseState();
	let pending: Uint8Array = new Uint8Array(0);
	for (;;) {
		const before = reader.bytesRead;
		const step = readChunk(reader, pending, state, maxLine, stopBefore);
		if (!step || step === "too-long") return;
		yield { step, start: state.byteOffset, bytesRead: reader.bytesRead - before };
		state = step.state;
		pending = step.pending;
	}
}

/** A chunk step with its events' rows derived, ready to cross to the writing thread. */
export function prepareChunk(step: ChunkStep, start: number, bytesRead: number, dictionary?: PreparedDictionary) {
	const hashes = new Uint8Array(step.events.length * LINE_HASH_BYTES);
	step.events.forEach((e, i) => {
		hashes.set(step.hashes.get(e.seq) as Uint8Array, i * LINE_HASH_BYTES);
	});
	return {
		start,
		events: step.events.map((e) => eventRow(e, dictionary)),
		receipts: step.receipts,
		hashes,
		sessionName: step.sessionName,
		state: step.state,
		bytesRead,
	} satisfies PreparedChunk;
}

/** A batch's budget, chunk size and longest line, defaults filled in (the prefetch thread reads with the same). */
export interface ReadLimits {
	batchBytes: number;
	chunkBytes: number;
	maxLineBytes: number;
}

export function readLimits(o: ReadOptions): ReadLimits {
	const batchBytes = o.batchBytes ?? DEFAULT_BATCH_BYTES;
	return {
		batchBytes,
		// Chunks no larger than the budget keep it (a 64 KiB contended batch read 1 MiB chunks and held the write lock
		// for 1 MiB of inserts), since a batch ends after the chunk that crosses it.
		chunkBytes: o.chunkBytes ?? Math.min(CHUNK_BYTES, batchBytes),
		maxLineBytes: o.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
	};
}

/**
 * Reads, parses and projects lines from `start.byteOffset` until the batch budget is crossed or the hot path asks
 * for the lock. Its own function so that the parsed entries (raw JSON of multi-MB lines) die with its frame.
 */
export function readBatch(fd: number, path: string, file: FileFacts, start: ParseState, o: ReadOptions): ReadBatch {
	const { batchBytes, chunkBytes, maxLineBytes } = readLimits(o);
	const batch: ReadBatch = {
		projected: [],
		receipts: [],
		hashes: new Map(),
		sessionName: undefined,
		state: start,
		pending: new Uint8Array(0),
		bytesRead: 0,
		readTo: start.byteOffset,
		huge: false,
	};
	// Opened at the first chunk this thread reads itself, from where the prepared chunks (if any) ended.
	let reader: ChunkReader | undefined;
	for (;;) {
		const { state } = batch;
		if (state.byteOffset - start.byteOffset >= batchBytes) break;
		if (state.byteOffset > start.byteOffset && o.endBatchEarly?.()) break;
		const prepared = reader ? undefined : o.prepared?.take(path, file, state.byteOffset);
		if (prepared) {
			absorb(batch, prepared.events, prepared);
			prepared.events.forEach(([seq], i) => {
				batch.hashes.set(seq, prepared.hashes.subarray(i * LINE_HASH_BYTES, (i + 1) * LINE_HASH_BYTES));
			});
			batch.bytesRead += prepared.bytesRead;
			// Up to its last whole line: an unfinished line after it is this thread's to read.
			batch.readTo = prepared.state.byteOffset;
			continue;
		}
		// Read here from where the prepared chunks ended (an unfinished line after them is read again).
		reader ??= chunkReader(fd, state.byteOffset, file.size, chunkBytes);
		const step = readChunk(reader, batch.pending, state, maxLineBytes);
		if (!step || step === "too-long") break;
		absorb(batch, step.events, step);
		for (const [seq, hash] of step.hashes) batch.hashes.set(seq, hash);
		batch.pending = step.pending;
		batch.huge ||= step.huge;
	}
	if (reader) {
		batch.bytesRead += reader.bytesRead;
		batch.readTo = reader.position;
	}
	if (batch.huge) batch.pending = batch.pending.slice();
	return batch;
}

/** Adds a chunk's events, receipts, session name and end state to the batch (its line hashes come in two forms). */
function absorb(
	batch: ReadBatch,
	events: readonly IndexedEvent[],
	step: Pick<ChunkStep, "receipts" | "sessionName" | "state">,
): void {
	batch.projected.push(...events);
	batch.receipts.push(...step.receipts);
	if (step.sessionName !== undefined) batch.sessionName = step.sessionName;
	batch.state = step.state;
}
