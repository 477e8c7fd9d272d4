import { describe, expect, it } from "vitest";
import { medianRun } from "../../bench/figures/cold-build.js";

describe("figure 1b's repeated builds", () => {
	it("reports the median run, not the first or the fastest", () => {
		const runs = [{ ms: 38_900 }, { ms: 30_400 }, { ms: 34_100 }];
		expect(medianRun(runs)).toBe(runs[2]);
		expect(medianRun([{ ms: 5 }])).toEqual({ ms: 5 });
	});
});
