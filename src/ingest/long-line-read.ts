/**
 * A line of HUGE_LINE_BYTES or more, read without holding it whole (docs/lifecycle.md, "Memory"): its bytes are
 * scanned chunk by chunk into a skeleton (parse/long-line.ts) and hashed as they pass; the skeleton is parsed and
 * projected, and each long value is read again from the file, window by window, when its pieces are cut and when
 * each piece is inserted (long-values.ts). The results are the whole parse's: wherever this reading cannot promise
 * that (a long object key, a long string JSON would reject, a marker that would reach anything but a fragment's
 * text, a line still being written), the line is read whole and parsed as any other.
 */

import { lineHasher } from "../files/hash.js";
import { readRange } from "../files/read-range.js";
import { LongLineScanner } from "../parse/long-line.js";
import { decodeUtf8, NEWLINE, parseLine } from "../parse/parse-chunk.js";
import type { ParseState } from "../parse/types.js";
import { projectEntry } from "../project/project-entry.js";
import type { ProjectedEvent } from "../project/types.js";
import { collectGarbage, pagedBytes } from "../runtime.js";
import type { ChunkStep } from "./chunk-reader.js";
import { type ChunkReader, chunkBuffer, type LongLineStart } from "./chunk-reader.js";
import { fileLongValues, holdsMarker, markerBytes } from "./long-values.js";

const EMPTY = new Uint8Array(0);

/** A long line's step, and the bytes after it that its last chunk read (the caller parses them from `step.state`). */
export interface LongLineRead {
	step: ChunkStep;
	rest: Uint8Array;
}

/**
 * The step of the long line that starts at `state.byteOffset` (its first chunks in `start`, read on from `reader`).
 * `parseWhole` parses the line's bytes the ordinary way: the fallback.
 */
export function readLongLine(
	reader: ChunkReader,
	start: LongLineStart,
	state: ParseState,
	maxLine: number,
	parseWhole: (buffer: Uint8Array) => ChunkStep,
): LongLineRead {
	const lineStart = state.byteOffset;
	const scanner = new LongLineScanner(markerBytes);
	const hasher = lineHasher();
	let length = 0;
	const feed = (bytes: Uint8Array) => {
		scanner.push(bytes);
		hasher.update(bytes);
		length += bytes.length;
	};
	for (const part of start.parts) feed(part);
	// Its first chunks, and what earlier lines left, are freed first: the line's own garbage starts from the live heap.
	start.parts.length = 0;
	collectGarbage();
	// Chunks are read into one buffer: the line's bytes pass through it and are never kept.
	const into = chunkBuffer(reader);
	for (;;) {
		// Too long to index: the parser skips it as it arrives, as it would have without this reading.
		if (length > maxLine) return { step: skipStep(state, lineStart, reader.position), rest: EMPTY };
		const chunk = reader.next(into);
		// The line is still being written: it waits, whole, for the rest, as any unfinished line does.
		if (!chunk) return { step: parseWhole(readWhole(reader.fd, lineStart, reader.position)), rest: EMPTY };
		const nl = chunk.indexOf(NEWLINE);
		if (nl < 0) {
			feed(chunk);
			continue;
		}
		feed(chunk.subarray(0, nl));
		const lineEnd = reader.position - chunk.length + nl + 1;
		// The parser meets the line's end in the rest and records it as too large.
		if (length > maxLine) return { step: skipStep(state, lineStart, lineEnd - 1), rest: chunk.subarray(nl) };
		hasher.update(chunk.subarray(nl, nl + 1));
		const rest = chunk.subarray(nl + 1);
		const step = scannedStep(reader.fd, scanner, state, lineStart, lineEnd);
		if (!step) return { step: parseWhole(readWhole(reader.fd, lineStart, lineEnd)), rest };
		const hash = hasher.digest();
		for (const e of step.events) step.hashes.set(e.seq, hash);
		return { step, rest };
	}
}

/** The line parsed from its skeleton, or undefined when it must be parsed whole. */
function scannedStep(
	fd: number,
	scanner: LongLineScanner,
	state: ParseState,
	lineStart: number,
	lineEnd: number,
): ChunkStep | undefined {
	const scan = scanner.finish();
	if (!scan) return undefined;
	const parsed = parseLine(decodeUtf8(scan.skeleton), state, lineStart, lineEnd);
	const events: ProjectedEvent[] = [];
	let sessionName: string | null | undefined;
	for (const entry of parsed.entries) {
		entry.longValues = fileLongValues(fd, lineStart, scan.spans);
		const event = projectEntry(entry);
		if (markerOutsideText(event)) return undefined;
		if (event.sessionName !== undefined) sessionName = event.sessionName || null;
		events.push(event);
	}
	return {
		events,
		receipts: parsed.receipts,
		hashes: new Map(),
		sessionName,
		state: parsed.state,
		pending: EMPTY,
		huge: true,
	};
}

/** True when a long value's marker reached anything of the event but a fragment's text. */
function markerOutsideText(event: ProjectedEvent): boolean {
	const { fragments, ...facts } = event;
	const fragmentFacts = fragments.map((f) => [f.toolName, f.toolCallId]);
	return holdsMarker(JSON.stringify([facts, fragmentFacts]));
}

/** The line at [lineStart, end) read whole, in pages of its own (runtime.ts pagedBytes). */
function readWhole(fd: number, lineStart: number, end: number): Uint8Array {
	return readRange(fd, lineStart, end, pagedBytes);
}

/** Where the parser skips an oversized line: from `at` on. */
function skipStep(state: ParseState, lineStart: number, at: number): ChunkStep {
	return {
		events: [],
		receipts: [],
		hashes: new Map(),
		sessionName: undefined,
		state: { ...state, skipLineStart: lineStart, byteOffset: at },
		pending: EMPTY,
		huge: false,
	};
}
