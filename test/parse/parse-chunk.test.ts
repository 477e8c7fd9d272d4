import { describe, expect, it, vi } from "vitest";
import { initialParseState, parseChunk } from "../../src/parse/parse-chunk.js";
import { SKIP_REASONS } from "../../src/parse/skip-reasons.js";
import type { ParsedEntry } from "../../src/parse/types.js";
import {
	entry,
	fixtureBytes,
	jsonl,
	listFixtures,
	parseAtCuts,
	parseWhole,
	prng,
	V1_HEADER,
	V3_HEADER,
} from "./helpers.js";

/** Per fixture: entries, receipts, lines, session version (counted independently from the files). */
const FIXTURES: Record<string, { entries: number; receipts: number; lines: number; version: number }> = {
	"pi-0.73.1/cli-continued-c.jsonl": { entries: 10, receipts: 0, lines: 11, version: 3 },
	"pi-0.73.1/cli-fork-copy.jsonl": { entries: 14, receipts: 0, lines: 15, version: 3 },
	"pi-0.73.1/cli-print-tool-call.jsonl": { entries: 6, receipts: 0, lines: 7, version: 3 },
	"pi-0.73.1/createBranchedSession-fork.jsonl": { entries: 5, receipts: 0, lines: 6, version: 3 },
	"pi-0.73.1/duplicate-header-bug.jsonl": { entries: 6, receipts: 1, lines: 8, version: 3 },
	"pi-0.73.1/forkFrom-copy.jsonl": { entries: 18, receipts: 0, lines: 19, version: 3 },
	"pi-0.73.1/rich-tree-compaction.jsonl": { entries: 18, receipts: 0, lines: 19, version: 3 },
	"pi-0.73.1/v1-after-migration.jsonl": { entries: 4, receipts: 0, lines: 5, version: 3 },
	"pi-0.73.1/v1-before-migration.jsonl": { entries: 4, receipts: 0, lines: 5, version: 1 },
	"pi-1.6/sdk-fork-copy.jsonl": { entries: 17, receipts: 0, lines: 18, version: 3 },
	"pi-1.6/sdk-retry-tree-compact.jsonl": { entries: 19, receipts: 0, lines: 20, version: 3 },
	"pi-mono-v1/before-compaction.jsonl": { entries: 1002, receipts: 0, lines: 1003, version: 1 },
	"pi-mono-v1/large-session.jsonl": { entries: 1018, receipts: 0, lines: 1019, version: 1 },
};

const decode = (b: Uint8Array) => Buffer.from(b).toString("utf8");

