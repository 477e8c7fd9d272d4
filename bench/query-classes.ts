/**
 * `tsx bench/query-classes.ts --agent DIR --index DIR [--reps N] [--only NAME,...]` — in-process search latency per
 * query class on one corpus, building (or catching up) the index first. The same classes as figure 4's class rows:
 * the planted markers for a generated corpus, real words for an external one (bench/corpus/real-queries.ts). For
 * working on search speed without running the whole bench.
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { externalCorpus } from "./corpus/external.js";
import { BENCH_QUERIES } from "./corpus/markers.js";
import { realWordQueries } from "./corpus/real-queries.js";
import { classGoal, classGoalText, meetsClassGoal } from "./figures/search.js";
import { fmtMs, now, percentile } from "./lib/measure.js";
import { loadProjectApi } from "./lib/project-api.js";

const argv = process.argv.slice(2);
const flag = (name: string) => {
	const i = argv.indexOf(name);
	return i === -1 ? undefined : argv[i + 1];
};
const agentDir = flag("--agent");
const indexDir = flag("--index");
if (!agentDir || !indexDir) {
	process.stderr.write("usage: tsx bench/query-classes.ts --agent DIR --index DIR [--reps N] [--only a,b]\n");
	process.exit(2);
}
const reps = Number(flag("--reps") ?? 20);
const only = flag("--only")?.split(",");
const generated = existsSync(join(agentDir, "..", "manifest.json"));
const classes = (generated ? [...BENCH_QUERIES] : realWordQueries(externalCorpus(agentDir))).filter(
	(q) => !only || only.some((o) => q.name.includes(o)),
);
const api = await loadProjectApi();
if (!api.ok) throw new Error(api.reason);
const idx = await api.open({ agentDir, indexDir });
const t0 = now();
await idx.catchUp();
process.stderr.write(`catch-up ${fmtMs(now() - t0)}\n`);
const loadBefore = loadavg()[0];
const times = classes.map(() => [] as number[]);
// CPU time of the process per query: on a busy machine it is still close to what the query costs idle.
const cpu = classes.map(() => [] as number[]);
const hits: number[] = [];
// One untimed round first, as figure 4 does: a running process's latency (its first answer is figure 2).
for (const q of classes) idx.search(q.request);
for (let r = 0; r < reps; r++)
	classes.forEach((q, i) => {
		const c = process.cpuUsage();
		const t = now();
		hits[i] = idx.search(q.request);
		times[i].push(now() - t);
		const used = process.cpuUsage(c);
		cpu[i].push((used.user + used.system) / 1000);
	});
await idx.close();
process.stdout.write(`load average (1 min) ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}\n`);
const width = Math.max(...classes.map((q) => q.name.length));
for (const [i, q] of classes.entries()) {
	const goal = classGoal(q.name);
	const p95 = percentile(times[i], 0.95);
	process.stdout.write(
		`${q.name.padEnd(width)}  p50 ${fmtMs(percentile(times[i], 0.5)).padStart(9)}  p95 ${fmtMs(p95).padStart(9)}  cpu p50 ${fmtMs(percentile(cpu[i], 0.5)).padStart(9)}  ${String(hits[i]).padStart(3)} hits  ${meetsClassGoal(goal, times[i]) ? "ok" : `MISS (${classGoalText(goal)})`}\n`,
	);
}
