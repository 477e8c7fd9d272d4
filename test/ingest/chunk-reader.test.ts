/**
 * nextParseBuffer: a line longer than the read chunk is joined once, when it ends, not once per chunk (joining per
 * chunk copied and rescanned a 6 MiB line ~390 times with the 16 KiB chunks of a contended bulk pass: 1.1–1.5 s
 * under the write lock). Real files.
 */
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chunkReader, HUGE_LINE_BYTES, nextParseBuffer } from "../../src/ingest/chunk-reader.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { pagedBytes } from "../../src/runtime.js";
import { lineFactory } from "../helpers/session-lines.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

async function store(): Promise<TempStore> {
	const s = await tempStore();
	cleanups.push(() => s.cleanup());
	return s;
}

/** Reads `text` from a real file in `chunk`-byte reads, as nextParseBuffer calls return them. */
async function buffers(text: string, chunk: number, maxBytes: number): Promise<string[]> {
	const { dir } = await store();
	const path = join(dir, "f.txt");
	writeFileSync(path, text);
	const fd = openSync(path, "r");
	try {
		const reader = chunkReader(fd, 0, Buffer.byteLength(text), chunk);
		const out: string[] = [];
		let pending: Uint8Array = new Uint8Array(0);
		for (
			let next = nextParseBuffer(reader, pending, maxBytes);
			next;
			next = nextParseBuffer(reader, pending, maxBytes)
		) {
			const s = Buffer.from(next).toString();
			out.push(s);
			// What a parse would leave: the bytes after the last line feed.
			const end = next.lastIndexOf(0x0a) + 1;
			pending = next.subarray(end);
		}
		return out;
	} finally {
		closeSync(fd);
	}
}

describe("nextParseBuffer", () => {
	it("joins a long line's chunks once, when a chunk ends it", async () => {
		const long = `${"x".repeat(100)}\n`;
		expect(await buffers(`ab\n${long}cd\n`, 16, 1_000)).toEqual([`ab\n${long.slice(0, 13)}`, `${long}cd\n`]);
	});

	it("stops at maxBytes for a line longer than that (the parser skips it), and at the end of the range", async () => {
		const text = `${"y".repeat(50)}`;
		// This harness keeps the unfinished bytes; the real parser consumes an oversized line instead.
		expect(await buffers(text, 16, 32)).toEqual([text.slice(0, 32), text.slice(0, 48), text]);
	});

	it("returns null when no byte is left", async () => {
		expect(await buffers("", 16, 32)).toEqual([]);
	});
});

describe("a line much longer than the read chunk", () => {
	it("is indexed the same with 16 KiB reads as with one read", async () => {
		const rows = async (chunkBytes: number) => {
			const { db, dir } = await store();
			const path = join(dir, "s.jsonl");
			const lines = lineFactory({ sessionId: "fixed" });
			const words = Array.from({ length: 60_000 }, (_, k) => `word${k % 977}`).join(" ");
			writeFileSync(path, lines.header() + lines.user("before") + lines.assistant(words) + lines.user("after"));
			const r = await new SourceSyncer(db).sync(path, { batchBytes: chunkBytes, chunkBytes });
			expect(r.status).toBe("indexed");
			return db
				.prepare("SELECT entry_id, byte_start, byte_end, hex(line_hash) AS h FROM events ORDER BY seq")
				.all() as unknown[];
		};
		const small = await rows(16 << 10);
		expect(small).toHaveLength(3);
		expect(small).toEqual(await rows(8 << 20));
	});
});

describe("a batch that a waiting writer ends early", () => {
	it("ends after the chunk that completed a line, and the next batches index the rest exactly once", async () => {
		const index = async (endBatchEarly?: () => boolean) => {
			const { db, dir } = await store();
			const path = join(dir, "s.jsonl");
			const lines = lineFactory({ sessionId: "fixed" });
			const turns = Array.from({ length: 40 }, (_, k) => lines.user(`turn ${k} ${"filler ".repeat(300)}`));
			writeFileSync(path, lines.header() + turns.join(""));
			let batches = 1;
			const between = async () => {
				batches++;
			};
			const r = await new SourceSyncer(db).sync(path, {
				batchBytes: 1 << 20,
				chunkBytes: 8 << 10,
				between,
				endBatchEarly,
			});
			expect(r.status).toBe("indexed");
			const rows = db.prepare("SELECT entry_id, byte_start, hex(line_hash) AS h FROM events ORDER BY seq").all();
			return { batches, rows };
		};
		const whole = await index();
		expect(whole.batches).toBe(1);
		// The file is about 90 KiB: one 1 MiB batch, or one batch per 8 KiB chunk when a writer is always waiting.
		const early = await index(() => true);
		expect(early.batches).toBeGreaterThanOrEqual(10);
		expect(early.rows).toHaveLength(40);
		expect(early.rows).toEqual(whole.rows);
	});
});

describe("a multi-MB line's joined bytes (regression: a freed multi-MB join raised glibc's mmap threshold)", () => {
	it("are the line's bytes, in engine-mapped pages rather than a malloc block", async () => {
		const line = `${"é".repeat(HUGE_LINE_BYTES)}\n`;
		const size = Buffer.byteLength(line);
		const { dir } = await store();
		const path = join(dir, "long.jsonl");
		writeFileSync(path, line);
		const fd = openSync(path, "r");
		try {
			const joined = nextParseBuffer(chunkReader(fd, 0, size, 1 << 16), new Uint8Array(0), 8 * HUGE_LINE_BYTES);
			expect(Buffer.from(joined ?? []).toString()).toBe(line);
			// A WebAssembly.Memory's buffer is whole 64 KiB pages; a plain array's is exactly the line.
			expect(joined?.buffer.byteLength).toBe(Math.ceil(size / 65_536) * 65_536);
		} finally {
			closeSync(fd);
		}
		const short = await buffers(`${"x".repeat(1000)}\n`, 100, 8 * HUGE_LINE_BYTES);
		expect(short).toEqual([`${"x".repeat(1000)}\n`]);
		expect(pagedBytes(10).buffer.byteLength).toBe(65_536);
	});
});