describe("parseChunk over every fixture", () => {
	it("covers every file in fixtures/", () => {
		expect(listFixtures()).toEqual(Object.keys(FIXTURES).sort());
	});

	for (const [name, want] of Object.entries(FIXTURES)) {
		it(`${name}: counts, positions and raw lines`, () => {
			const bytes = fixtureBytes(name);
			const r = parseWhole(bytes);
			expect(r.entries).toHaveLength(want.entries);
			expect(r.receipts).toHaveLength(want.receipts);
			expect(r.header?.version).toBe(want.version);
			expect(r.state.lineCount).toBe(want.lines);
			expect(r.state.byteOffset).toBe(bytes.length);
			expect(r.state.entryCount).toBe(want.entries);
			r.entries.forEach((e, i) => {
				expect(e.seq).toBe(i);
				// The byte range is exactly the entry's line, "\n" included.
				const line = bytes.subarray(e.byteStart, e.byteEnd);
				expect(line[line.length - 1]).toBe(0x0a);
				expect(line.subarray(0, -1).includes(0x0a)).toBe(false);
				const parsed = JSON.parse(decode(line));
				expect(parsed.type).toBe(e.type);
				expect(parsed.timestamp).toBe(e.timestamp);
				if (want.version >= 2) {
					expect(e.id).toBe(parsed.id);
					expect(e.parentId).toBe(parsed.parentId);
				}
			});
			// Lines are contiguous: every byte belongs to the header, an entry or a receipt.
			const ranges = [...r.entries, ...r.receipts].map((x) => [x.byteStart, x.byteEnd]).sort((a, b) => a[0] - b[0]);
			const headerEnd = bytes.indexOf(0x0a) + 1;
			expect(ranges[0][0]).toBe(headerEnd);
			for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBe(ranges[i - 1][1]);
			expect(ranges[ranges.length - 1][1]).toBe(bytes.length);
		});
	}

	it("duplicate-header-bug: exactly one receipt, for line 2", () => {
		const bytes = fixtureBytes("pi-0.73.1/duplicate-header-bug.jsonl");
		const r = parseWhole(bytes);
		const l1 = bytes.indexOf(0x0a) + 1;
		const l2 = bytes.indexOf(0x0a, l1) + 1;
		expect(r.receipts).toEqual([{ lineNo: 2, byteStart: l1, byteEnd: l2, reason: SKIP_REASONS.repeatedHeader }]);
		expect(r.header?.id).toBe("01a236be-a878-7015-bab0-df633e64b114");
		expect(r.entries[0].lineNo).toBe(3);
		expect(r.entries[0].parentId).toBeNull();
	});

	it("v1 sessions get Pi's ordinal ids, a linear parent chain, and resolved firstKeptEntryIndex", () => {
		for (const name of ["pi-mono-v1/large-session.jsonl", "pi-mono-v1/before-compaction.jsonl"]) {
			const r = parseWhole(fixtureBytes(name));
			r.entries.forEach((e, i) => {
				expect(e.id).toBe(`v1-${i + 1}`);
				expect(e.parentId).toBe(i === 0 ? null : `v1-${i}`);
			});
		}
		const bc = parseWhole(fixtureBytes("pi-mono-v1/before-compaction.jsonl"));
		const compactions = bc.entries.filter((e) => e.type === "compaction");
		expect(compactions.map((c) => [c.id, c.raw.firstKeptEntryIndex, c.raw.firstKeptEntryId])).toEqual([
			["v1-359", 293, "v1-293"],
			["v1-628", 551, "v1-551"],
		]);
		expect(bc.header?.branchedFrom).toMatch(/d97339c6-6c10-4827-846b-9ff1d9c3dc37\.jsonl$/);
	});

	it("v1 before and after Pi's migration: firstKept resolves to the same (assistant) entry", () => {
		const before = parseWhole(fixtureBytes("pi-0.73.1/v1-before-migration.jsonl"));
		const after = parseWhole(fixtureBytes("pi-0.73.1/v1-after-migration.jsonl"));
		expect(before.header).toMatchObject({ id: "legacy-1", version: 1 });
		expect(after.header).toMatchObject({ id: "legacy-1", version: 3 });
		const target = (r: typeof before) => {
			const id = r.entries.find((e) => e.type === "compaction")?.raw.firstKeptEntryId;
			return r.entries.findIndex((e) => e.id === id);
		};
		expect(before.entries.map((e) => e.id)).toEqual(["v1-1", "v1-2", "v1-3", "v1-4"]);
		expect(target(before)).toBe(1);
		expect(target(after)).toBe(1);
		expect(after.entries.map((e) => e.type)).toEqual(before.entries.map((e) => e.type));
	});

	it("fork copies carry the parent session path and share entry ids with their source", () => {
		const src = parseWhole(fixtureBytes("pi-0.73.1/cli-continued-c.jsonl"));
		const fork = parseWhole(fixtureBytes("pi-0.73.1/cli-fork-copy.jsonl"));
		expect(fork.header?.parentSession).toMatch(/01a236be-4f6e-717a-8a90-a3588f385293\.jsonl$/);
		expect(fork.entries.slice(0, 10).map((e) => e.id)).toEqual(src.entries.map((e) => e.id));
	});
});

