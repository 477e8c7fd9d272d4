/**
 * The ranking evaluation: builds the set's corpus with real Pi (corpus.ts), runs every query through
 * `searchEvents` (the shipped ranking) and through plain bm25 (baseline.ts), and reports recall@1, recall@5 and
 * MRR for both. `runRankingEval()` is what `npm run bench` calls; `rankingFigureRows` formats its table rows.
 */
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import type { CallerContext } from "../../src/query/caller.js";
import { searchEvents } from "../../src/query/search.js";
import { decodedSql } from "../../src/store/column-codes.js";
import { compileQuery } from "../../src/text/query-compiler.js";
import type { FigureRow } from "../figures/types.js";
import { plainBm25Search } from "./baseline.js";
import { buildRankingCorpus, type RankingCorpus } from "./corpus.js";
import { EVAL_QUERIES, type EvalQuery } from "./set.js";

/** Hits per query (event_search's default limit): a target further down counts as not found (reciprocal rank 0). */
const EVAL_DEPTH = 10;
/** How deep plain bm25's rank is reported (its candidate limit), to show how far down it puts a target. */
const BM25_REPORT_DEPTH = 500;
/** A tool output at least this long counts as "long" for the set's checks. */
const LONG_OUTPUT_CHARS = 5000;

/** Quality of one ranking over the set. */
export interface RankingScores {
	ranking: string;
	recallAt1: number;
	recallAt5: number;
	/** Mean reciprocal rank within EVAL_DEPTH (MRR@10: 0 for a target further down). */
	mrr: number;
}

/** One query's outcome: the 1-based rank of its target under each ranking (null: not found that deep). */
interface QueryOutcome extends EvalQuery {
	rank: number | null;
	bm25Rank: number | null;
	/** Long tool outputs that match the whole query, and in how many sessions. */
	longOutputs: number;
	longOutputSessions: number;
}

/** What the evaluation measured. */
export interface RankingReport {
	queries: number;
	statementQueries: number;
	toolOutputQueries: number;
	/** The shipped ranking, then plain bm25. */
	rows: [RankingScores, RankingScores];
	outcomes: QueryOutcome[];
	/** Violations of the set's own rules (should be empty): see `checkSet`. */
	problems: string[];
	timings: { buildMs: number; queryMs: number; bm25Ms: number };
}

/** Recall@1, recall@5 and MRR of a list of ranks. */
function scoreRanks(ranking: string, ranks: readonly (number | null)[]): RankingScores {
	const n = ranks.length || 1;
	const within = (k: number) => ranks.filter((r) => r !== null && r <= k).length / n;
	const mrr = ranks.reduce<number>((sum, r) => sum + (r === null || r > EVAL_DEPTH ? 0 : 1 / r), 0) / n;
	return { ranking, recallAt1: within(1), recallAt5: within(5), mrr };
}

/** A caller that may read every session of the corpus, with the deepest result list the budgets allow. */
export function evalCaller(corpus: RankingCorpus): CallerContext {
	return {
		cwd: corpus.cwd,
		authorization: { extraRoots: [], allRoots: true },
		budgets: { ...DEFAULT_BUDGETS, searchLimit: EVAL_DEPTH },
	};
}

/** Event keys best first as event_search returns them. */
function rankedKeys(corpus: RankingCorpus, query: string): string[] {
	return searchEvents(corpus.db, { query }, evalCaller(corpus)).hits.map((h) => `${h.sessionId}/${h.entryId}`);
}

interface MatchRow {
	sessionId: string;
	entryId: string;
	kind: string;
	charCount: number;
}

function matches(corpus: RankingCorpus, query: string): MatchRow[] {
	const compiled = compileQuery(query);
	if (!compiled.ok) throw new Error(compiled.error);
	return corpus.db
		.prepare(
			`SELECT s.session_id AS sessionId, e.entry_id AS entryId, ${decodedSql("kind", "f.kind")} AS kind, f.char_count AS charCount
			FROM fragments_fts JOIN fragments f ON f.id = fragments_fts.rowid
			JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
			JOIN sources s ON s.id = f.source_id
			WHERE fragments_fts MATCH ?`,
		)
		.all(compiled.match) as MatchRow[];
}

const OUTPUT_KINDS = new Set(["tool_result", "bash_output"]);
const TOOL_KINDS = new Set(["tool_result", "bash_output", "tool_call", "bash_command", "custom_data"]);

/**
 * The set's rules, checked on the built corpus: a statement query matches its target, no other conversational
 * event, and long tool outputs in at least two sessions; a tool-output query matches only its target event.
 */
function checkSet(corpus: RankingCorpus, query: EvalQuery): { problems: string[]; long: MatchRow[] } {
	const problems: string[] = [];
	const target = corpus.targets.get(query.target);
	if (target === undefined) return { problems: [`${query.query}: target ${query.target} was not written`], long: [] };
	const rows = matches(corpus, query.query);
	const key = (r: MatchRow) => `${r.sessionId}/${r.entryId}`;
	if (!rows.some((r) => key(r) === target)) problems.push(`${query.query}: does not match its target`);
	const long = rows.filter((r) => OUTPUT_KINDS.has(r.kind) && r.charCount >= LONG_OUTPUT_CHARS);
	if (query.shape === "statement") {
		const others = rows.filter((r) => !TOOL_KINDS.has(r.kind) && key(r) !== target);
		if (others.length > 0) problems.push(`${query.query}: ${others.length} other conversational match(es)`);
		if (new Set(long.map((r) => r.sessionId)).size < 2)
			problems.push(`${query.query}: long tool outputs of fewer than two sessions match`);
	} else if (rows.some((r) => !TOOL_KINDS.has(r.kind))) {
		problems.push(`${query.query}: a conversational event matches a tool-output query`);
	}
	return { problems, long };
}

