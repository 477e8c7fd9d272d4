/** The one escaping every renderer uses (issue 45, finding 5): what survives of stored text, and what cannot. */
import { describe, expect, it } from "vitest";
import { escapeValue, framedLines, oneLine, quoted, SESSION_TEXT_MARK } from "../../src/text/safe-text.js";

describe("safe text", () => {
	it("a value keeps no control character, line break or direction override", () => {
		expect(escapeValue("a\nb\rc\td\u001b[2Ke\u0085f\u2028g\u202eh\u0000")).toBe(
			"a\\nb\\rc\\td\\u001b[2Ke\\u0085f\\u2028g\\u202eh\\u0000",
		);
		expect(escapeValue("plain id 01a2-b3 ünïcödé 数据")).toBe("plain id 01a2-b3 ünïcödé 数据");
	});

	it("one line: every kind of line break shows as ⏎, other whitespace as one space, the cut as …", () => {
		expect(oneLine("one\n two\r\nthree\u2028four\u2029five\vsix   seven\t")).toBe(
			"one ⏎ two ⏎ three ⏎ four ⏎ five ⏎ six seven",
		);
		expect(oneLine("abcdef", 4)).toBe("abc…");
		expect(oneLine("a\u001bb")).toBe("a\\u001bb");
	});

	it("a quoted value cannot close its quotes", () => {
		expect(quoted('x" cwd=/etc "y')).toBe('"x\\" cwd=/etc \\"y"');
		expect(quoted("back\\slash\nnext")).toBe('"back\\\\slash ⏎ next"');
	});

	it("framed text: every line a reader could see starts with the mark", () => {
		const lines = framedLines("a\nb\r\nc\rd\u2028e\u0085f\tg\u001b");
		expect(lines).toEqual(["a", "b", "c", "d", "e", "f\tg\\u001b"].map((l) => `${SESSION_TEXT_MARK}${l}`));
		expect(framedLines("")).toEqual([SESSION_TEXT_MARK]);
	});
});