describe("incremental parsing equals whole parsing", () => {
	const rand = prng(0xc0ffee);
	for (const name of Object.keys(FIXTURES)) {
		it(`${name}: random split points`, () => {
			const bytes = fixtureBytes(name);
			const whole = parseWhole(bytes);
			const trials: number[][] = [];
			if (bytes.length < 8000) {
				// Every single split point, and one-byte chunks.
				for (let c = 1; c < bytes.length; c++) trials.push([c]);
				trials.push(Array.from({ length: bytes.length }, (_, i) => i));
			}
			// Around every "\n" (just before, at, just after) and inside multi-byte characters.
			const special: number[] = [];
			for (let i = 0; i < bytes.length; i++) {
				if (bytes[i] === 0x0a) special.push(i, i + 1, i + 2);
				else if (bytes[i] >= 0x80 && bytes[i] < 0xc0) special.push(i);
			}
			for (let t = 0; t < 8; t++) {
				const k = 1 + Math.floor(rand() * 60);
				trials.push(Array.from({ length: k }, () => Math.floor(rand() * bytes.length)));
				trials.push(Array.from({ length: k }, () => special[Math.floor(rand() * special.length)] ?? 1));
			}
			for (const cuts of trials) {
				const inc = parseAtCuts(bytes, cuts);
				expect(inc.entries.length).toBe(whole.entries.length);
				expect(inc.entries).toEqual(whole.entries);
				expect(inc.receipts).toEqual(whole.receipts);
				expect(inc.header).toEqual(whole.header);
				expect(inc.state.byteOffset).toBe(bytes.length);
			}
		});
	}

	it("a synthetic file with CJK, emoji, invalid UTF-8, CRLF, blanks and bad lines, split at every byte", () => {
		const head = new TextEncoder().encode(`\uFEFF${JSON.stringify(V3_HEADER)}\r\n\r\n`);
		const body = jsonl(
			entry("a1", null, "message", { message: { role: "user", content: "日本語のテキスト 😀" } }),
			"{bad",
			"   ",
			"[1]",
		);
		const invalid = new Uint8Array([
			...new TextEncoder().encode('{"type":"message","id":"b2","parentId":"a1","message":{"role":"user","content":"x'),
			0xe2,
			0x82,
			0xff,
			...new TextEncoder().encode('y"}}\n'),
		]);
		const bytes = new Uint8Array([...head, ...body, ...invalid]);
		const whole = parseWhole(bytes);
		expect(whole.entries.map((e) => e.id)).toEqual(["a1", "b2"]);
		expect(whole.receipts.map((r) => r.reason)).toEqual([SKIP_REASONS.malformedJson, SKIP_REASONS.notAnObject]);
		for (let c = 1; c < bytes.length; c++) {
			const inc = parseAtCuts(bytes, [c, Math.min(bytes.length - 1, c + 3)]);
			expect(inc.entries).toEqual(whole.entries);
			expect(inc.receipts).toEqual(whole.receipts);
		}
		const oneByte = parseAtCuts(
			bytes,
			Array.from({ length: bytes.length }, (_, i) => i),
		);
		expect(oneByte.entries).toEqual(whole.entries);
	});
});

