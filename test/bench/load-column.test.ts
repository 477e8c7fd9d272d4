import { describe, expect, it } from "vitest";
import { withLoad } from "../../bench/lib/load.js";
import { markdownTable } from "../../bench/lib/report.js";

describe("the load column", () => {
	it("gives each row of a figure the load average as it started and ended, and prints it", async () => {
		const loads = [7.04, 9.96];
		const row = { figure: "4 Search", measured: "1 ms", baseline: "—", ratio: "—", goal: "—", met: null };
		const rows = await withLoad(
			async () => [row, { ...row, figure: "own", load: "set" }],
			() => loads.shift() ?? 0,
		);
		expect(rows.map((r) => r.load)).toEqual(["7.0 → 10.0", "set"]);
		expect(markdownTable(rows)).toMatch(/\| goal \| met \| load \|/);
		expect(markdownTable(rows)).toMatch(/\| 7\.0 → 10\.0 \|$/m);
	});
});
