/**
 * Figure 4: search latency p50/p95 over the fixed query set on the large corpus, against ripgrep over the same
 * JSONL files and against Pi's own SessionManager.listAll() (what /resume reads).
 */
import { spawnSync } from "node:child_process";
import { BENCH_QUERIES, type BenchQuery } from "../corpus/markers.js";
import { realWordQueries } from "../corpus/real-queries.js";
import { runChild } from "../lib/child.js";
import { fmtMs, median, now, percentile } from "../lib/measure.js";
import { type Figure, type FigureRow, ratioText, scaleLabel, skippedRow } from "./types.js";

/** Whether `rg` is on PATH (and its version line). */
export function ripgrepVersion(): string | null {
	const r = spawnSync("rg", ["--version"], { encoding: "utf8" });
	return r.status === 0 ? r.stdout.split("\n")[0] : null;
}

/** Time `rg -c -F -i <pattern> <dir>` (counts per file: scans every byte, prints little). */
export function timeRipgrep(pattern: string, dir: string): { ms: number; matchingLines: number } {
	const t = now();
	const r = spawnSync("rg", ["-c", "-F", "-i", "--no-messages", pattern, dir], {
		encoding: "utf8",
		maxBuffer: 64 << 20,
	});
	const ms = now() - t;
	if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed (${r.status}): ${r.stderr}`);
	let matchingLines = 0;
	for (const line of r.stdout.split("\n")) {
		const n = Number(line.slice(line.lastIndexOf(":") + 1));
		if (line && Number.isFinite(n)) matchingLines += n;
	}
	return { ms, matchingLines };
}

const GOAL = "≥ 20× faster than rg";

export const search: Figure = {
	name: "search",
	async run(ctx) {
		const rows: FigureRow[] = [];
		const m = ctx.large;
		// An external corpus (bigcorpus.py) has no planted markers: its classes are real words.
		const queries: readonly BenchQuery[] = m.generatorVersion === 0 ? realWordQueries(m) : BENCH_QUERIES;
		const label = scaleLabel(m);
		// ripgrep over the same files.
		const rgVersion = ripgrepVersion();
		const rgTimes: number[] = [];
		const rgChecks: string[] = [];
		if (rgVersion) {
			const reps = ctx.quick ? 2 : 3;
			ctx.log(`ripgrep: ${queries.length} queries × ${reps}`);
			timeRipgrep(queries[0].rgPattern, m.sessionsDir); // warm the page cache
			for (let r = 0; r < reps; r++) {
				for (const q of queries) {
					const res = timeRipgrep(q.rgPattern, m.sessionsDir);
					rgTimes.push(res.ms);
					if (r === 0 && q.marker && res.matchingLines !== m.markers[q.marker])
						rgChecks.push(`${q.name}: rg ${res.matchingLines} lines, generator ${m.markers[q.marker]}`);
				}
			}
		}
		// Pi's listAll over the same agent dir.
		ctx.log("Pi SessionManager.listAll()");
		const la = await runChild<{ times: number[]; sessions: number; peakRss: number }>(
			"list-all",
			{ reps: ctx.quick ? 2 : 3 },
			{ env: { PI_CODING_AGENT_DIR: m.agentDir }, nodeArgs: ["--max-old-space-size=8192"] },
		);
		// The index.
		let idx: { times: number[][]; hits: number[]; skipped?: string } | undefined;
		if (ctx.project.ok && ctx.indexDirs.large) {
			ctx.log(`index search: ${queries.length} queries`);
			idx = await runChild("search", {
				agentDir: m.agentDir,
				indexDir: ctx.indexDirs.large,
				queries: queries.map((q) => q.request),
				reps: ctx.quick ? 5 : 20,
			});
		}
		const reason = idx?.skipped ?? ctx.project.reason ?? "no index built";
		const all = idx && !idx.skipped ? idx.times.flat() : [];
		const rgNote = rgVersion
			? `${rgVersion}, \`rg -c -F -i\`, ${rgTimes.length} runs${rgChecks.length ? `; count mismatch: ${rgChecks.join("; ")}` : ""}`
			: "ripgrep not found: install ripgrep (`apt-get install -y ripgrep`) to measure this baseline";
		for (const [q, name] of [
			[0.5, "p50"],
			[0.95, "p95"],
		] as const) {
			const figure = `4 Search ${name} vs rg, ${label}`;
			const base = rgVersion ? fmtMs(percentile(rgTimes, q)) : "skipped (no rg)";
			if (!all.length) {
				rows.push({ ...skippedRow(figure, GOAL, reason, base), note: `${reason}; ${rgNote}` });
				continue;
			}
			const ratio = percentile(rgTimes, q) / percentile(all, q);
			rows.push({
				figure,
				measured: fmtMs(percentile(all, q)),
				baseline: base,
				ratio: rgVersion ? ratioText(ratio, " faster") : "—",
				goal: GOAL,
				met: rgVersion ? ratio >= 20 : null,
				note: rgNote,
			});
		}
		// One row per query class: in-process p50/p95 against the issue's target (≤ 30 ms p95, rare ≤ 5 ms).
		if (idx && !idx.skipped) {
			queries.forEach((q, i) => {
				const times = idx?.times[i] ?? [];
				const target = q.name === "rare term" ? 5 : 30;
				rows.push({
					figure: `4 Search class: ${q.name}, ${label}`,
					measured: `p50 ${fmtMs(percentile(times, 0.5))}, p95 ${fmtMs(percentile(times, 0.95))}`,
					baseline: "—",
					ratio: "—",
					goal: `p95 ≤ ${target} ms`,
					met: ctx.quick ? null : percentile(times, 0.95) <= target,
					note: `${idx?.hits[i]} hits`,
				});
			});
		}
		const laMs = median(la.times);
		const hitNote =
			idx && !idx.skipped
				? `per query (hits, p50): ${queries.map((q, i) => `${q.name} ${idx?.hits[i]}, ${fmtMs(median(idx?.times[i] ?? []))}`).join("; ")}`
				: reason;
		rows.push({
			figure: `4 Search p50 vs Pi listAll() (/resume), ${label}`,
			measured: all.length ? fmtMs(percentile(all, 0.5)) : "skipped",
			baseline: `${fmtMs(laMs)} for ${la.sessions.toLocaleString("en-US")} sessions`,
			ratio: all.length ? ratioText(laMs / percentile(all, 0.5), " faster") : "—",
			goal: "report",
			met: null,
			note: hitNote,
		});
		return rows;
	},
};
