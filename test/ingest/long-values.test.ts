/**
 * A long value decoded window by window (ingest/long-values.ts) is exactly what JSON.parse makes of the whole line's
 * text: windows never cut a UTF-8 sequence or an escape, and invalid bytes become the same replacement characters.
 */
import { describe, expect, it } from "vitest";
import { type ReadRange, valueParts, windowCut } from "../../src/ingest/long-values.js";

/** Reads from an in-memory file. */
function reader(file: Uint8Array): ReadRange {
	return (start, end, allocate) => {
		const out = allocate(end - start);
		out.set(file.subarray(start, end));
		return out;
	};
}

/** What the whole parse makes of a string literal's JSON text: the line decoded as UTF-8 (by Buffer), then parsed. */
function parsedWhole(json: Uint8Array): string {
	return JSON.parse(`"${Buffer.from(json).toString("utf8")}"`) as string;
}

function windowed(json: Uint8Array, windowBytes: number): string {
	return [...valueParts(reader(json), { start: 0, end: json.length }, windowBytes)].join("");
}

/** A pseudo-random JSON string body (escaped) of about `n` pieces, from a fixed seed. */
function randomJsonText(seed: number, n: number): Uint8Array {
	let s = seed;
	const next = () => {
		s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
		return s;
	};
	const pieces = [
		"plain ",
		"\\n",
		'\\"',
		"\\\\",
		"\\u00e9",
		"\\ud83d\\ude00",
		"\\ud83d",
		"\\u4E2D",
		"\u00e9",
		"\u4e2d\u6587",
		"\ud83d\ude00",
		"\\/",
		"\\t",
		"u",
		"\\\\u0041",
	];
	const parts: Buffer[] = [];
	for (let i = 0; i < n; i++) {
		if (next() % 17 === 0) {
			// Invalid UTF-8: a stray continuation byte, a cut sequence, an overlong lead.
			parts.push(Buffer.from([[0x80], [0xe4, 0xb8], [0xc0, 0xaf], [0xf0, 0x9f, 0x98]][next() % 4] as number[]));
		} else parts.push(Buffer.from(pieces[next() % pieces.length] as string, "utf8"));
	}
	return Buffer.concat(parts);
}

describe("valueParts", () => {
	it("joins to the whole parse's string for every window size, escapes and invalid bytes included", () => {
		for (let seed = 1; seed <= 40; seed++) {
			const json = randomJsonText(seed, 300);
			const whole = parsedWhole(json);
			for (const w of [1, 2, 3, 5, 7, 13, 64, 1000]) expect(windowed(json, w)).toBe(whole);
		}
	});

	it("reads a window larger than asked for when it finds no cut (a long run of continuation bytes)", () => {
		const json = Buffer.concat([Buffer.from("ab"), Buffer.alloc(50, 0x80), Buffer.from("cd")]);
		expect(windowed(json, 8)).toBe(parsedWhole(json));
	});
});

describe("windowCut", () => {
	const bytes = (s: string) => Buffer.from(s, "utf8");

	it("never cuts inside an escape or a UTF-8 sequence", () => {
		// a \ n  → a cut before `n` would split `\n`.
		expect(windowCut(bytes("ab\\nc"), 3)).toBe(2);
		// \u00e9: every cut inside moves before its backslash.
		for (let limit = 2; limit <= 6; limit++) expect(windowCut(bytes("x\\u00e9y"), limit)).toBe(1);
		expect(windowCut(bytes("x\\u00e9y"), 7)).toBe(7);
		// An escaped backslash before `u` is no \u escape.
		expect(windowCut(bytes("x\\\\u00"), 4)).toBe(4);
		// 中 is three bytes.
		expect(windowCut(bytes("a\u4e2db"), 2)).toBe(1);
		expect(windowCut(bytes("a\u4e2db"), 4)).toBe(4);
	});
});
