/**
 * Each pattern of src/text/word-classes.ts and its ASCII form give the same result on ASCII text: every character,
 * every pair, and seeded random strings with words, digits, dots and punctuation. A form that drifted from its pattern
 * would change how an English query is split, trimmed or inflected.
 */
import { describe, expect, it } from "vitest";
import {
	type ClassPattern,
	EDGE_NON_WORD,
	IDENTIFIER_MARK,
	isAscii,
	NON_WORD_RUN,
	WORD_RUN,
} from "../../src/text/word-classes.js";

const PATTERNS: Record<string, ClassPattern> = { EDGE_NON_WORD, IDENTIFIER_MARK, NON_WORD_RUN, WORD_RUN };

/** Every ASCII character alone, every pair of a sample, and 2,000 seeded random strings. */
function asciiTexts(): string[] {
	const chars = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));
	const sample = ["a", "Z", "0", "9", "_", ".", "'", " ", "-", "\n", "~", "é".normalize("NFD").slice(0, 1)];
	const out = [...chars];
	for (const a of sample) for (const b of sample) out.push(a + b, `${a}x.${b}y`);
	let seed = 7;
	const next = () => {
		seed = (seed * 1103515245 + 12345) % 2 ** 31;
		return seed;
	};
	for (let i = 0; i < 2000; i++) {
		let s = "";
		for (let n = next() % 12; n > 0; n--) s += chars[next() % 128];
		out.push(s);
	}
	return out;
}

/** What a pattern does with `s` as the callers use it: replace, test, split and count matches. */
function uses(re: RegExp, s: string): unknown[] {
	const copy = () => new RegExp(re.source, re.flags);
	return [
		s.replace(copy(), "|"),
		copy().test(s),
		s.split(copy()),
		[...s.matchAll(new RegExp(re.source, `${re.flags.replace("g", "")}g`))].map((m) => [m.index, m[0]]),
	];
}

describe("word classes", () => {
	for (const [name, pattern] of Object.entries(PATTERNS)) {
		it(`${name}: the ASCII form matches as the Unicode pattern on ASCII text`, () => {
			for (const s of asciiTexts().filter(isAscii))
				expect(uses(pattern.ascii, s), JSON.stringify(s)).toEqual(uses(pattern.unicode, s));
		});
	}

	it("picks the Unicode pattern for text that is not ASCII", () => {
		expect(isAscii("plain words 42.")).toBe(true);
		expect(isAscii("café")).toBe(false);
		expect(WORD_RUN.in("café")).toBe(WORD_RUN.unicode);
		expect(WORD_RUN.in("cafe")).toBe(WORD_RUN.ascii);
	});
});
