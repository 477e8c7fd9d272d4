/**
 * Figure 8: hot-path sync latency p95 in one process while another process runs a full catch-up of the large
 * corpus into the same index, against the same hot path with no catch-up running.
 */
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateOne } from "../corpus/generate.js";
import { CORPUS_ROOT_CWD } from "../corpus/markers.js";
import { runChild } from "../lib/child.js";
import { warmFiles } from "../lib/files.js";
import { fmtMs, percentile } from "../lib/measure.js";
import type { ColdBuildResult } from "./cold-build.js";
import { type Figure, ratioText, scaleLabel, skippedRow } from "./types.js";

interface HotResult {
	skipped?: string;
	times: number[];
	/** Syncs that gave up waiting for the write lock (the tool call answered from the index as it was). */
	busy: number;
	leafId: string;
}

export const contention: Figure = {
	name: "contention",
	async run(ctx) {
		const figure = `8 Hot-path sync p95 during another process's full catch-up (${scaleLabel(ctx.large)})`;
		if (!ctx.project.ok) return [skippedRow(figure, "report", ctx.project.reason ?? "")];
		const dir = join(ctx.workDir, "contention");
		rmSync(dir, { recursive: true, force: true });
		// The hot file lives outside the corpus so the cached corpus stays untouched.
		const hot = generateOne(join(dir, "hot.jsonl"), {
			bytes: 20 * 1024,
			seed: 201,
			cwd: `${CORPUS_ROOT_CWD}/work/hot`,
		});
		const indexDir = join(dir, "index");
		const count = ctx.quick ? 15 : 60;
		const hotArgs = {
			agentDir: ctx.large.agentDir,
			indexDir,
			file: hot.file,
			lastMs: hot.lastMs,
			intervalMs: 20,
			maxMs: 20 * 60_000,
		};
		ctx.log("contention: hot-path syncs alone");
		const alone = await runChild<HotResult>("hot-sync", { ...hotArgs, leafId: hot.leafId, count, offset: 0 });
		if (alone.skipped) return [skippedRow(figure, "report", alone.skipped)];
		// Fresh index: the other process must do a full catch-up while this one syncs.
		rmSync(indexDir, { recursive: true, force: true });
		const stopFile = join(dir, "stop");
		warmFiles(ctx.large.sessionsDir);
		ctx.log("contention: hot-path syncs during a full catch-up");
		const build = runChild<ColdBuildResult>("cold-build", {
			agentDir: ctx.large.agentDir,
			indexDir,
			keepIndex: true,
		}).finally(() => writeFileSync(stopFile, ""));
		const during = runChild<HotResult>("hot-sync", { ...hotArgs, leafId: alone.leafId, stopFile, offset: 100_000 });
		const [b, d] = await Promise.all([build, during]);
		if (existsSync(stopFile)) rmSync(stopFile);
		const p95 = percentile(d.times, 0.95);
		const base = percentile(alone.times, 0.95);
		return [
			{
				figure,
				measured: `p95 ${fmtMs(p95)}, max ${fmtMs(Math.max(...d.times))} (${d.times.length} syncs)`,
				baseline: `p95 ${fmtMs(base)} alone (${alone.times.length} syncs)`,
				ratio: ratioText(p95 / base),
				goal: "p95 ≤ 20 ms, max ≤ 100 ms",
				met: p95 <= 20 && Math.max(...d.times) <= 100,
				note: `catch-up took ${fmtMs(b.ms)} in the other process; p50 ${fmtMs(percentile(d.times, 0.5))}, p99 ${fmtMs(percentile(d.times, 0.99))}; ${d.busy} of ${d.times.length} syncs gave up waiting for the lock (answered from the index as it was)`,
			},
		];
	},
};
