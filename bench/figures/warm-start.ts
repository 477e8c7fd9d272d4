/** Figure 2: time from opening an existing index to the first answered search, at both scales, interleaved. */
import { BENCH_QUERIES } from "../corpus/markers.js";
import { runChild } from "../lib/child.js";
import { fmtMs, median } from "../lib/measure.js";
import { type Figure, ratioText, scaleLabel, skippedRow } from "./types.js";

interface WarmResult {
	skipped?: string;
	ms: number;
	openMs: number;
	searchMs: number;
	hits: number;
}

const GOAL = "≤ 1.5×, tens of ms";

export const warmStart: Figure = {
	name: "warm-start",
	async run(ctx) {
		const figure = "2 Warm start: open → first answered search";
		const { small, large } = ctx.indexDirs;
		if (!ctx.project.ok || !small || !large) return [skippedRow(figure, GOAL, ctx.project.reason ?? "no index built")];
		const reps = ctx.quick ? 3 : 7;
		const request = BENCH_QUERIES[0].request;
		const t: Record<"small" | "large", WarmResult[]> = { small: [], large: [] };
		for (let r = 0; r < reps; r++) {
			for (const tag of r % 2 === 0 ? (["small", "large"] as const) : (["large", "small"] as const)) {
				const m = tag === "small" ? ctx.small : ctx.large;
				const res = await runChild<WarmResult>("warm-start", {
					agentDir: m.agentDir,
					indexDir: ctx.indexDirs[tag],
					request,
				});
				if (res.skipped) return [skippedRow(figure, GOAL, res.skipped)];
				t[tag].push(res);
			}
		}
		const ms = (tag: "small" | "large") => median(t[tag].map((x) => x.ms));
		const ratio = ms("large") / ms("small");
		return [
			{
				figure,
				measured: `${fmtMs(ms("large"))} at ${scaleLabel(ctx.large)}`,
				baseline: `${fmtMs(ms("small"))} at ${scaleLabel(ctx.small)}`,
				ratio: ratioText(ratio),
				goal: GOAL,
				met: ratio <= 1.5 && ms("large") < 100,
				note: `median of ${reps} fresh processes each; open ${fmtMs(median(t.large.map((x) => x.openMs)))} + search ${fmtMs(median(t.large.map((x) => x.searchMs)))} at the large scale`,
			},
		];
	},
};