describe("tolerance, line by line", () => {
	it("leaves a trailing partial line for later and picks it up once its newline arrives", () => {
		const full = jsonl(V3_HEADER, entry("a", null), entry("b", "a"));
		const cut = full.length - 5;
		const first = parseChunk(full.subarray(0, cut), initialParseState());
		expect(first.entries.map((e) => e.id)).toEqual(["a"]);
		const bEnd = full.length;
		const bStart = full.lastIndexOf(0x0a, bEnd - 2) + 1;
		expect(first.state.byteOffset).toBe(bStart);
		const second = parseChunk(full.subarray(first.state.byteOffset), first.state);
		expect(second.entries).toMatchObject([{ id: "b", seq: 1, lineNo: 3, byteStart: bStart, byteEnd: bEnd }]);
		// A file that does not end in "\n" keeps its last line pending.
		const noNewline = full.subarray(0, full.length - 1);
		expect(parseWhole(noNewline).entries.map((e) => e.id)).toEqual(["a"]);
	});

	it("does not mutate the state it is given", () => {
		const s = initialParseState();
		const copy = structuredClone(s);
		parseChunk(jsonl(V1_HEADER, { type: "session", id: "again" }, { type: "message" }), s);
		expect(s).toEqual(copy);
	});

	it("skips blank lines silently but counts them", () => {
		const r = parseWhole(jsonl(V3_HEADER, "", "   ", "\t", entry("a", null), "\r", entry("b", "a")));
		expect(r.receipts).toEqual([]);
		expect(r.entries.map((e) => [e.id, e.lineNo])).toEqual([
			["a", 5],
			["b", 7],
		]);
		expect(r.state.lineCount).toBe(7);
	});

	it("strips CRLF and a BOM at offset 0 only", () => {
		const text = `\uFEFF${JSON.stringify(V3_HEADER)}\r\n${JSON.stringify(entry("a", null))}\r\n\uFEFF${JSON.stringify(entry("b", "a"))}\r\n`;
		const bytes = new TextEncoder().encode(text);
		const r = parseWhole(bytes);
		expect(r.header?.id).toBe("sess-1");
		expect(r.entries.map((e) => e.id)).toEqual(["a"]);
		expect(r.entries[0].byteEnd - r.entries[0].byteStart).toBe(JSON.stringify(entry("a", null)).length + 2);
		// Pi's JSON.parse rejects a BOM inside the file too.
		expect(r.receipts).toMatchObject([{ lineNo: 3, reason: SKIP_REASONS.malformedJson }]);
	});

	it("decodes invalid UTF-8 with replacement characters, as Pi's readFileSync does", () => {
		const prefix = new TextEncoder().encode(
			`${JSON.stringify(V3_HEADER)}\n{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"`,
		);
		const suffix = new TextEncoder().encode('end"}}\n');
		const bytes = new Uint8Array([...prefix, 0xc3, 0x28, 0xf0, 0x9f, 0x98, ...suffix]);
		const r = parseWhole(bytes);
		const expected = JSON.parse(Buffer.from(bytes).toString("utf8").split("\n")[1]).message.content;
		expect((r.entries[0].raw.message as { content: string }).content).toBe(expected);
		expect(expected).toContain("\uFFFD");
	});

	it("gives a receipt for malformed JSON, non-objects, missing type and missing id", () => {
		const r = parseWhole(
			jsonl(
				V3_HEADER,
				"{not json",
				"42",
				'"str"',
				"null",
				"[1,2]",
				{ id: "x", parentId: null },
				{ type: 7, id: "y", parentId: null },
				{ type: "message", parentId: null },
				{ type: "message", id: "", parentId: null },
				entry("ok", null),
			),
		);
		expect(r.receipts.map((x) => [x.lineNo, x.reason])).toEqual([
			[2, SKIP_REASONS.malformedJson],
			[3, SKIP_REASONS.notAnObject],
			[4, SKIP_REASONS.notAnObject],
			[5, SKIP_REASONS.notAnObject],
			[6, SKIP_REASONS.notAnObject],
			[7, SKIP_REASONS.missingType],
			[8, SKIP_REASONS.missingType],
			[9, SKIP_REASONS.missingId],
			[10, SKIP_REASONS.missingId],
		]);
		expect(r.entries).toMatchObject([{ id: "ok", seq: 0, lineNo: 11 }]);
	});

	it("keeps unknown entry types, duplicate ids, missing parents and several roots", () => {
		const r = parseWhole(
			jsonl(
				V3_HEADER,
				entry("a", null),
				entry("u", "a", "future_thing", { payload: 1 }),
				entry("a", "u"),
				entry("o", "missing"),
				entry("r2", null),
				entry("e", "", "message"),
				{ type: "message", id: "np", message: { role: "user", content: "x" } },
			),
		);
		expect(r.receipts).toEqual([]);
		expect(r.entries.map((e) => [e.id, e.parentId, e.type])).toEqual([
			["a", null, "message"],
			["u", "a", "future_thing"],
			["a", "u", "message"],
			["o", "missing", "message"],
			["r2", null, "message"],
			["e", null, "message"],
			["np", null, "message"],
		]);
		expect(r.entries[6].timestamp).toBe("");
	});

	it("repeated headers get a receipt each", () => {
		const r = parseWhole(jsonl(V3_HEADER, V3_HEADER, entry("a", null), { ...V3_HEADER, id: "other" }));
		expect(r.receipts.map((x) => [x.lineNo, x.reason])).toEqual([
			[2, SKIP_REASONS.repeatedHeader],
			[4, SKIP_REASONS.repeatedHeader],
		]);
		expect(r.header?.id).toBe("sess-1");
	});

	it("a file whose first JSON value is not a session header yields no entries, one receipt per line", () => {
		const r = parseWhole(jsonl(entry("a", null), "", entry("b", "a"), V3_HEADER, "{bad"));
		expect(r.entries).toEqual([]);
		expect(r.header).toBeUndefined();
		expect(r.state.noHeader).toBe(true);
		expect(r.receipts.map((x) => [x.lineNo, x.reason])).toEqual([
			[1, SKIP_REASONS.noHeader],
			[3, SKIP_REASONS.noHeader],
			[4, SKIP_REASONS.noHeader],
			[5, SKIP_REASONS.noHeader],
		]);
		// A header without a string id is no header either (Pi: `typeof header.id !== "string"`).
		expect(parseWhole(jsonl({ type: "session", id: 5 }, entry("a", null))).state.noHeader).toBe(true);
		expect(parseWhole(jsonl("[]", V3_HEADER)).state.noHeader).toBe(true);
	});

	it("accepts a header after blank or malformed lines, as Pi's first *parsed* entry rule does", () => {
		const r = parseWhole(jsonl("", "{garbage", V3_HEADER, entry("a", null)));
		expect(r.header?.id).toBe("sess-1");
		expect(r.entries.map((e) => e.id)).toEqual(["a"]);
		expect(r.receipts).toMatchObject([{ lineNo: 2, reason: SKIP_REASONS.malformedJson }]);
	});

	it("reads header fields: version absent means 1, parentSession and branchedFrom kept", () => {
		const r = parseWhole(jsonl({ ...V1_HEADER, branchedFrom: "/x.jsonl", provider: "p" }));
		expect(r.header).toEqual({
			id: "legacy",
			version: 1,
			timestamp: V1_HEADER.timestamp,
			cwd: "/w",
			branchedFrom: "/x.jsonl",
		});
		const v2 = parseWhole(jsonl({ ...V3_HEADER, version: 2, parentSession: "../p.jsonl" }));
		expect(v2.header).toMatchObject({ version: 2, parentSession: "../p.jsonl" });
	});

	it("v2 files use their own ids and keep the hookMessage role in raw", () => {
		const r = parseWhole(
			jsonl(
				{ ...V3_HEADER, version: 2 },
				entry("h1", null, "message", {
					message: { role: "hookMessage", customType: "t", content: "c", display: true },
				}),
				{ type: "message", message: { role: "user", content: "no id" } },
			),
		);
		expect(r.entries.map((e) => e.id)).toEqual(["h1"]);
		expect((r.entries[0].raw.message as { role: string }).role).toBe("hookMessage");
		expect(r.receipts).toMatchObject([{ lineNo: 3, reason: SKIP_REASONS.missingId }]);
	});

	it("v1 ordinals follow Pi: every parsed object or array counts, primitives and bad JSON do not", () => {
		const r = parseWhole(
			jsonl(
				V1_HEADER, // ordinal 0
				{ type: "message", message: { role: "user", content: "one" } }, // 1 → v1-1
				"{bad", // not counted
				"17", // not counted (Pi's migration would throw on it)
				"[1]", // 2 (receipt)
				V1_HEADER, // 3 (receipt, repeated header)
				{ message: { role: "user", content: "typeless" } }, // 4 (receipt)
				{ type: "message", message: { role: "user", content: "five" } }, // 5 → v1-5
				{ type: "compaction", summary: "s", firstKeptEntryIndex: 5 }, // 6, resolves to v1-5
				{ type: "compaction", summary: "s", firstKeptEntryIndex: 3 }, // 7, header line: unresolved
				{ type: "compaction", summary: "s", firstKeptEntryIndex: 0 }, // 8, header: unresolved
				{ type: "compaction", summary: "s", firstKeptEntryIndex: 9 }, // 9, itself: unresolved
				{ type: "compaction", summary: "s", firstKeptEntryIndex: 4 }, // 10, typeless line: v1-4 (Pi gave it an id)
				{ type: "compaction", summary: "s", firstKeptEntryIndex: 1.5 }, // 11, not an index
			),
		);
		expect(r.entries.map((e) => [e.id, e.parentId, e.raw.firstKeptEntryId])).toEqual([
			["v1-1", null, undefined],
			["v1-5", "v1-1", undefined],
			["v1-6", "v1-5", "v1-5"],
			["v1-7", "v1-6", undefined],
			["v1-8", "v1-7", undefined],
			["v1-9", "v1-8", undefined],
			["v1-10", "v1-9", "v1-4"],
			["v1-11", "v1-10", undefined],
		]);
		expect(r.receipts.map((x) => x.reason)).toEqual([
			SKIP_REASONS.malformedJson,
			SKIP_REASONS.notAnObject,
			SKIP_REASONS.notAnObject,
			SKIP_REASONS.repeatedHeader,
			SKIP_REASONS.missingType,
		]);
		expect(r.state.v1SessionOrdinals).toEqual([3]);
	});

	it("skips lines over maxLineBytes without parsing them, whole or streamed in fixed windows", () => {
		const big = JSON.stringify(
			entry("big", "a", "message", { message: { role: "user", content: "x".repeat(10_000) } }),
		);
		const bytes = jsonl(
			V1_HEADER,
			{ type: "message", message: { role: "user", content: "a" } },
			big,
			`{${"[".repeat(9000)}`,
			{
				type: "compaction",
				summary: "s",
				firstKeptEntryIndex: 3,
			},
		);
		const opts = { maxLineBytes: 4096 };
		const whole = parseWhole(bytes, opts);
		expect(whole.receipts.map((x) => [x.lineNo, x.reason])).toEqual([
			[3, SKIP_REASONS.lineTooLarge],
			[4, SKIP_REASONS.lineTooLarge],
		]);
		// The oversized lines still took v1 ordinals 2 and 3; the compaction is ordinal 4 and points at line 4.
		expect(whole.entries.map((e) => [e.id, e.parentId, e.raw.firstKeptEntryId])).toEqual([
			["v1-1", null, undefined],
			["v1-4", "v1-1", "v1-3"],
		]);
		// A reader that never holds more than maxLineBytes + 1 bytes still gets through.
		let state = initialParseState();
		const receipts = [];
		const entries = [];
		let calls = 0;
		while (state.byteOffset < bytes.length && calls++ < 1000) {
			const r = parseChunk(bytes.subarray(state.byteOffset, state.byteOffset + 4097), state, opts);
			receipts.push(...r.receipts);
			entries.push(...r.entries);
			state = r.state;
		}
		expect(state.byteOffset).toBe(bytes.length);
		expect(receipts).toEqual(whole.receipts);
		expect(entries).toEqual(whole.entries);
		// Small windows too (the skip state survives JSON).
		const inc = parseAtCuts(
			bytes,
			Array.from({ length: 200 }, (_, i) => i * 137),
			opts,
		);
		expect(inc.receipts).toEqual(whole.receipts);
		expect(inc.entries).toEqual(whole.entries);
	});
});