/** Runs the evaluation on an already built corpus. */
export function evaluate(corpus: RankingCorpus, queries: readonly EvalQuery[] = EVAL_QUERIES) {
	const outcomes: QueryOutcome[] = [];
	const problems: string[] = [];
	let queryMs = 0;
	let bm25Ms = 0;
	for (const q of queries) {
		const check = checkSet(corpus, q);
		problems.push(...check.problems);
		const target = corpus.targets.get(q.target);
		let t = performance.now();
		const keys = rankedKeys(corpus, q.query);
		queryMs += performance.now() - t;
		t = performance.now();
		const bm25Keys = plainBm25Search(corpus.db, q.query, BM25_REPORT_DEPTH);
		bm25Ms += performance.now() - t;
		const rankOf = (list: string[]) => {
			const i = target === undefined ? -1 : list.indexOf(target);
			return i < 0 ? null : i + 1;
		};
		outcomes.push({
			...q,
			rank: rankOf(keys),
			bm25Rank: rankOf(bm25Keys),
			longOutputs: check.long.length,
			longOutputSessions: new Set(check.long.map((r) => r.sessionId)).size,
		});
	}
	const rows: [RankingScores, RankingScores] = [
		scoreRanks(
			"event_search (weighted bm25 + proximity)",
			outcomes.map((o) => o.rank),
		),
		scoreRanks(
			"plain bm25",
			outcomes.map((o) => o.bm25Rank),
		),
	];
	return { outcomes, problems, rows, queryMs, bm25Ms };
}

/** Builds the corpus with real Pi, evaluates both rankings, cleans up. Well under a minute. */
export async function runRankingEval(): Promise<RankingReport> {
	const t = performance.now();
	const corpus = await buildRankingCorpus();
	const buildMs = performance.now() - t;
	try {
		const r = evaluate(corpus);
		return {
			queries: r.outcomes.length,
			statementQueries: r.outcomes.filter((o) => o.shape === "statement").length,
			toolOutputQueries: r.outcomes.filter((o) => o.shape === "tool-output").length,
			rows: r.rows,
			outcomes: r.outcomes,
			problems: r.problems,
			timings: { buildMs, queryMs: r.queryMs, bm25Ms: r.bm25Ms },
		};
	} finally {
		corpus.close();
	}
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;

/** The report as rows of the bench table: one per metric, event_search measured against plain bm25. */
export function rankingFigureRows(report: RankingReport): FigureRow[] {
	const [ours, bm25] = report.rows;
	const set = `${report.queries} queries (${report.statementQueries} statements, ${report.toolOutputQueries} tool outputs)`;
	const note = report.problems.length > 0 ? `set problems: ${report.problems.join("; ")}` : set;
	const row = (name: string, a: number, b: number, fmt: (x: number) => string, goal: string, met: boolean | null) => ({
		figure: `9 Ranking ${name}, ${set}`,
		measured: fmt(a),
		baseline: `${fmt(b)} plain bm25`,
		ratio: b > 0 ? `${(a / b).toFixed(2)}×` : "—",
		goal,
		met,
		note,
	});
	return [
		row("recall@1", ours.recallAt1, bm25.recallAt1, pct, "report", null),
		row("recall@5", ours.recallAt5, bm25.recallAt5, pct, "100 %", ours.recallAt5 === 1),
		row("MRR", ours.mrr, bm25.mrr, (x) => x.toFixed(3), "≥ 0.9", ours.mrr >= 0.9),
	];
}

/** Plain-text table of the report (for `tsx bench/ranking/eval.ts`). */
function formatRankingReport(report: RankingReport): string {
	const lines = [
		`ranking evaluation: ${report.queries} queries (${report.statementQueries} statement, ${report.toolOutputQueries} tool-output)`,
		"ranking                                    recall@1  recall@5  MRR",
		...report.rows.map(
			(r) => `${r.ranking.padEnd(43)}${pct(r.recallAt1).padEnd(10)}${pct(r.recallAt5).padEnd(10)}${r.mrr.toFixed(3)}`,
		),
		"",
		"query                              target              rank  bm25 rank  long outputs (sessions)",
		...report.outcomes.map(
			(o) =>
				`${o.query.padEnd(35)}${o.target.padEnd(20)}${String(o.rank ?? "-").padEnd(6)}${String(o.bm25Rank ?? `>${BM25_REPORT_DEPTH}`).padEnd(11)}${o.longOutputs} (${o.longOutputSessions})`,
		),
		`build ${report.timings.buildMs.toFixed(0)} ms; queries ${report.timings.queryMs.toFixed(1)} ms (bm25 ${report.timings.bm25Ms.toFixed(1)} ms)`,
	];
	if (report.problems.length > 0) lines.push(`SET PROBLEMS:\n  ${report.problems.join("\n  ")}`);
	return lines.join("\n");
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
	runRankingEval().then(
		(r) => {
			console.log(formatRankingReport(r));
			if (r.problems.length > 0) process.exitCode = 1;
		},
		(err) => {
			console.error(`ranking eval: ${err instanceof Error ? err.message : String(err)}`);
			process.exitCode = 1;
		},
	);
}
