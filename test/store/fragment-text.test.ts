/**
 * Stored fragment text (src/store/fragment-text.ts): what goes into `fragments.text` (the text, or the head of a long
 * one) comes back unchanged through a real SQLite file, packed alone or against a dictionary, short and
 * incompressible texts stay TEXT, and reads,
 * windows, snippets and prefixes give what the whole text gives, at code-point offsets across multi-byte characters,
 * the part past the stored head read from the session file.
 */

import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { renderToolCall } from "../../src/project/render-arguments.js";
import { PIECE_UNITS, textPieces } from "../../src/project/text-pieces.js";
import type { CallerContext } from "../../src/query/caller.js";
import { readEvent } from "../../src/query/read.js";
import { searchEvents } from "../../src/query/search.js";
import { traceEvent } from "../../src/query/trace.js";
import { codeSql, decodedSql } from "../../src/store/column-codes.js";
import { isStoreDamage } from "../../src/store/db.js";
import type { SqliteDb } from "../../src/store/driver.js";
import {
	decodeFragmentPrefix,
	decodeFragmentText,
	encodeFragmentText,
	MIN_PACK_BYTES,
	type StoredFragmentText,
} from "../../src/store/fragment-text.js";
import { createGeneration } from "../../src/store/generations.js";
import { type PreparedDictionary, prepareDictionary } from "../../src/store/lz-dict.js";
import { trainTextDictionary } from "../../src/store/text-dictionary.js";
import { sliceCodePoints } from "../../src/text/code-points.js";
import { STORED_HEAD_CHARS, storedPart } from "../../src/text/stored-head.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "./temp-store.js";

const BRANCH_OF = `SELECT ${decodedSql("branchState", "branch_state")} AS b FROM events WHERE entry_id = ?`;

const LOG_LINE = "2026-01-01T00:00:00Z INFO worker[3] processed batch 42 in 17 ms (queue depth 3)\n";
/** CJK, emoji (surrogate pairs), accents and ASCII, repeated into a long compressible text. */
const MIXED = "我们中文很好 日本語のテキスト 한국어 😀🎉 café naïve ÅÄÖ line\n";

const TEXTS: Record<string, string> = {
	empty: "",
	short: "hello",
	justBelow: "x".repeat(MIN_PACK_BYTES - 1),
	atThreshold: "y".repeat(MIN_PACK_BYTES),
	// 200 three-byte characters: 200 UTF-16 units, 600 UTF-8 bytes (over the threshold in bytes, not in units).
	cjkBytesOverThreshold: "中".repeat(200),
	log: LOG_LINE.repeat(2_000),
	mixed: MIXED.repeat(3_000),
	// Random base64 shrinks only to ~0.75 of its bytes: stored compressed or raw, it must come back the same.
	random: randomBytes(6_000).toString("base64"),
	huge: `${LOG_LINE.repeat(40_000)}${MIXED.repeat(40_000)}`,
};

let dir: { dir: string; cleanup: () => void };
let db: SqliteDb;

beforeAll(async () => {
	dir = tempDir("pei-fragment-text-");
	db = (await createGeneration(dir.dir)).db;
	db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
});

afterAll(() => {
	db.close();
	dir.cleanup();
});

/** Packed alone (a generation without a dictionary) and against a dictionary sampled from texts like these. */
const DICTIONARY = trainTextDictionary([LOG_LINE, MIXED, "x".repeat(100)]);
const MODES: Array<[string, PreparedDictionary | undefined]> = [
	["alone", undefined],
	["with a dictionary", prepareDictionary(DICTIONARY)],
];
const lookup = { get: () => DICTIONARY };

function roundTrip(
	text: string,
	dictionary?: PreparedDictionary,
): { stored: StoredFragmentText; storageClass: string } {
	const r = db.prepare("INSERT INTO t (text) VALUES (?)").run(encodeFragmentText(text, dictionary));
	return db
		.prepare("SELECT text AS stored, typeof(text) AS storageClass FROM t WHERE id = ?")
		.get(r.lastInsertRowid) as {
		stored: StoredFragmentText;
		storageClass: string;
	};
}

