/**
 * Property / fuzz tests: generated sessions with every kind of damage. Whatever the bytes, the parser and projector
 * never throw, every bad line gets exactly one receipt, every good line becomes exactly one projected entry, and
 * chunked parsing agrees with whole parsing.
 */
import { describe, expect, it } from "vitest";
import { SKIP_REASONS } from "../../src/parse/skip-reasons.js";
import type { ParsedEntry } from "../../src/parse/types.js";
import { projectEntry } from "../../src/project/project-entry.js";
import { computeTreeStates, treeNodeOf } from "../../src/project/tree-states.js";
import { parseAtCuts, parseWhole, prng, V3_HEADER } from "./helpers.js";

type Line = { bytes: Uint8Array; kind: "good" | "bad" | "blank" | "header"; marker?: string; reason?: string };

const enc = new TextEncoder();
const TEXTS = ["plain words", "日本語 テキスト", "emoji 😀 and ñ", "tabs\tand\nnewlines", 'quotes "and" \\ slashes'];

function goodLine(rand: () => number, i: number, prevId: string | null): Line {
	const marker = `mk${i}x`;
	const text = `${TEXTS[i % TEXTS.length]} ${marker}`;
	const id = `id${i}`;
	const base = { id, parentId: prevId, timestamp: "2026-01-01T00:00:00.000Z" };
	const pick = Math.floor(rand() * 10);
	let obj: object;
	switch (pick) {
		case 0:
			obj = { type: "message", ...base, message: { role: "user", content: text } };
			break;
		case 1:
			obj = {
				type: "message",
				...base,
				message: {
					role: "assistant",
					content: [
						{ type: "thinking", thinking: `THINK-${marker}` },
						{ type: "text", text },
						{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `/f${i}.ts` } },
					],
					stopReason: "toolUse",
				},
			};
			break;
		case 2:
			obj = {
				type: "message",
				...base,
				message: {
					role: "toolResult",
					toolCallId: `c${i}`,
					toolName: "read",
					content: [{ type: "text", text }],
					isError: rand() < 0.5,
				},
			};
			break;
		case 3:
			obj = { type: "message", ...base, message: { role: "bashExecution", command: text, output: "", exitCode: 1 } };
			break;
		case 4:
			obj = { type: "custom_message", ...base, customType: "t", content: text, display: true };
			break;
		case 5:
			obj = { type: "compaction", ...base, summary: text, firstKeptEntryId: "id0", tokensBefore: 5 };
			break;
		case 6:
			obj = { type: "branch_summary", ...base, summary: text, fromId: "id0" };
			break;
		case 7:
			obj = { type: "label", ...base, targetId: "id0", label: text };
			break;
		case 8:
			obj = { type: "session_info", ...base, name: text };
			break;
		default:
			return { bytes: enc.encode(JSON.stringify({ type: "mystery_future", ...base, blob: text })), kind: "good" };
	}
	return { bytes: enc.encode(JSON.stringify(obj)), kind: "good", marker };
}

function badLine(rand: () => number, i: number): Line {
	const pick = Math.floor(rand() * 8);
	switch (pick) {
		case 0: {
			// A good line cut short (as a crash mid-write would leave it, before its newline was replaced).
			const g = goodLine(rand, i, null).bytes;
			return {
				bytes: g.subarray(0, 1 + Math.floor(rand() * (g.length - 1))),
				kind: "bad",
				reason: SKIP_REASONS.malformedJson,
			};
		}
		case 1: {
			// Random bytes (never "\n"), led by "#" so they can never be JSON.
			const n = 1 + Math.floor(rand() * 200);
			const b = new Uint8Array(n + 1);
			b[0] = 0x23;
			for (let k = 1; k <= n; k++) {
				let v = Math.floor(rand() * 256);
				if (v === 0x0a) v = 0x0b;
				b[k] = v;
			}
			return { bytes: b, kind: "bad", reason: SKIP_REASONS.malformedJson };
		}
		case 2:
			return {
				bytes: enc.encode(["1", "true", "null", '"s"', "[]"][i % 5]),
				kind: "bad",
				reason: SKIP_REASONS.notAnObject,
			};
		case 3:
			return {
				bytes: enc.encode(JSON.stringify({ id: `t${i}`, parentId: null })),
				kind: "bad",
				reason: SKIP_REASONS.missingType,
			};
		case 4:
			return {
				bytes: enc.encode(JSON.stringify({ type: "message", message: {} })),
				kind: "bad",
				reason: SKIP_REASONS.missingId,
			};
		case 5:
			return { bytes: enc.encode(JSON.stringify(V3_HEADER)), kind: "bad", reason: SKIP_REASONS.repeatedHeader };
		case 6:
			return {
				bytes: enc.encode(`${"[".repeat(1 + Math.floor(rand() * 5000))}`),
				kind: "bad",
				reason: SKIP_REASONS.malformedJson,
			};
		default:
			return { bytes: enc.encode(`{"type":"message","id":"z${i}",`), kind: "bad", reason: SKIP_REASONS.malformedJson };
	}
}

