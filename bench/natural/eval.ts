/**
 * The natural-question evaluation: builds the set's corpus (corpus.ts), asks every question as written through the
 * project's `searchEvents` (the same path as bench/ranking/eval.ts) and through plain bm25 with the content words
 * OR-ed (baseline.ts), and reports recall@1, recall@5, MRR and the zero-hit rate for both, overall and per class.
 * `runNaturalEval()` is what `npm run bench` calls; `naturalFigureRows` formats its table rows.
 */
// The query services' public entry (not their internal files): the evaluation survives a re-split of the search.
import { type CallerContext, DEFAULT_BUDGETS, searchEvents } from "../../src/query/index.js";
import type { FigureRow } from "../figures/types.js";
import { buildBm25OrIndex } from "./baseline.js";
import { buildNaturalCorpus, type NaturalCorpus, type ResolvedQuestion } from "./corpus.js";
import { QUESTION_CLASSES, type QuestionClass } from "./set.js";
import { checkNaturalSet } from "./set-check.js";
import { contentWords } from "./words.js";

/** Hits asked for per question (event_search's default limit); an answer further down is not found. */
const NATURAL_DEPTH = 10;
/** Goal of the issue: the project's recall@5 at least this far above bm25-OR. */
const RECALL5_MARGIN_GOAL = 0.15;
/** Goal of the issue: at most this share of questions without any hit. */
const ZERO_HIT_GOAL = 0.01;

/** Quality of one search over a list of questions. */
export interface NaturalScores {
	ranking: string;
	recallAt1: number;
	recallAt5: number;
	/** Mean reciprocal rank within NATURAL_DEPTH. */
	mrr: number;
	/** Share of questions that got no hit at all. */
	zeroHit: number;
}

/** One question's outcome under each search (rank: 1-based rank of its best answer, null when not found). */
export interface NaturalOutcome extends ResolvedQuestion {
	rank: number | null;
	hits: number;
	/** The project asked with the content words only (the second query form). */
	/** The answer to the question as asked said its best matches are weak (`weakMatches`). */
	weak: boolean;
	keywordRank: number | null;
	keywordHits: number;
	bm25Rank: number | null;
	bm25Hits: number;
	/** Error text when the project rejected the question (counts as zero hits). */
	error?: string;
	/** Time of the project's search for the question as asked (informative: the corpus is small). */
	ms: number;
}

/** Everything the evaluation measured. */
export interface NaturalReport {
	questions: number;
	/** Project (question as asked), project (content words), bm25-OR. */
	rows: [NaturalScores, NaturalScores, NaturalScores];
	byClass: Array<{ cls: QuestionClass; count: number; rows: [NaturalScores, NaturalScores, NaturalScores] }>;
	outcomes: NaturalOutcome[];
	/** Violations of the set's own rules (set-check.ts); should be empty. */
	problems: string[];
	timings: { buildMs: number; queryMs: number; bm25Ms: number };
}

/** Scores of a list of (rank, hit count) outcomes. */
export function scoreOutcomes(ranking: string, outcomes: ReadonlyArray<{ rank: number | null; hits: number }>) {
	const n = outcomes.length || 1;
	const within = (k: number) => outcomes.filter((o) => o.rank !== null && o.rank <= k).length / n;
	const mrr = outcomes.reduce((sum, o) => sum + (o.rank === null || o.rank > NATURAL_DEPTH ? 0 : 1 / o.rank), 0) / n;
	const zeroHit = outcomes.filter((o) => o.hits === 0).length / n;
	return { ranking, recallAt1: within(1), recallAt5: within(5), mrr, zeroHit } satisfies NaturalScores;
}

function caller(corpus: NaturalCorpus): CallerContext {
	return {
		cwd: corpus.root,
		authorization: { extraRoots: [], allRoots: true },
		budgets: { ...DEFAULT_BUDGETS, searchLimit: NATURAL_DEPTH },
	};
}

/** The project's hits for `query` as event keys and whether it said they are weak, or the error it answered with. */
function projectKeys(corpus: NaturalCorpus, query: string): { keys: string[]; weak: boolean; error?: string } {
	try {
		const result = searchEvents(corpus.db, { query }, caller(corpus));
		return { keys: result.hits.map((h) => `${h.sessionId}/${h.entryId}`), weak: result.weakMatches !== undefined };
	} catch (err) {
		return { keys: [], weak: false, error: err instanceof Error ? err.message : String(err) };
	}
}

/** Share of `outcomes` whose answer said "weak matches", overall and by whether the answer is in the top 5. */
function weakShares(outcomes: readonly NaturalOutcome[]): { all: number; at5: number; missed: number } {
	const share = (list: readonly NaturalOutcome[]) => list.filter((o) => o.weak).length / (list.length || 1);
	const at5 = (o: NaturalOutcome) => o.rank !== null && o.rank <= 5;
	return { all: share(outcomes), at5: share(outcomes.filter(at5)), missed: share(outcomes.filter((o) => !at5(o))) };
}

function rankIn(keys: readonly string[], answers: readonly string[]): number | null {
	const i = keys.findIndex((k) => answers.includes(k));
	return i < 0 ? null : i + 1;
}