describe.each(MODES)("fragment text storage, packed %s", (_mode, dictionary) => {
	it.each(Object.keys(TEXTS))("round-trips %s through a real SQLite file (its first STORED_HEAD_CHARS)", (name) => {
		const text = TEXTS[name] as string;
		const { stored } = roundTrip(text, dictionary);
		const head = sliceCodePoints(text, 0, STORED_HEAD_CHARS);
		expect(storedPart(text)).toBe(head);
		expect(decodeFragmentText(stored, lookup)).toBe(head);
	});

	it("keeps short texts as TEXT and packs long ones to less than half", () => {
		for (const name of ["empty", "short", "justBelow"]) {
			expect(roundTrip(TEXTS[name] as string, dictionary).storageClass, name).toBe("text");
		}
		for (const name of ["atThreshold", "cjkBytesOverThreshold", "log", "mixed", "huge"]) {
			const text = TEXTS[name] as string;
			const { stored, storageClass } = roundTrip(text, dictionary);
			expect(storageClass, name).toBe("blob");
			expect(stored.length, name).toBeLessThan(Buffer.byteLength(storedPart(text)) / 2);
		}
	});

	it("gives the same prefix as SQL substr over the raw text, at code-point counts across packing", () => {
		for (const name of ["short", "log", "mixed", "huge", "random"]) {
			const text = TEXTS[name] as string;
			const { stored } = roundTrip(text, dictionary);
			const length = Array.from(text).length;
			for (const n of [0, 1, 7, 61, 1_000, 32_000, length - 1, length, length + 5]) {
				if (n < 0) continue;
				const sql = db.prepare("SELECT substr(?, 1, min(?, ?)) AS s").get(text, n, STORED_HEAD_CHARS) as { s: string };
				expect(decodeFragmentPrefix(stored, n, lookup), `${name} ${n}`).toBe(sql.s);
			}
		}
	});
});

describe("a packed text the index cannot unpack", () => {
	it("is store damage with a plain reason, never a wrong text", () => {
		const packed = encodeFragmentText(TEXTS.log as string, MODES[1]?.[1]) as Uint8Array;
		expect(() => decodeFragmentText(packed, { get: () => undefined })).toThrow(
			"packed text: packed against a dictionary the index does not have",
		);
		const unknown = Uint8Array.from(packed);
		unknown[0] = 7;
		expect(() => decodeFragmentText(unknown, lookup)).toThrow("packed text: unknown packing 7");
		const cut = packed.subarray(0, packed.length - 3);
		let error: unknown;
		try {
			decodeFragmentText(cut, lookup);
		} catch (err) {
			error = err;
		}
		expect(isStoreDamage(error)).toBe(true);
	});
});

describe("reads and search over compressed fragment text", () => {
	const session = tempDir("pei-fragment-read-");
	const cwd = "/home/dev/project";
	const lines = lineFactory({ cwd });
	// Just under one piece (text-pieces.ts): one fragment, almost all of it past the stored head.
	const huge = `${MIXED.repeat(640)}zebraneedle ${MIXED.repeat(640)}`;
	const file = join(session.dir, "s.jsonl");
	let resultId = "";
	let sessionId = "";
	const caller: CallerContext = {
		cwd,
		authorization: { extraRoots: [], allRoots: true },
		budgets: DEFAULT_BUDGETS,
	};

	beforeAll(async () => {
		const header = lines.header();
		sessionId = (JSON.parse(header) as { id: string }).id;
		const body = [lines.user("show the big output"), lines.assistant("running it")];
		resultId = lines.nextId;
		body.push(lines.toolResult("call-1", "bash", huge));
		writeFileSync(file, header + body.join(""));
		const r = await new SourceSyncer(db).sync(file);
		expect(r.status).toBe("indexed");
	});

	afterAll(() => session.cleanup());

	it("stores the tool output compressed", () => {
		const row = db
			.prepare(
				`SELECT typeof(text) AS c, length(text) AS n FROM fragments WHERE kind = ${codeSql("kind", "tool_result")}`,
			)
			.get() as {
			c: string;
			n: number;
		};
		expect(row.c).toBe("blob");
		// Its head only: the rest is read from the session file.
		expect(row.n).toBeLessThan(Buffer.byteLength(sliceCodePoints(huge, 0, STORED_HEAD_CHARS)));
	});

	it("windows at code-point offsets give exactly the raw text's code points", () => {
		expect(huge.length).toBeLessThanOrEqual(PIECE_UNITS);
		const total = Array.from(huge).length;
		const windowChars = DEFAULT_BUDGETS.windowChars;
		for (const offset of [0, 1, 13, 12_345, Math.floor(total / 2) - 3, total - windowChars, total - 1]) {
			const r = readEvent(db, { sessionId, entryId: resultId, matchingFragmentId: `${resultId}#0`, offset }, caller);
			const w = r.window;
			expect(w?.totalChars).toBe(total);
			expect(w?.range.end).toBe(Math.min(total, (w?.range.start ?? 0) + windowChars));
			expect(w?.text, `offset ${offset}`).toBe(sliceCodePoints(huge, w?.range.start ?? -1, w?.range.end));
		}
	});

	it("previews show the raw head and tail, and search snippets quote the match", () => {
		const r = readEvent(db, { sessionId, entryId: resultId }, caller);
		const preview = r.fragments[0]?.text;
		expect(preview?.totalChars).toBe(Array.from(huge).length);
		expect(preview?.text.startsWith(sliceCodePoints(huge, 0, 500))).toBe(true);
		expect(preview?.text.endsWith(sliceCodePoints(huge, Array.from(huge).length - 500))).toBe(true);

		const found = searchEvents(db, { query: "zebraneedle" }, caller);
		expect(found.hits.map((h) => h.entryId)).toEqual([resultId]);
		expect(found.hits[0]?.snippet).toContain("zebraneedle");
	});
});

