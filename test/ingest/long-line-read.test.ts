/**
 * A line of HUGE_LINE_BYTES or more is read without being held whole (long-line-read.ts), and a batch of it gives
 * exactly the events, rows, receipts, parse states and line hashes of the whole parse (parseChunk + projectEntry).
 * Lines the scanner cannot promise that for are read whole, and give the same.
 */
import { appendFileSync, closeSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lineHash } from "../../src/files/hash.js";
import { HUGE_LINE_BYTES } from "../../src/ingest/chunk-reader.js";
import { type IndexedEvent, rowOf } from "../../src/ingest/event-rows.js";
import { openRegularFile } from "../../src/ingest/file-facts.js";
import { type ReadOptions, readBatch } from "../../src/ingest/read-batch.js";
import { initialParseState, parseChunk } from "../../src/parse/parse-chunk.js";
import type { ParseState } from "../../src/parse/types.js";
import { projectEntry } from "../../src/project/project-entry.js";
import type { ProjectedEvent } from "../../src/project/types.js";
import { collectGarbage } from "../../src/runtime.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../helpers/temp-store.js";

let dir: string;
beforeAll(async () => {
	dir = await tempDir("pei-long-line-");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A text of about `bytes` UTF-8 bytes: words, line ends, quotes, backslashes, CJK and emoji (escaped in JSON). */
function longText(bytes: number, seed = "w"): string {
	const unit = `${seed}ord "quoted" back\\slash tab\t \u4e2d\u6587\u641c\u7d22 \ud83d\ude00 end\n`;
	return unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)));
}

/** Rows with each FTS body made, so a lazy piece's body is compared as text. */
function rows(events: readonly IndexedEvent[]): unknown[] {
	return events.map((e) => {
		const row = rowOf(e);
		return [...row.slice(0, -1), row[16].map((f) => f.map((v) => (typeof v === "function" ? v() : v)))];
	});
}

interface Read {
	events: IndexedEvent[];
	receipts: unknown[];
	state: ParseState;
	hashes: Map<number, Uint8Array>;
	pending: Uint8Array;
	/** The events' rows, bodies made (read from the file while it is open, as the writer inserts them). */
	made: unknown[];
}

function readFile(path: string, from: ParseState, o: ReadOptions = {}, make = true): Read {
	const opened = openRegularFile(path);
	if (!opened) throw new Error(`no file ${path}`);
	try {
		const b = readBatch(opened.fd, path, opened.file, from, { batchBytes: 1 << 30, ...o });
		const made = make ? rows(b.projected) : [];
		return { events: b.projected, receipts: b.receipts, state: b.state, hashes: b.hashes, pending: b.pending, made };
	} finally {
		closeSync(opened.fd);
	}
}

/** The whole parse of the file's bytes: what every line was before long lines were read in parts. */
function wholeParse(content: string, maxLineBytes?: number) {
	const bytes = Buffer.from(content, "utf8");
	const parsed = parseChunk(bytes, initialParseState(), maxLineBytes ? { maxLineBytes } : {});
	const events = parsed.entries.map(projectEntry);
	const hashes = new Map(events.map((e) => [e.seq, lineHash(bytes.subarray(e.byteStart, e.byteEnd))]));
	return { events, receipts: parsed.receipts, state: parsed.state, hashes };
}

/**
 * Heap bytes that `make()`'s result keeps alive: measured while it is held and once it is dropped. It is made in a
 * frame of its own, whose temporaries (the interpreter's registers) would otherwise keep it alive too.
 */
function retainedBy(make: () => object): number {
	const box: { value?: object } = {};
	hold(box, make);
	collectGarbage();
	const holding = process.memoryUsage().heapUsed;
	box.value = undefined;
	collectGarbage();
	return holding - process.memoryUsage().heapUsed;
}

function hold(box: { value?: object }, make: () => object): void {
	box.value = make();
}

function pieces(events: readonly IndexedEvent[]): number {
	return (events as ProjectedEvent[]).flatMap((e) => e.fragments).filter((f) => f.piece !== undefined).length;
}

/** Writes `lines`, reads the file in one batch, and checks it against the whole parse; returns the batch. */
function sameAsWhole(name: string, lines: readonly string[], o: ReadOptions = {}) {
	const path = join(dir, name);
	const content = lines.join("");
	writeFileSync(path, content);
	const got = readFile(path, initialParseState(), o);
	const want = wholeParse(content, o.maxLineBytes);
	expect(got.made).toEqual(rows(want.events));
	expect(got.receipts).toEqual(want.receipts);
	expect(got.state).toEqual(want.state);
	expect(got.hashes).toEqual(want.hashes);
	expect(got.events.map((e) => (e as ProjectedEvent).fragments.map((f) => f.charCount))).toEqual(
		want.events.map((e) => e.fragments.map((f) => f.charCount)),
	);
	return got;
}

