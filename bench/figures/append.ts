/** Figure 3: hot-path sync of one appended line to a 10 KB file and to a 100 MB file, alternating. */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd, generateOne } from "../corpus/generate.js";
import { CORPUS_ROOT_CWD } from "../corpus/markers.js";
import { formatBytes } from "../corpus/stats.js";
import { runChild } from "../lib/child.js";
import { fmtMs, percentile } from "../lib/measure.js";
import { type Figure, ratioText, skippedRow } from "./types.js";

const GOAL = "≤ 1.5×";

export const append: Figure = {
	name: "append",
	async run(ctx) {
		const bigBytes = ctx.quick ? 10 * 1024 * 1024 : 100 * 1024 * 1024;
		const figure = `3 Append one line: ${formatBytes(bigBytes)} file vs 10 KiB file (sync p50)`;
		if (!ctx.project.ok) return [skippedRow(figure, GOAL, ctx.project.reason ?? "")];
		const agentDir = join(ctx.workDir, "append-agent");
		rmSync(agentDir, { recursive: true, force: true });
		const cwd = `${CORPUS_ROOT_CWD}/work/append-target`;
		const dir = join(agentDir, "sessions", encodeCwd(cwd));
		ctx.log(`append: generating a ${formatBytes(bigBytes)} session`);
		const small = generateOne(join(dir, "small.jsonl"), { bytes: 10 * 1024, seed: 101, cwd });
		const big = generateOne(join(dir, "big.jsonl"), { bytes: bigBytes, seed: 102, cwd });
		const reps = ctx.quick ? 8 : 25;
		const res = await runChild<{ skipped?: string; initialMs: number; times: number[][] }>("append", {
			agentDir,
			indexDir: join(ctx.workDir, "index-append"),
			reps,
			files: [small, big].map((f) => ({ file: f.file, leafId: f.leafId, lastMs: f.lastMs })),
		});
		if (res.skipped) return [skippedRow(figure, GOAL, res.skipped)];
		const [ts, tb] = res.times;
		const ratio = percentile(tb, 0.5) / percentile(ts, 0.5);
		return [
			{
				figure,
				measured: `p50 ${fmtMs(percentile(tb, 0.5))}, p95 ${fmtMs(percentile(tb, 0.95))}`,
				baseline: `p50 ${fmtMs(percentile(ts, 0.5))}, p95 ${fmtMs(percentile(ts, 0.95))}`,
				ratio: ratioText(ratio),
				goal: GOAL,
				met: ratio <= 1.5,
				note: `${reps} appends each, alternating; initial index of both files ${fmtMs(res.initialMs)}`,
			},
		];
	},
};
