/**
 * Compressed fragment text (src/store/fragment-text.ts): what goes into `fragments.text` comes back unchanged
 * through a real SQLite file, short and incompressible texts stay TEXT, and reads, windows, snippets and prefixes
 * over compressed text give what the raw text gives, at code-point offsets across multi-byte characters.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initFingerprints } from "../../src/ingest/fingerprint.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { DEFAULT_BUDGETS } from "../../src/query/budgets.js";
import type { CallerContext } from "../../src/query/caller.js";
import { readEvent } from "../../src/query/read.js";
import { searchEvents } from "../../src/query/search.js";
import type { SqliteDb } from "../../src/store/db.js";
import {
	decodeFragmentPrefix,
	decodeFragmentText,
	encodeFragmentText,
	MIN_COMPRESS_BYTES,
	type StoredFragmentText,
} from "../../src/store/fragment-text.js";
import { createGeneration } from "../../src/store/generations.js";
import { sliceCodePoints } from "../../src/text/code-points.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "./temp-store.js";

const LOG_LINE = "2026-01-01T00:00:00Z INFO worker[3] processed batch 42 in 17 ms (queue depth 3)\n";
/** CJK, emoji (surrogate pairs), accents and ASCII, repeated into a long compressible text. */
const MIXED = "我们中文很好 日本語のテキスト 한국어 😀🎉 café naïve ÅÄÖ line\n";

const TEXTS: Record<string, string> = {
	empty: "",
	short: "hello",
	justBelow: "x".repeat(MIN_COMPRESS_BYTES - 1),
	atThreshold: "y".repeat(MIN_COMPRESS_BYTES),
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

function roundTrip(text: string): { stored: StoredFragmentText; storageClass: string } {
	const r = db.prepare("INSERT INTO t (text) VALUES (?)").run(encodeFragmentText(text));
	return db
		.prepare("SELECT text AS stored, typeof(text) AS storageClass FROM t WHERE id = ?")
		.get(r.lastInsertRowid) as {
		stored: StoredFragmentText;
		storageClass: string;
	};
}

describe("fragment text storage", () => {
	it.each(Object.keys(TEXTS))("round-trips %s through a real SQLite file", (name) => {
		const text = TEXTS[name] as string;
		const { stored } = roundTrip(text);
		expect(decodeFragmentText(stored)).toBe(text);
	});

	it("keeps short texts as TEXT and compresses long ones to less than half", () => {
		for (const name of ["empty", "short", "justBelow"]) {
			expect(roundTrip(TEXTS[name] as string).storageClass, name).toBe("text");
		}
		for (const name of ["atThreshold", "cjkBytesOverThreshold", "log", "mixed", "huge"]) {
			const text = TEXTS[name] as string;
			const { stored, storageClass } = roundTrip(text);
			expect(storageClass, name).toBe("blob");
			expect(stored.length, name).toBeLessThan(Buffer.byteLength(text) / 2);
		}
	});

	it("gives the same prefix as SQL substr over the raw text, at code-point counts across compression", () => {
		for (const name of ["short", "log", "mixed", "huge", "random"]) {
			const text = TEXTS[name] as string;
			const { stored } = roundTrip(text);
			const length = Array.from(text).length;
			for (const n of [0, 1, 7, 61, 1_000, 32_000, length - 1, length, length + 5]) {
				if (n < 0) continue;
				const sql = db.prepare("SELECT substr(?, 1, ?) AS s").get(text, n) as { s: string };
				expect(decodeFragmentPrefix(stored, n), `${name} ${n}`).toBe(sql.s);
			}
		}
	});
});

describe("reads and search over compressed fragment text", () => {
	const session = tempDir("pei-fragment-read-");
	const cwd = "/home/dev/project";
	const lines = lineFactory({ cwd });
	const huge = `${MIXED.repeat(20_000)}zebraneedle ${MIXED.repeat(20_000)}`;
	const file = join(session.dir, "s.jsonl");
	let resultId = "";
	let sessionId = "";
	const caller: CallerContext = {
		cwd,
		authorization: { extraRoots: [], allRoots: true },
		budgets: DEFAULT_BUDGETS,
	};

	beforeAll(async () => {
		await initFingerprints();
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
			.prepare("SELECT typeof(text) AS c, length(text) AS n FROM fragments WHERE kind = 'tool_result'")
			.get() as {
			c: string;
			n: number;
		};
		expect(row.c).toBe("blob");
		expect(row.n).toBeLessThan(Buffer.byteLength(huge) / 10);
	});

	it("windows at code-point offsets give exactly the raw text's code points", () => {
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
