/**
 * `verify` reads a session file chunk by chunk (verify-read.ts): lines across chunk boundaries, a line longer than a
 * chunk (which the sync reads in parts, and verify whole), a branch whose states only the whole file decides. A file
 * of several chunks verifies clean, and a same-size edit deep inside it is found on exactly its line.
 */
import { openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_BYTES } from "../../src/ingest/chunk-reader.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { lineFactory } from "../helpers/session-lines.js";
import { storeWithSession, type TempStore } from "../helpers/temp-store.js";

let store: TempStore;
let file: string;
const roots = () => [{ path: join(store.dir, "sessions"), subfolders: false }];

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	const lines = [f.header(), f.user("start")];
	for (let i = 0; i < 300; i++) lines.push(f.toolResult(`c${i}`, "bash", `output ${i} `.repeat(700 + (i % 7) * 13)));
	const fork = f.leafId;
	lines.push(f.toolResult("huge", "read", "a long file ".repeat(150_000)));
	for (let i = 0; i < 100; i++) lines.push(f.assistant(`after the long line ${i} `.repeat(300)));
	f.branchFrom(fork);
	lines.push(f.user("a branch from before the long line"));
	store = await storeWithSession(lines);
	file = join(store.dir, "sessions", "s.jsonl");
});
afterAll(() => store.cleanup());

describe("verify in chunks", () => {
	it("finds no difference in a file of several chunks, and a same-size edit deep inside it on its line only", () => {
		const bytes = readFileSync(file);
		expect(bytes.length).toBeGreaterThan(4 * CHUNK_BYTES);
		expect(verifyIndex(store.db, roots()).differences).toEqual([]);

		// One character of a line in the fourth chunk, same size.
		const at = bytes.indexOf("after the long line 42 ", 3 * CHUNK_BYTES);
		expect(at).toBeGreaterThan(3 * CHUNK_BYTES);
		const fd = openSync(file, "r+");
		writeSync(fd, "b", at);
		const found = verifyIndex(store.db, roots()).differences;
		writeSync(fd, "a", at);
		expect(found.map((d) => d.kind).sort()).toEqual(["content-differs", "fragments-differ"]);
		const lineNo = bytes.subarray(0, at).filter((b) => b === 10).length + 1;
		expect(found.find((d) => d.kind === "content-differs")?.detail).toMatch(new RegExp(`^line ${lineNo} `));
		expect(verifyIndex(store.db, roots()).differences).toEqual([]);
	});
});