describe("the rest of a long fragment comes from its session file", () => {
	const session = tempDir("pei-fragment-rest-");
	const cwd = "/home/dev/project";
	const caller: CallerContext = { cwd, authorization: { extraRoots: [], allRoots: true }, budgets: DEFAULT_BUDGETS };
	const long = (word: string) => `${MIXED.repeat(100)}${word} ${LOG_LINE.repeat(100)}`;

	afterAll(() => session.cleanup());

	/** A session whose tool output holds `word` past the stored head; returns the ids to read it by. */
	async function indexed(name: string, word: string) {
		const lines = lineFactory({ cwd, prefix: name });
		const header = lines.header();
		const userId = lines.nextId;
		const body = [lines.user("show the big output"), lines.assistant("running it")];
		const resultId = lines.nextId;
		body.push(lines.toolResult("call-1", "bash", long(word)));
		const file = join(session.dir, `${name}.jsonl`);
		writeFileSync(file, header + body.join(""));
		expect((await new SourceSyncer(db).sync(file)).status).toBe("indexed");
		const sessionId = (JSON.parse(header) as { id: string }).id;
		return { lines, file, sessionId, userId, resultId };
	}

	it("keeps a word past the head searchable when a branch retags the fragment (regression: retag from the head)", async () => {
		const s = await indexed("retag", "quokkaword");
		const before = db.prepare(BRANCH_OF).get(s.resultId) as {
			b: string;
		};
		expect(before.b).toBe("selected");
		// A /tree branch from the first user turn: the tool output is now on an alternate branch, its FTS row rewritten.
		s.lines.branchFrom(s.userId);
		writeFileSync(s.file, s.lines.assistant("another way"), { flag: "a" });
		expect((await new SourceSyncer(db).sync(s.file)).status).toBe("indexed");
		const after = db.prepare(BRANCH_OF).get(s.resultId) as {
			b: string;
		};
		expect(after.b).toBe("alternate");
		for (const branchStates of [undefined, ["alternate" as const]]) {
			const found = searchEvents(db, { query: "quokkaword", ...(branchStates ? { branchStates } : {}) }, caller);
			expect(found.hits.map((h) => h.entryId)).toEqual([s.resultId]);
			expect(found.hits[0]?.snippet).toContain("quokkaword");
		}
	});

	it("refuses a window of a fragment whose file changed since, and still answers previews and search from the head", async () => {
		const s = await indexed("changed", "wombatword");
		const target = { sessionId: s.sessionId, entryId: s.resultId, matchingFragmentId: `${s.resultId}#0` };
		expect(readEvent(db, target, caller).window?.totalChars).toBe(Array.from(long("wombatword")).length);
		// Same length, one byte different: the line hash no longer matches, so the bytes are not used.
		const bytes = readFileSync(s.file);
		const at = bytes.indexOf("wombatword");
		bytes[at] = "W".charCodeAt(0);
		writeFileSync(s.file, bytes);
		expect(() => readEvent(db, target, caller)).toThrow(
			`can no longer be read whole: the index keeps its first ${STORED_HEAD_CHARS}`,
		);
		const preview = readEvent(db, { sessionId: s.sessionId, entryId: s.resultId }, caller).fragments[0]?.text;
		expect(preview?.text.startsWith(sliceCodePoints(long(""), 0, 200))).toBe(true);
		const found = searchEvents(db, { query: "wombatword" }, caller);
		expect(found.hits.map((h) => h.entryId)).toEqual([s.resultId]);
		expect(found.hits[0]?.snippet.startsWith(sliceCodePoints(MIXED, 0, 10))).toBe(true);
	});
});

