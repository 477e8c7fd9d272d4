import { describe, expect, it } from "vitest";
import { firstMatchPosition, makeSnippet } from "../../src/query/snippet.js";

describe("snippets on long mixed-script tool output (regression: per-character folding made each hit cost tens of ms)", () => {
	it("maps a match after many non-ASCII pieces back to its code-point position", () => {
		const text = `${"é ".repeat(300)}${"plain words ".repeat(200)}😀 Ünïcödé needle end`;
		const at = firstMatchPosition(text, ["needle"]);
		expect(
			Array.from(text)
				.slice(at, at + 6)
				.join(""),
		).toBe("needle");
		expect(firstMatchPosition(text, ["unicode"])).toBe(Array.from(text).indexOf("Ü"));
	});

	it("centres on the match and stays within the code-point budget", () => {
		const text = `${"数据 ".repeat(2000)}target 😀 word ${"ß".repeat(5000)}`;
		const s = makeSnippet(text, ["target"], 60);
		expect(s).toContain("target");
		expect(Array.from(s).length).toBeLessThanOrEqual(60);
	});

	it("an ASCII-only text maps indices one to one", () => {
		const text = `${"x".repeat(10_000)} Needle`;
		expect(firstMatchPosition(text, ["needle"])).toBe(10_001);
	});
});