function blankLine(rand: () => number): Line {
	return { bytes: enc.encode(["", " ", "\t \t", "\r"][Math.floor(rand() * 4)]), kind: "blank" };
}

function build(lines: Line[], crlf: (i: number) => boolean): { bytes: Uint8Array; spans: Array<[number, number]> } {
	const parts: Uint8Array[] = [];
	const spans: Array<[number, number]> = [];
	let off = 0;
	lines.forEach((l, i) => {
		const eol = crlf(i) && l.kind !== "blank" ? enc.encode("\r\n") : enc.encode("\n");
		parts.push(l.bytes, eol);
		spans.push([off, off + l.bytes.length + eol.length]);
		off += l.bytes.length + eol.length;
	});
	const bytes = new Uint8Array(off);
	let p = 0;
	for (const part of parts) {
		bytes.set(part, p);
		p += part.length;
	}
	return { bytes, spans };
}

/** Compare entries without deep `raw` (which may be 100k levels deep). */
const shape = (e: ParsedEntry) => [e.seq, e.id, e.parentId, e.type, e.lineNo, e.byteStart, e.byteEnd];

function checkAccounting(
	lines: Line[],
	bytes: Uint8Array,
	spans: Array<[number, number]>,
	maxLineBytes?: number,
): void {
	const r = parseWhole(bytes, maxLineBytes ? { maxLineBytes } : undefined);
	expect(r.state.byteOffset).toBe(bytes.length);
	expect(r.state.lineCount).toBe(lines.length);
	const receiptsByLine = new Map(r.receipts.map((x) => [x.lineNo, x]));
	const entriesByLine = new Map(r.entries.map((e) => [e.lineNo, e]));
	expect(receiptsByLine.size).toBe(r.receipts.length);
	lines.forEach((l, i) => {
		const lineNo = i + 1;
		const [start, end] = spans[i];
		if (l.kind === "bad") {
			expect(receiptsByLine.get(lineNo), `line ${lineNo}`).toEqual({
				lineNo,
				byteStart: start,
				byteEnd: end,
				reason: l.reason,
			});
			expect(entriesByLine.has(lineNo)).toBe(false);
		} else if (l.kind === "good") {
			const e = entriesByLine.get(lineNo);
			expect(e, `line ${lineNo}`).toBeDefined();
			expect([e?.byteStart, e?.byteEnd]).toEqual([start, end]);
			expect(receiptsByLine.has(lineNo)).toBe(false);
			const ev = projectEntry(e as ParsedEntry);
			const texts = ev.fragments.map((f) => f.text).join("\n");
			if (l.marker) expect(texts).toContain(l.marker);
			expect(texts).not.toContain("THINK-");
		} else {
			expect(receiptsByLine.has(lineNo) || entriesByLine.has(lineNo)).toBe(false);
		}
	});
	expect(r.entries.length).toBe(lines.filter((l) => l.kind === "good").length);
	const states = computeTreeStates(r.entries.map(projectEntry).map(treeNodeOf));
	expect(states.size).toBe(r.entries.length);
}