describe("a text longer than a piece is several fragments, each read and found whole", () => {
	const session = tempDir("pei-fragment-pieces-");
	const cwd = "/home/dev/project";
	const caller: CallerContext = { cwd, authorization: { extraRoots: [], allRoots: true }, budgets: DEFAULT_BUDGETS };
	// Three pieces and a bit: the marker word sits in the last one, far past any piece's stored head.
	const text = `${MIXED.repeat(3 * 1500)}platypusword ${LOG_LINE.repeat(10)}`;
	const args = { path: "big.txt", content: text };

	afterAll(() => session.cleanup());

	it("reads back each piece whole, finds a word of the last one and traces the long call once", async () => {
		const lines = lineFactory({ cwd, prefix: "pieces" });
		const header = lines.header();
		const body = [lines.user("show the big output")];
		const callId = lines.nextId;
		const call = { type: "toolCall", id: "call-big", name: "write", arguments: args };
		body.push(lines.other({ message: { role: "assistant", content: [call], stopReason: "toolUse", timestamp: 1 } }));
		const resultId = lines.nextId;
		body.push(lines.toolResult("call-big", "write", text));
		const file = join(session.dir, "pieces.jsonl");
		writeFileSync(file, header + body.join(""));
		expect((await new SourceSyncer(db).sync(file)).status).toBe("indexed");
		const sessionId = (JSON.parse(header) as { id: string }).id;

		const pieces = textPieces(text);
		expect(pieces.length).toBe(4);
		const read = readEvent(db, { sessionId, entryId: resultId }, caller);
		expect(read.fragments.map((f) => f.fragmentId)).toEqual(pieces.map((_, i) => `${resultId}#${i}`));
		const whole = pieces.map((piece, ord) => {
			const total = Array.from(piece).length;
			const first = readEvent(db, { sessionId, entryId: resultId, matchingFragmentId: `${resultId}#${ord}` }, caller);
			expect(first.window?.totalChars).toBe(total);
			return windowsOf(sessionId, resultId, ord, total);
		});
		expect(whole.join("")).toBe(text);

		const callPiece = textPieces(renderToolCall("write", args)).findIndex((p) => p.includes("platypusword"));
		const found = searchEvents(db, { query: "platypusword" }, caller);
		expect(found.hits.map((h) => h.matchingFragmentId).sort()).toEqual(
			[`${callId}#${callPiece}`, `${resultId}#3`].sort(),
		);
		const related = traceEvent(db, { sessionId, entryId: callId }, caller).related;
		expect(related.filter((e) => e.kind === "tool-result").map((e) => e.node?.entryId)).toEqual([resultId]);
	});

	/** The whole text of one fragment, window by window. */
	function windowsOf(sessionId: string, entryId: string, ord: number, total: number): string {
		let out = "";
		for (let offset = 0; offset < total; ) {
			const target = { sessionId, entryId, matchingFragmentId: `${entryId}#${ord}`, offset };
			const w = readEvent(db, target, caller).window;
			// A window near the end starts earlier, so that it is still full.
			if (!w || w.range.start > offset || w.range.end <= offset) throw new Error(`no window at ${offset}`);
			out += sliceCodePoints(w.text, offset - w.range.start);
			offset = w.range.end;
		}
		return out;
	}
});
