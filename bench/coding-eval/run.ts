/**
 * Runs only the coding eval: `npx tsx bench/coding-eval/run.ts [--half held|tune|both] [--kind <k>] [--misses]
 * [--json <file>]`. Needs the converted corpus (env PEI_CODING_CORPUS, else /work/.cache/coding-eval/sessions; see
 * docs/coding-eval.md); says so and exits 0 when there is none. Prints both searches' scores by kind for the held-back
 * half (or the one asked), then, with --misses, every question whose gold is not in the project's top 5.
 */
import { writeFileSync } from "node:fs";
import { type CodingReport, type CodingScores, runCodingEval } from "./eval.js";
import { KIND_LABELS, type QuestionKind } from "./questions.js";
import { corpusDir } from "./sources.js";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(7);

function line(label: string, s: CodingScores, absent: boolean, says: boolean): string {
	const weak = says ? `  says weak ${pct(s.weak).trim()}` : "";
	const cells = absent
		? `${"".padStart(21)}${pct(s.anyHit)}  any hit   ${pct(s.fullHit)}  a hit with every term${weak}`
		: `${pct(s.recallAt5)}${pct(s.recallAt10)}${s.mrr.toFixed(3).padStart(7)}${pct(s.sessionAt5)}${weak}`;
	return `${label.padEnd(30)}${String(s.n).padStart(5)}${cells}`;
}

/** How often event_search said "weak matches" for answerable questions, by whether the gold is in its top 5. */
function weakLine(s: CodingScores): string {
	return `  says "weak matches": gold in the top 5 ${pct(s.weakGoldAt5).trim()}, gold not in the top 5 ${pct(s.weakGoldMissed).trim()}`;
}

/** The plain-text report of one or both halves. */
export function formatCodingReport(r: CodingReport, halves: string[], kind?: string, misses = false): string {
	const out = [
		`coding eval: ${r.sessions} sessions of ${r.projects} projects, ${r.events} events, ${r.questions} questions`,
	];
	for (const h of r.halves.filter((x) => halves.includes(x.half))) {
		out.push("", `${h.half === "held" ? "held-back" : "tune"} half${"".padEnd(20)}    n    R@5   R@10    MRR  sess@5`);
		for (const row of h.rows) {
			const absent = row.kind === "absent";
			out.push(`${row.kind === "all" ? "all answerable" : `${row.kind}: ${KIND_LABELS[row.kind as QuestionKind]}`}`);
			out.push(
				line("  event_search, as asked", row.project, absent, true),
				line("  bm25-OR, same workspace", row.bm25, absent, false),
			);
			if (row.kind === "all") out.push(weakLine(row.project));
		}
	}
	if (misses) {
		const shown = r.outcomes.filter(
			(o) => halves.includes(o.half) && o.kind !== "absent" && (kind === undefined || o.kind === kind),
		);
		out.push("", "questions whose gold is not in event_search's top 5:");
		for (const o of shown.filter((x) => x.project.rank === null || x.project.rank > 5))
			out.push(
				`  [${o.id} ${o.kind}] ${o.text}   rank ${o.project.rank ?? "-"}  bm25 ${o.bm25.rank ?? "-"}${o.project.error ? `  error: ${o.project.error}` : ""}`,
			);
	}
	if (r.problems.length > 0) out.push("", `SET PROBLEMS (${r.problems.length}):`, ...r.problems.map((p) => `  ${p}`));
	const t = r.timings;
	out.push(
		"",
		`index ${(t.buildMs / 1000).toFixed(1)} s; event_search ${(t.projectMs / 1000).toFixed(1)} s; bm25-OR ${(t.bm25Ms / 1000).toFixed(1)} s`,
	);
	return out.join("\n");
}

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const half = option("--half") ?? "held";
const dir = corpusDir();
runCodingEval(dir).then(
	(r) => {
		if (r === null) {
			console.log(`coding eval skipped: no converted corpus at ${dir} (docs/coding-eval.md says how to make one)`);
			return;
		}
		const halves = half === "both" ? ["held", "tune"] : [half];
		console.log(formatCodingReport(r, halves, option("--kind"), argv.includes("--misses")));
		const json = option("--json");
		if (json) writeFileSync(json, `${JSON.stringify(r.outcomes, null, 1)}\n`);
		if (r.problems.length > 0) process.exitCode = 1;
	},
	(err) => {
		console.error(`coding eval: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
		process.exitCode = 1;
	},
);