describe("decoding without Node's Buffer", () => {
	it("the TextDecoder fallback (non-Node hosts) gives the same entries for invalid UTF-8, CJK and emoji", async () => {
		const bytes = new Uint8Array([
			...jsonl(V3_HEADER, entry("a", null, "message", { message: { role: "user", content: "日本語 😀 ñ" } })),
			...new TextEncoder().encode('{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":"'),
			0xc3,
			0x28,
			0xf0,
			0x9f,
			0x98,
			0xe2,
			0x82,
			...new TextEncoder().encode('z"}}\n'),
		]);
		const withBuffer = parseWhole(bytes);
		vi.resetModules();
		vi.stubGlobal("Buffer", undefined);
		try {
			const fresh = await import("../../src/parse/parse-chunk.js");
			const r = fresh.parseChunk(bytes, fresh.initialParseState());
			expect(r.entries).toEqual(withBuffer.entries);
			expect((r.entries[1].raw.message as { content: string }).content).toContain("\uFFFD");
		} finally {
			vi.unstubAllGlobals();
		}
	});
});

describe("skeleton parsing (the tree-state plan of a whole file)", () => {
	const skeletonOf = (entries: ParsedEntry[]) => entries.map((e) => [e.seq, e.id, e.parentId, e.type, e.lineNo]);

	for (const name of listFixtures()) {
		it(`${name}: the same seq, ids, parents and types as a full parse`, () => {
			const bytes = fixtureBytes(name);
			const full = parseWhole(bytes);
			const skeleton = parseWhole(bytes, { skeleton: true });
			expect(skeletonOf(skeleton.entries)).toEqual(skeletonOf(full.entries));
			expect(skeleton.state).toEqual(full.state);
		});
	}

	it("Pi's own message lines take the fast path (an empty raw), v1 and v3 alike", () => {
		for (const name of ["pi-mono-v1/large-session.jsonl", "pi-0.73.1/rich-tree-compaction.jsonl"]) {
			const fast = parseWhole(fixtureBytes(name), { skeleton: true }).entries.filter(
				(e) => Object.keys(e.raw).length === 0,
			);
			expect(fast.length, name).toBeGreaterThan(10);
		}
	});

	it("takes a Pi-shaped message head without parsing the line, and parses everything else in full", () => {
		const bytes = jsonl(
			V3_HEADER,
			entry("a1", null),
			'{"type":"message","id":"b2","parentId":"a1","timestamp":"x","message":{"role":"user","content":"cut',
			entry("c3", "b2", "compaction", { firstKeptEntryId: "a1" }),
			{ id: "d4", type: "message", parentId: "c3" },
			entry("é5", "d4"),
		);
		const full = parseWhole(bytes);
		const skeleton = parseWhole(bytes, { skeleton: true });
		// The damaged line has an intact head: an entry of the skeleton, a receipt of the full parse.
		expect(skeleton.entries.map((e) => e.id)).toEqual(["a1", "b2", "c3", "d4", "é5"]);
		expect(full.entries.map((e) => e.id)).toEqual(["a1", "c3", "d4", "é5"]);
		expect(skeleton.entries.map((e) => Object.keys(e.raw).length > 0)).toEqual([false, false, true, true, true]);
		expect(skeleton.entries[2]?.raw.firstKeptEntryId).toBe("a1");
	});
});