function scoreRows(outcomes: readonly NaturalOutcome[]): [NaturalScores, NaturalScores, NaturalScores] {
	return [
		scoreOutcomes("event_search, question as asked", outcomes),
		scoreOutcomes(
			"event_search, content words",
			outcomes.map((o) => ({ rank: o.keywordRank, hits: o.keywordHits })),
		),
		scoreOutcomes(
			"plain bm25, content words OR-ed",
			outcomes.map((o) => ({ rank: o.bm25Rank, hits: o.bm25Hits })),
		),
	];
}

/** Evaluates every question of an already built corpus. */
export function evaluateNatural(
	corpus: NaturalCorpus,
): Omit<NaturalReport, "timings"> & { queryMs: number; bm25Ms: number } {
	const bm25 = buildBm25OrIndex(corpus.events);
	const outcomes: NaturalOutcome[] = [];
	let queryMs = 0;
	let bm25Ms = 0;
	try {
		for (const question of corpus.questions) {
			let t = performance.now();
			const asked = projectKeys(corpus, question.text);
			const ms = performance.now() - t;
			const keywords = projectKeys(corpus, contentWords(question.text).join(" "));
			queryMs += performance.now() - t;
			t = performance.now();
			const bm25Keys = bm25.search(question.text, NATURAL_DEPTH);
			bm25Ms += performance.now() - t;
			outcomes.push({
				...question,
				rank: rankIn(asked.keys, question.answers),
				hits: asked.keys.length,
				weak: asked.weak,
				keywordRank: rankIn(keywords.keys, question.answers),
				keywordHits: keywords.keys.length,
				bm25Rank: rankIn(bm25Keys, question.answers),
				bm25Hits: bm25Keys.length,
				ms,
				...(asked.error !== undefined ? { error: asked.error } : {}),
			});
		}
	} finally {
		bm25.close();
	}
	const byClass = QUESTION_CLASSES.map((cls) => {
		const of = outcomes.filter((o) => o.cls === cls);
		return { cls, count: of.length, rows: scoreRows(of) };
	});
	return {
		questions: outcomes.length,
		rows: scoreRows(outcomes),
		byClass,
		outcomes,
		problems: checkNaturalSet(corpus),
		queryMs,
		bm25Ms,
	};
}

/** Builds the corpus, evaluates, cleans up; `onCorpus` sees the corpus before it is removed. */
export async function runNaturalEval(onCorpus?: (corpus: NaturalCorpus) => void): Promise<NaturalReport> {
	const t = performance.now();
	const corpus = await buildNaturalCorpus();
	const buildMs = performance.now() - t;
	try {
		onCorpus?.(corpus);
		const { queryMs, bm25Ms, ...r } = evaluateNatural(corpus);
		return { ...r, timings: { buildMs, queryMs, bm25Ms } };
	} finally {
		corpus.close();
	}
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** How often event_search said "weak matches" (every question of the set has an answer). */
export function weakNote(outcomes: readonly NaturalOutcome[]): string {
	const w = weakShares(outcomes);
	return `it said "weak matches" for ${pct(w.all)} (answer in the top 5: ${pct(w.at5)}, not: ${pct(w.missed)})`;
}

/** The report as rows of the bench table: the project (question as asked) against bm25-OR, one row per metric. */
export function naturalFigureRows(report: NaturalReport): FigureRow[] {
	const [ours, keywords, bm25] = report.rows;
	const set = `${report.questions} natural questions`;
	const rejected = report.outcomes.filter((o) => o.error !== undefined).length;
	const note = [
		report.problems.length > 0 ? `set problems: ${report.problems.slice(0, 5).join("; ")}` : undefined,
		rejected > 0 ? `event_search rejected ${rejected} question(s) (counted as zero hits)` : undefined,
		`${set} in ${QUESTION_CLASSES.length} classes; with the content words only, event_search has recall@5 ${pct(keywords.recallAt5)}, zero hits ${pct(keywords.zeroHit)}`,
		weakNote(report.outcomes),
	]
		.filter((x) => x !== undefined)
		.join("; ");
	const row = (name: string, a: number, b: number, fmt: (x: number) => string, goal: string, met: boolean | null) => ({
		figure: `9 Natural questions ${name}, ${set}`,
		measured: fmt(a),
		baseline: `${fmt(b)} bm25-OR`,
		ratio: b > 0 ? `${(a / b).toFixed(2)}×` : "—",
		goal,
		met,
		note,
	});
	return [
		row("recall@1", ours.recallAt1, bm25.recallAt1, pct, "report", null),
		row(
			"recall@5",
			ours.recallAt5,
			bm25.recallAt5,
			pct,
			`≥ bm25-OR + ${RECALL5_MARGIN_GOAL * 100} points`,
			ours.recallAt5 >= bm25.recallAt5 + RECALL5_MARGIN_GOAL,
		),
		row("MRR", ours.mrr, bm25.mrr, (x) => x.toFixed(3), "report", null),
		row("zero-hit rate", ours.zeroHit, bm25.zeroHit, pct, `≤ ${ZERO_HIT_GOAL * 100} %`, ours.zeroHit <= ZERO_HIT_GOAL),
	];
}