describe("a long line read without holding it whole", () => {
	it("gives the whole parse's rows for a long tool result, call, text and thinking, in 1 MiB and 256 KiB chunks", () => {
		const f = lineFactory();
		const lines = [
			f.header(),
			f.user("please look"),
			f.toolResult("c1", "bash", longText(1.5 * HUGE_LINE_BYTES)),
			f.other({
				message: {
					role: "assistant",
					content: [
						{ type: "thinking", thinking: longText(HUGE_LINE_BYTES, "t") },
						{ type: "text", text: `before ${longText(200_000, "x")}` },
						{
							type: "toolCall",
							id: "call-1",
							name: "write",
							arguments: { path: "/src/a.ts", content: longText(HUGE_LINE_BYTES, "c"), mode: "w" },
						},
						{ type: "toolCall", id: "call-2", name: "raw", arguments: longText(300_000, "r") },
					],
					provider: "faux",
					model: "faux-1",
					stopReason: "toolUse",
				},
			}),
			f.other({ type: "custom_message", customType: "note", content: longText(HUGE_LINE_BYTES, "n"), display: true }),
			f.other({ type: "compaction", summary: longText(HUGE_LINE_BYTES, "s"), firstKeptEntryId: "e0000001" }),
			f.assistant("done"),
		];
		for (const chunkBytes of [1 << 20, 256 << 10]) {
			const got = sameAsWhole(`kinds-${chunkBytes}.jsonl`, lines, { chunkBytes });
			expect(pieces(got.events)).toBeGreaterThan(15);
		}
	});

	it("reads a line whole, with the same rows, where a marker would reach more than a fragment's text", () => {
		const f = lineFactory();
		const got = sameAsWhole("fallback.jsonl", [
			f.header(),
			// The error text is also a (bounded) attribute; a session name is also the session's name.
			f.other({
				message: { role: "assistant", content: [], stopReason: "error", errorMessage: longText(HUGE_LINE_BYTES) },
			}),
			f.other({ type: "session_info", name: `  ${longText(HUGE_LINE_BYTES)}  ` }),
			f.other({ type: "label", targetId: "e0000001", label: longText(HUGE_LINE_BYTES) }),
			// A long object key: the scanner leaves the line to the whole parse.
			f.other({ message: { role: "user", content: "hi", [longText(100_000)]: 1 }, pad: longText(HUGE_LINE_BYTES) }),
			f.user("after"),
		]);
		expect(pieces(got.events)).toBe(0);
		expect(got.events).toHaveLength(5);
	});

	it("skips a line longer than maxLineBytes as the whole parse does, and reads on after it", () => {
		const f = lineFactory();
		const maxLineBytes = 1.5 * HUGE_LINE_BYTES;
		const got = sameAsWhole(
			"too-long.jsonl",
			[f.header(), f.toolResult("c1", "bash", longText(2 * HUGE_LINE_BYTES)), f.user("after the long one")],
			{ maxLineBytes },
		);
		expect(got.receipts).toHaveLength(1);
		expect(got.events).toHaveLength(1);
	});

	it("gives the whole parse's rows for a CRLF line end, a malformed long line and a v1 file", () => {
		// Bulk passes read 256 KiB chunks: a line is read in parts once HUGE_LINE_BYTES of it are held without its end.
		const o = { chunkBytes: 256 << 10 };
		const size = 1.5 * HUGE_LINE_BYTES;
		const f = lineFactory();
		const long = f.toolResult("c1", "bash", longText(size));
		const crlf = sameAsWhole(
			"crlf.jsonl",
			[f.header(), f.user("first"), `${long.slice(0, -1)}\r\n`, f.user("next")],
			o,
		);
		expect(pieces(crlf.events)).toBeGreaterThan(0);
		const g = lineFactory();
		const malformed = `${g.toolResult("c", "bash", longText(size)).slice(0, -2)},,}\n`;
		const bad = sameAsWhole("malformed.jsonl", [g.header(), g.user("first"), malformed, g.user("x")], o);
		expect(bad.receipts).toHaveLength(1);
		const v1Header = `${JSON.stringify({ type: "session", id: "v1s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" })}\n`;
		const message = {
			role: "toolResult",
			toolCallId: "c",
			toolName: "bash",
			content: [{ type: "text", text: longText(size) }],
		};
		const v1Line = `${JSON.stringify({ type: "message", timestamp: "2025-01-01T00:00:01.000Z", message })}\n`;
		const v1 = sameAsWhole("v1.jsonl", [v1Header, v1Line, v1Line], o);
		expect(pieces(v1.events)).toBeGreaterThan(0);
	});

	it("leaves a long line still being written for later, then reads it as the whole parse does once it ends", () => {
		const f = lineFactory();
		const path = join(dir, "unfinished.jsonl");
		const line = f.toolResult("c1", "bash", longText(1.5 * HUGE_LINE_BYTES));
		const head = f.header() + f.user("first");
		writeFileSync(path, head + line.slice(0, HUGE_LINE_BYTES + 1000));
		const first = readFile(path, initialParseState());
		expect(first.events).toHaveLength(1);
		expect(first.state.byteOffset).toBe(Buffer.byteLength(head));
		expect(first.pending.length).toBe(Buffer.byteLength(line.slice(0, HUGE_LINE_BYTES + 1000)));
		const then = f.user("then");
		appendFileSync(path, line.slice(HUGE_LINE_BYTES + 1000) + then);
		const second = readFile(path, first.state);
		const want = wholeParse(head + line + then);
		expect(second.made).toEqual(rows(want.events).slice(1));
		expect(second.state).toEqual(want.state);
		expect(pieces(second.events)).toBeGreaterThan(0);
	});

	it("holds no copy of the line while its event waits to be written (regression: piece heads kept their windows)", () => {
		const f = lineFactory();
		const path = join(dir, "memory.jsonl");
		writeFileSync(path, f.header() + f.toolResult("c1", "bash", longText(6 * HUGE_LINE_BYTES)));
		const retained = retainedBy(() => {
			const held = readFile(path, initialParseState(), {}, false);
			expect(pieces(held.events)).toBeGreaterThan(70);
			return held;
		});
		// The line is 6 MiB of UTF-8 and about twice that as a JS string; its event keeps only heads (about 2 KiB a
		// piece). With the heads sliced from the text being cut, it kept about 13 MiB.
		expect(retained).toBeLessThan(2 * HUGE_LINE_BYTES);
	});
});
