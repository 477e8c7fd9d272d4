/**
 * Runs only the natural-question evaluation: `npx tsx bench/natural/run.ts [--all] [--class <c>] [--json <file>]`.
 * Prints the scores overall and per class, then every question whose answer is not in the top 5 (all questions
 * with --all; one class with --class), with the words of the question its answer lacks. --json writes every
 * outcome (to diff two runs). Exit code 1 when the set breaks its own rules.
 */
import { writeFileSync } from "node:fs";
import type { WrittenEvent } from "./corpus.js";
import { type NaturalOutcome, type NaturalReport, type NaturalScores, runNaturalEval, weakNote } from "./eval.js";
import { contentWords, tokens } from "./words.js";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function scoreLine(label: string, s: NaturalScores): string {
	return `${label.padEnd(44)}${pct(s.recallAt1).padStart(8)}${pct(s.recallAt5).padStart(10)}${s.mrr.toFixed(3).padStart(8)}${pct(s.zeroHit).padStart(10)}`;
}

function outcomeLine(o: NaturalOutcome, answerText: (key: string) => string): string {
	const answer = answerText(o.answers[0]);
	const have = new Set(tokens(answer));
	const missing = contentWords(o.text).filter((w) => !have.has(w));
	const rank = (r: number | null) => (r === null ? "-" : String(r));
	return [
		`  [${o.cls}] ${o.text}`,
		`      rank ${rank(o.rank)} (${o.hits} hits)  keywords ${rank(o.keywordRank)} (${o.keywordHits})  bm25-OR ${rank(o.bm25Rank)}   missing: ${missing.join(" ")}${o.error ? `   error: ${o.error}` : ""}`,
		`      answer (${o.session}): ${answer.replace(/\s+/g, " ").slice(0, 140)}`,
	].join("\n");
}

/** The whole plain-text report. */
export function formatNaturalReport(
	report: NaturalReport,
	events: Map<string, WrittenEvent>,
	all: boolean,
	onlyClass?: string,
): string {
	const header = `${"".padEnd(44)}${"R@1".padStart(8)}${"R@5".padStart(10)}${"MRR".padStart(8)}${"zero-hit".padStart(10)}`;
	const lines = [`natural-question evaluation: ${report.questions} questions`, header];
	for (const r of report.rows) lines.push(scoreLine(r.ranking, r));
	lines.push(`event_search as asked: ${weakNote(report.outcomes)}`);
	for (const c of report.byClass) {
		lines.push("", `class ${c.cls} (${c.count})`);
		for (const r of c.rows) lines.push(scoreLine(`  ${r.ranking}`, r));
	}
	const shown = report.outcomes.filter(
		(o) => (all || o.rank === null || o.rank > 5) && (onlyClass === undefined || o.cls === onlyClass),
	);
	lines.push("", `${all ? "all questions" : "missed (answer not in the top 5)"}: ${shown.length}`);
	const text = (key: string) => events.get(key)?.text ?? "(not written)";
	for (const o of shown) lines.push(outcomeLine(o, text));
	const ms = report.outcomes.map((o) => o.ms).sort((x, y) => x - y);
	const at = (p: number) => (ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0).toFixed(1);
	lines.push(
		"",
		`build ${report.timings.buildMs.toFixed(0)} ms; project queries ${report.timings.queryMs.toFixed(0)} ms; bm25-OR ${report.timings.bm25Ms.toFixed(0)} ms`,
		`event_search per question as asked: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (small corpus; bench figure 4 measures speed)`,
		...[...report.outcomes]
			.sort((x, y) => y.ms - x.ms)
			.slice(0, 3)
			.map((o) => `  slow: ${o.ms.toFixed(1)} ms  ${o.text}`),
	);
	if (report.problems.length > 0)
		lines.push(`SET PROBLEMS (${report.problems.length}):`, ...report.problems.map((p) => `  ${p}`));
	return lines.join("\n");
}

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const all = argv.includes("--all");
const onlyClass = option("--class");
const jsonPath = option("--json");
const events = new Map<string, WrittenEvent>();
runNaturalEval((corpus) => {
	for (const e of corpus.events) events.set(e.key, e);
}).then(
	(r) => {
		console.log(formatNaturalReport(r, events, all, onlyClass));
		if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify(r.outcomes, null, 1)}\n`);
		if (r.problems.length > 0) process.exitCode = 1;
	},
	(err) => {
		console.error(`natural eval: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
		process.exitCode = 1;
	},
);
