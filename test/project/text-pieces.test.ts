import { describe, expect, it } from "vitest";
import type { ParsedEntry } from "../../src/parse/types.js";
import { projectEntry } from "../../src/project/project-entry.js";
import { PIECE_UNITS, textPieces } from "../../src/project/text-pieces.js";

function userEntry(text: string): ParsedEntry {
	const raw = { type: "message", id: "u1", parentId: null, message: { role: "user", content: text } };
	return { seq: 0, id: "u1", parentId: null, type: "message", timestamp: "", lineNo: 2, byteStart: 0, byteEnd: 1, raw };
}

describe("textPieces", () => {
	it("keeps a text of up to PIECE_UNITS whole", () => {
		expect(textPieces("")).toEqual([""]);
		const full = "a".repeat(PIECE_UNITS);
		expect(textPieces(full)).toEqual([full]);
	});

	it("cuts a longer text into pieces of at most PIECE_UNITS that join back to it", () => {
		const text = "word ".repeat(50_000);
		const pieces = textPieces(text);
		expect(pieces.length).toBe(4);
		expect(pieces.join("")).toBe(text);
		for (const p of pieces) expect(p.length).toBeLessThanOrEqual(PIECE_UNITS);
		// Whole words: every piece but the last ends after a space.
		for (const p of pieces.slice(0, -1)) expect(p.endsWith(" ")).toBe(true);
	});

	it("prefers a line end to a space, and a space to a hard cut", () => {
		const lines = `${"x".repeat(PIECE_UNITS - 100)}\n${"y ".repeat(200)}`;
		expect(textPieces(lines)[0]).toBe(`${"x".repeat(PIECE_UNITS - 100)}\n`);
		const spaced = `${"x".repeat(PIECE_UNITS - 100)} ${"y".repeat(200)}`;
		expect(textPieces(spaced)[0]).toBe(`${"x".repeat(PIECE_UNITS - 100)} `);
		// A line end before the look-back window is not used: the piece would be far shorter than it may be.
		const early = `x\n${"y".repeat(PIECE_UNITS * 2)}`;
		expect(textPieces(early)[0]?.length).toBe(PIECE_UNITS);
	});

	it("never splits a surrogate pair", () => {
		const text = `${"x".repeat(PIECE_UNITS - 1)}${"😀".repeat(10)}`;
		const pieces = textPieces(text);
		expect(pieces[0]).toBe("x".repeat(PIECE_UNITS - 1));
		expect(pieces.join("")).toBe(text);
		const emoji = "😀".repeat(PIECE_UNITS);
		for (const p of textPieces(emoji)) expect([...p].every((c) => c === "😀")).toBe(true);
	});
});

describe("a long text projects as one fragment per piece", () => {
	it("numbers the pieces in order, counts their code points and leaves blank pieces out", () => {
		const text = `${"é".repeat(PIECE_UNITS)}${" ".repeat(PIECE_UNITS)}tail`;
		const fragments = projectEntry(userEntry(text)).fragments;
		const pieces = textPieces(text);
		expect(pieces.length).toBe(3);
		// The middle piece is all spaces: nothing to find in it.
		expect(fragments.map((f) => [f.ord, f.kind, f.text])).toEqual([
			[0, "user_text", pieces[0]],
			[1, "user_text", pieces[2]],
		]);
		expect(fragments.map((f) => f.charCount)).toEqual([pieces[0]?.length, pieces[2]?.length]);
	});
});