describe("fuzz: damaged sessions", () => {
	for (let seed = 1; seed <= 30; seed++) {
		it(`seed ${seed}: a receipt for every bad line, every good line projected, chunking irrelevant`, () => {
			const rand = prng(seed);
			const lines: Line[] = [{ bytes: enc.encode(JSON.stringify(V3_HEADER)), kind: "header" }];
			let prevId: string | null = null;
			for (let i = 0; i < 150; i++) {
				const x = rand();
				if (x < 0.55) {
					const l = goodLine(rand, i, rand() < 0.9 ? prevId : `missing${i}`);
					lines.push(l);
					prevId = `id${i}`;
				} else if (x < 0.9) lines.push(badLine(rand, i));
				else lines.push(blankLine(rand));
			}
			const { bytes, spans } = build(lines, () => rand() < 0.2);
			checkAccounting(lines, bytes, spans);
			const whole = parseWhole(bytes);
			for (let t = 0; t < 3; t++) {
				const cuts = Array.from({ length: 1 + Math.floor(rand() * 40) }, () => Math.floor(rand() * bytes.length));
				const inc = parseAtCuts(bytes, cuts);
				expect(inc.entries.map(shape)).toEqual(whole.entries.map(shape));
				expect(inc.receipts).toEqual(whole.receipts);
			}
		});
	}

	it("pure random bytes never throw, and every non-blank line is accounted for", () => {
		const rand = prng(4242);
		for (let t = 0; t < 40; t++) {
			const n = Math.floor(rand() * 5000);
			const bytes = new Uint8Array(n);
			for (let k = 0; k < n; k++) bytes[k] = rand() < 0.05 ? 0x0a : Math.floor(rand() * 256);
			// Sometimes the random tail follows a real header.
			const withHeader = rand() < 0.5;
			const head = withHeader ? enc.encode(`${JSON.stringify(V3_HEADER)}\n`) : new Uint8Array(0);
			const all = new Uint8Array([...head, ...bytes]);
			const r = parseWhole(all);
			for (const e of r.entries) expect(() => projectEntry(e)).not.toThrow();
			const lines = Buffer.from(all).toString("latin1").split("\n");
			lines.pop(); // the partial tail (or "") is not consumed
			const accounted = new Set([...r.receipts.map((x) => x.lineNo), ...r.entries.map((e) => e.lineNo)]);
			let offset = 0;
			lines.forEach((latin, i) => {
				const text = Buffer.from(all.subarray(offset, offset + latin.length)).toString("utf8");
				offset += latin.length + 1;
				const isHeader = withHeader && i === 0;
				const blank = text.replace(/\r$/, "").trim() === "" || (i === 0 && text.replace(/^\uFEFF/, "").trim() === "");
				if (!isHeader && !blank) expect(accounted.has(i + 1), `line ${i + 1}`).toBe(true);
			});
			expect(r.state.lineCount).toBe(lines.length);
		}
	});

	it("a 5 MB line, a 100k-deep nested value and 100k unclosed brackets", () => {
		const big = "lorem ipsum 日本 ".repeat((5 * 1024 * 1024) / 18);
		const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
		const lines: Line[] = [
			{ bytes: enc.encode(JSON.stringify(V3_HEADER)), kind: "header" },
			{
				bytes: enc.encode(
					JSON.stringify({
						type: "message",
						id: "big",
						parentId: null,
						message: { role: "user", content: `${big} mkbig` },
					}),
				),
				kind: "good",
				marker: "mkbig",
			},
			{ bytes: enc.encode(`${big}{`), kind: "bad", reason: SKIP_REASONS.malformedJson },
			{ bytes: enc.encode("[".repeat(100_000)), kind: "bad", reason: SKIP_REASONS.malformedJson },
			{
				bytes: enc.encode(
					`{"type":"message","id":"deep","parentId":"big","message":{"role":"assistant","content":[{"type":"text","text":"mkdeep"},{"type":"toolCall","id":"c","name":"t","arguments":{"a":${deep}}}]}}`,
				),
				kind: "good",
				marker: "mkdeep",
			},
			{ bytes: enc.encode(`{"type":"custom","id":"deep2","parentId":"deep","data":${deep}}`), kind: "good" },
		];
		const { bytes, spans } = build(lines, () => false);
		expect(bytes.length).toBeGreaterThan(10 * 1024 * 1024);
		checkAccounting(lines, bytes, spans);
		const r = parseWhole(bytes);
		// Projected as pieces (text-pieces.ts) that join back to the whole text.
		const pieces = projectEntry(r.entries[0]).fragments;
		expect(pieces.map((f) => f.text).join("")).toBe(`${big} mkbig`);
		expect(pieces.reduce((n, f) => n + f.charCount, 0)).toBe([...`${big} mkbig`].length);
		// With a 1 MiB cap the 5 MB lines are skipped unparsed instead.
		const capped = parseWhole(bytes, { maxLineBytes: 1024 * 1024 });
		expect(capped.receipts.filter((x) => x.reason === SKIP_REASONS.lineTooLarge).map((x) => x.lineNo)).toEqual([2, 3]);
		expect(capped.entries.map((e) => e.id)).toEqual(["deep", "deep2"]);
	});
});
