/** Filter tag tokens: time-range covers are exact, and every tag token is shaped so query words cannot hit it. */
import { describe, expect, it } from "vitest";
import { dayRangeTags, fragmentTags, looksLikeTag, TAG_YEARS, timeTags } from "../../src/text/fragment-tags.js";
import { unicode61Tokens } from "../../src/text/query-compiler.js";

/** Days whose time tags intersect the cover. */
function coveredDays(cover: string[], from: Date, to: Date): string[] {
	const set = new Set(cover);
	const out: string[] = [];
	for (let d = new Date(from); d <= to; d = new Date(d.getTime() + 86_400_000)) {
		const iso = d.toISOString();
		if (timeTags(iso).some((t) => set.has(t))) out.push(iso.slice(0, 10));
	}
	return out;
}

describe("dayRangeTags", () => {
	it("covers exactly the days of the range, for many ranges", () => {
		const span = { from: new Date("2018-11-20T00:00:00Z"), to: new Date("2031-02-10T00:00:00Z") };
		const cases: Array<[string | undefined, string | undefined]> = [
			["2025-01-01", "2025-12-31"],
			["2025-03-15T10:00:00Z", "2025-03-15T11:00:00Z"],
			["2019-12-30", "2030-01-02"],
			["2024-02-28", "2024-03-01"],
			[undefined, "2025-06-30"],
			["2026-11-30", undefined],
			["2020-01-01", "2029-12-31"],
		];
		for (const [from, to] of cases) {
			const cover = dayRangeTags(from, to) ?? [];
			const days = coveredDays(cover, span.from, span.to);
			const lo = from ? from.slice(0, 10) : span.from.toISOString().slice(0, 10);
			const hi = to ? to.slice(0, 10) : span.to.toISOString().slice(0, 10);
			const expected = coveredDays(timeTagsOfRange(lo, hi), span.from, span.to);
			expect(days, `${from}..${to}`).toEqual(expected);
			expect(cover.length, `${from}..${to}`).toBeLessThan(120);
		}
	});

	it("gives up (SQL check only) outside the tagged years", () => {
		expect(dayRangeTags(`${TAG_YEARS.first - 1}-01-01`, "2025-01-01")).toBeUndefined();
		expect(dayRangeTags("2025-01-01", "2025-01-01")).toEqual(["zzd20250101"]);
	});
});

/** Day tokens of every day from lo to hi (inclusive): the brute-force cover. */
function timeTagsOfRange(lo: string, hi: string): string[] {
	const out: string[] = [];
	for (let d = new Date(`${lo}T00:00:00Z`); d.toISOString().slice(0, 10) <= hi; d = new Date(d.getTime() + 86_400_000))
		out.push(timeTags(d.toISOString())[0]);
	return out;
}

describe("fragmentTags", () => {
	it("are single unicode61 tokens that all look like tags", () => {
		const text = fragmentTags({
			sourceId: 12,
			cwd: "/home/me/app",
			kind: "tool_result",
			toolName: "event_search",
			isError: true,
			retrieval: true,
			timestamp: "2026-01-31T23:59:59.000Z",
			branchState: "alternate",
			selectionState: "summarized",
			paths: ["src/Ünïcode dir/retry.ts", "/tmp/q_q.QZZ"],
		});
		const tokens = unicode61Tokens(text);
		expect(tokens).toEqual(text.split(" "));
		expect(tokens.every((t) => looksLikeTag(t))).toBe(true);
		expect(looksLikeTag("error")).toBe(false);
		expect(looksLikeTag("z", true)).toBe(true);
	});
});
