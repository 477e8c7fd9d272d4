import { describe, expect, it } from "vitest";
import { PREVIEW_GAP_MARKER, previewText, windowText } from "../../src/text/preview.js";

const cp = (s: string) => Array.from(s);

/** Rebuilds the shown text from the ranges and checks the receipt is exact and complete. */
function checkReceipt(original: string, budget: number) {
	const p = previewText(original, budget);
	const cps = cp(original);
	expect(p.totalChars).toBe(cps.length);
	const shown = p.shownRanges.map((r) => cps.slice(r.start, r.end).join(""));
	expect(p.text).toBe(shown.join(PREVIEW_GAP_MARKER));
	expect(cp(p.text).length).toBeLessThanOrEqual(Math.max(budget, 0));
	// shown + omitted ranges tile [0, total) exactly
	const all = [...p.shownRanges, ...p.omittedRanges].sort((a, b) => a.start - b.start);
	let at = 0;
	for (const r of all) {
		expect(r.start).toBe(at);
		at = r.end;
	}
	expect(at).toBe(cps.length);
	expect(p.truncated).toBe(p.omittedRanges.length > 0);
	return p;
}

describe("previewText", () => {
	it("returns short text whole", () => {
		expect(previewText("hello", 10)).toEqual({
			text: "hello",
			totalChars: 5,
			shownRanges: [{ start: 0, end: 5 }],
			omittedRanges: [],
			truncated: false,
		});
		expect(previewText("", 10)).toEqual({
			text: "",
			totalChars: 0,
			shownRanges: [],
			omittedRanges: [],
			truncated: false,
		});
	});

	it("shows head and tail with exact ranges in code points", () => {
		const p = checkReceipt("abcdefghijklmnopqrstuvwxyz", 13);
		// 13 - 3 (marker) = 10 shown: 5 head + 5 tail
		expect(p.shownRanges).toEqual([
			{ start: 0, end: 5 },
			{ start: 21, end: 26 },
		]);
		expect(p.omittedRanges).toEqual([{ start: 5, end: 21 }]);
		expect(p.text).toBe(`abcde${PREVIEW_GAP_MARKER}vwxyz`);
	});

	it("never splits emoji (surrogate pairs) and counts them as one", () => {
		const text = "😀".repeat(30);
		const p = checkReceipt(text, 13);
		expect(p.totalChars).toBe(30);
		expect(p.text).toBe(`${"😀".repeat(5)}${PREVIEW_GAP_MARKER}${"😀".repeat(5)}`);
		expect(p.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
	});

	it("counts CJK and combining marks as code points", () => {
		const cjk = "数据库连接失败了".repeat(5); // 40 code points
		expect(checkReceipt(cjk, 13).totalChars).toBe(40);
		const combining = "e\u0301".repeat(20); // 40 code points (base + combining acute)
		const p = checkReceipt(combining, 13);
		expect(p.totalChars).toBe(40);
		expect(p.omittedRanges).toEqual([{ start: 5, end: 35 }]);
	});

	it("handles tiny budgets with a head only", () => {
		const p = checkReceipt("abcdefghij", 3);
		expect(p.text).toBe("abc");
		expect(p.omittedRanges).toEqual([{ start: 3, end: 10 }]);
		expect(checkReceipt("abcdefghij", 0).text).toBe("");
	});
});

describe("windowText", () => {
	const text = `${"a".repeat(50)}😀${"数".repeat(49)}`; // 100 code points

	it("returns a contiguous window of the requested size", () => {
		const w = windowText(text, 45, 10);
		expect(w.text).toBe(`${"a".repeat(5)}😀${"数".repeat(4)}`);
		expect(w.range).toEqual({ start: 45, end: 55 });
		expect(w.totalChars).toBe(100);
		expect(w.hasBefore).toBe(true);
		expect(w.hasAfter).toBe(true);
	});

	it("clamps the offset and never raises the size", () => {
		const end = windowText(text, 1_000, 10);
		expect(end.range).toEqual({ start: 90, end: 100 });
		expect(cp(end.text).length).toBe(10);
		expect(end.hasAfter).toBe(false);
		const start = windowText(text, -5, 10);
		expect(start.range).toEqual({ start: 0, end: 10 });
		expect(start.hasBefore).toBe(false);
		const whole = windowText("short", 3, 10);
		expect(whole).toMatchObject({ offset: 0, text: "short", range: { start: 0, end: 5 } });
	});
});
