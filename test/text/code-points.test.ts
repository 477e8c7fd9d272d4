import { describe, expect, it } from "vitest";
import { codePointLength, sliceCodePoints } from "../../src/text/code-points.js";

describe("codePointLength", () => {
	it("counts ASCII and BMP text by UTF-16 length (fast path)", () => {
		expect(codePointLength("")).toBe(0);
		expect(codePointLength("hello")).toBe(5);
		expect(codePointLength("中文很好")).toBe(4);
	});
	it("counts an astral emoji as one code point, not two UTF-16 units", () => {
		expect("a😀b".length).toBe(4);
		expect(codePointLength("a😀b")).toBe(3);
		expect(codePointLength("𠀀𠀁")).toBe(2); // CJK Extension B
	});
	it("counts combining marks separately (code points, not graphemes)", () => {
		expect(codePointLength("e\u0301")).toBe(2);
		expect(codePointLength("👍🏽")).toBe(2); // emoji + skin-tone modifier
	});
	it("counts a lone surrogate as one", () => {
		expect(codePointLength("a\uD800b")).toBe(3);
		expect(codePointLength("\uDC00")).toBe(1);
	});
});

describe("sliceCodePoints", () => {
	it("slices by code points across emoji and CJK", () => {
		const s = "ab😀中文😀z";
		expect(sliceCodePoints(s, 0, 3)).toBe("ab😀");
		expect(sliceCodePoints(s, 2, 4)).toBe("😀中");
		expect(sliceCodePoints(s, 5)).toBe("😀z");
		expect(sliceCodePoints(s, 6, 100)).toBe("z");
	});
	it("never splits a surrogate pair", () => {
		const s = "😀😀😀";
		for (let i = 0; i <= 3; i++) {
			for (let j = i; j <= 3; j++) {
				const part = sliceCodePoints(s, i, j);
				expect(part).toBe("😀".repeat(j - i));
			}
		}
	});
	it("clamps out-of-range and inverted bounds", () => {
		expect(sliceCodePoints("a😀b", -5, 2)).toBe("a😀");
		expect(sliceCodePoints("a😀b", 3, 10)).toBe("");
		expect(sliceCodePoints("a😀b", 2, 1)).toBe("");
		expect(sliceCodePoints("abc", 2, 1)).toBe("");
		expect(sliceCodePoints("abc", -1)).toBe("abc");
	});
	it("keeps combining marks as separate code points", () => {
		expect(sliceCodePoints("cafe\u0301!", 0, 4)).toBe("cafe");
		expect(sliceCodePoints("cafe\u0301!", 4, 5)).toBe("\u0301");
	});
	it("agrees with Array.from for random strings", () => {
		const alphabet = ["a", "é", "e\u0301", "中", "😀", "𠀀", "\uD800", " ", "👍🏽"];
		let seed = 42;
		const rand = (n: number) => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed % n;
		};
		for (let k = 0; k < 500; k++) {
			let s = "";
			for (let i = rand(12); i > 0; i--) s += alphabet[rand(alphabet.length)];
			const cps = Array.from(s);
			expect(codePointLength(s)).toBe(cps.length);
			const a = rand(cps.length + 2);
			const b = rand(cps.length + 2);
			expect(sliceCodePoints(s, a, b)).toBe(cps.slice(a, b).join(""));
		}
	});
});
