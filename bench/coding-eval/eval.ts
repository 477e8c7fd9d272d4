/**
 * The coding eval: real agent sessions of public repositories converted to Pi sessions (convert.ts), questions a
 * developer asks weeks later (questions.json), each asked through the project's `searchEvents` standing in the
 * question's workspace and through plain bm25 with the content words OR-ed over the same workspace's events. Reports
 * entry recall@5/@10, MRR@10 and session recall@5 by question kind and half, and for questions with no answer how
 * often a hit came back and how often one held every term. Runs only when the converted corpus exists.
 */
import { type CallerContext, DEFAULT_BUDGETS, searchEvents } from "../../src/query/index.js";
import type { FigureRow } from "../figures/types.js";
import { contentWords, tokens } from "../natural/words.js";
import { buildWorkspaceBm25 } from "./baseline.js";
import { checkAgainstCorpus, checkQuestions } from "./check-set.js";
import {
	type CodingQuestion,
	goldSession,
	type Half,
	halfOf,
	loadQuestions,
	QUESTION_KINDS,
	type QuestionKind,
} from "./questions.js";
import { type CodingStore, loadCorpusIndex, openCodingStore } from "./store.js";

/** Hits asked for per question (event_search's default limit). */
const CODING_DEPTH = 10;

/** One search's answer to one question. */
interface Answer {
	/** 1-based rank of the first gold event, null when not in the hits. */
	rank: number | null;
	/** Whether a gold session owns one of the first five hits. */
	sessionAt5: boolean;
	hits: number;
	/** Hits presented as holding every term (the project's hits without missingTerms; bm25: text holding every content word). */
	fullHits: number;
	/** The answer said its best matches are weak (event_search's `weakMatches`; bm25 never says so). */
	weak: boolean;
	keys: string[];
	error?: string;
}

/** One question's outcome under both searches. */
interface CodingOutcome extends CodingQuestion {
	half: Half;
	project: Answer;
	bm25: Answer;
	ms: number;
}

/** Quality of one search over a list of questions. */
export interface CodingScores {
	n: number;
	recallAt5: number;
	recallAt10: number;
	mrr: number;
	sessionAt5: number;
	/** Share of questions with at least one hit (reported for `absent`). */
	anyHit: number;
	/** Share of questions whose hits include one holding every term (reported for `absent`). */
	fullHit: number;
	/** Share of questions whose answer said its best matches are weak. */
	weak: number;
	/** The same among questions whose gold is in the top 5, and among the others (NaN when there are none). */
	weakGoldAt5: number;
	weakGoldMissed: number;
}

/** Scores of a half, overall and per kind, for both searches. */
interface HalfReport {
	half: Half;
	rows: Array<{ kind: QuestionKind | "all"; project: CodingScores; bm25: CodingScores }>;
}

/** Everything the evaluation measured. */
export interface CodingReport {
	sessions: number;
	projects: number;
	events: number;
	questions: number;
	halves: HalfReport[];
	outcomes: CodingOutcome[];
	/** Violations of the set's own rules (check-set.ts); should be empty. */
	problems: string[];
	timings: { buildMs: number; projectMs: number; bm25Ms: number };
}

function scoreAnswers(answers: readonly Answer[]): CodingScores {
	const n = answers.length;
	const d = n || 1;
	const within = (k: number) => answers.filter((a) => a.rank !== null && a.rank <= k).length / d;
	const at5 = (a: Answer) => a.rank !== null && a.rank <= 5;
	const weakShare = (list: Answer[]) => list.filter((a) => a.weak).length / list.length;
	return {
		n,
		recallAt5: within(5),
		recallAt10: within(10),
		mrr: answers.reduce((s, a) => s + (a.rank === null ? 0 : 1 / a.rank), 0) / d,
		sessionAt5: answers.filter((a) => a.sessionAt5).length / d,
		anyHit: answers.filter((a) => a.hits > 0).length / d,
		fullHit: answers.filter((a) => a.fullHits > 0).length / d,
		weak: answers.filter((a) => a.weak).length / d,
		weakGoldAt5: weakShare(answers.filter(at5)),
		weakGoldMissed: weakShare(answers.filter((a) => !at5(a))),
	};
}

function answerOf(
	keys: string[],
	q: CodingQuestion,
	store: CodingStore,
	fullHits: number,
	weak: boolean,
	error?: string,
): Answer {
	const gold = q.gold.map((g) => store.keyOf.get(g)).filter((k) => k !== undefined);
	const i = keys.findIndex((k) => gold.includes(k));
	const goldSessions = new Set(q.gold.map(goldSession));
	const sessionAt5 = keys.slice(0, 5).some((k) => goldSessions.has(store.labelOf.get(k.split("/")[0]) ?? ""));
	const rank = i < 0 ? null : i + 1;
	return { rank, sessionAt5, hits: keys.length, fullHits, weak, keys, ...(error ? { error } : {}) };
}

/** How many of `keys` name an event whose text holds every content word of `question`. */
function holdingEvery(keys: readonly string[], question: string, textOf: (key: string) => string): number {
	const words = contentWords(question);
	return keys.filter((k) => {
		const have = new Set(tokens(textOf(k)));
		return words.every((w) => have.has(w));
	}).length;
}

function caller(cwd: string): CallerContext {
	return {
		cwd,
		authorization: { extraRoots: [], allRoots: false },
		budgets: { ...DEFAULT_BUDGETS, searchLimit: CODING_DEPTH },
	};
}

/** The project's answer: `searchEvents` with the question as asked, standing in its workspace. */
function projectAnswer(store: CodingStore, q: CodingQuestion): Answer {
	try {
		const result = searchEvents(store.db, { query: q.text }, caller(q.cwd));
		const keys = result.hits.map((h) => `${h.sessionId}/${h.entryId}`);
		const full = result.hits.filter((h) => !h.missingTerms || h.missingTerms.length === 0).length;
		return answerOf(keys, q, store, full, result.weakMatches !== undefined);
	} catch (err) {
		return answerOf([], q, store, 0, false, err instanceof Error ? err.message : String(err));
	}
}

/** Asks every question of an opened corpus. */
function evaluateCoding(store: CodingStore, questions: readonly CodingQuestion[]) {
	const bm25 = buildWorkspaceBm25(store.events);
	const byKey = new Map(store.events.map((e) => [e.key, e.text]));
	const textOf = (key: string) => byKey.get(key) ?? "";
	const outcomes: CodingOutcome[] = [];
	let projectMs = 0;
	let bm25Ms = 0;
	try {
		for (const q of questions) {
			let t = performance.now();
			const project = projectAnswer(store, q);
			const ms = performance.now() - t;
			projectMs += ms;
			t = performance.now();
			const bm25Keys = bm25.search(q.text, q.cwd, CODING_DEPTH);
			const bm25Answer = answerOf(bm25Keys, q, store, holdingEvery(bm25Keys, q.text, textOf), false);
			bm25Ms += performance.now() - t;
			outcomes.push({ ...q, half: halfOf(q), project, bm25: bm25Answer, ms });
		}
	} finally {
		bm25.close();
	}
	const halves: HalfReport[] = (["held", "tune"] as const).map((half) => {
		const of = outcomes.filter((o) => o.half === half);
		const row = (kind: QuestionKind | "all", list: CodingOutcome[]) => ({
			kind,
			project: scoreAnswers(list.map((o) => o.project)),
			bm25: scoreAnswers(list.map((o) => o.bm25)),
		});
		const answerable = of.filter((o) => o.kind !== "absent");
		return {
			half,
			rows: [
				...QUESTION_KINDS.map((k) =>
					row(
						k,
						of.filter((o) => o.kind === k),
					),
				),
				row("all", answerable),
			],
		};
	});
	const problems = [...checkQuestions(questions), ...checkAgainstCorpus(questions, store)];
	return { outcomes, halves, problems, projectMs, bm25Ms };
}

/** Opens the corpus at `dir`, asks every question, closes it; null when there is no converted corpus there. */
export async function runCodingEval(dir: string, questions = loadQuestions()): Promise<CodingReport | null> {
	const index = loadCorpusIndex(dir);
	if (index === null) return null;
	const t = performance.now();
	const store = await openCodingStore(dir, index);
	const buildMs = performance.now() - t;
	try {
		const { projectMs, bm25Ms, ...r } = evaluateCoding(store, questions);
		return {
			sessions: index.sessions.length,
			projects: new Set(index.sessions.map((s) => s.project)).size,
			events: store.events.length,
			questions: questions.length,
			...r,
			timings: { buildMs, projectMs, bm25Ms },
		};
	} finally {
		store.close();
	}
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The held-back half as rows of the bench table: recall@5, MRR and session recall@5 overall, recall@5 per kind. */
export function codingFigureRows(report: CodingReport): FigureRow[] {
	const held = report.halves.find((h) => h.half === "held");
	if (!held) return [];
	const set = `${held.rows.find((r) => r.kind === "all")?.project.n ?? 0} held-back coding questions`;
	const note = `${report.sessions} real agent sessions of ${report.projects} public projects, ${report.events} events; the caller stands in the question's workspace; bm25-OR searches the same workspace's events${report.problems.length > 0 ? `; SET PROBLEMS: ${report.problems.slice(0, 3).join("; ")}` : ""}`;
	const row = (name: string, a: number, b: number, fmt: (x: number) => string) => ({
		figure: `10 Coding questions ${name}, ${set}`,
		measured: fmt(a),
		baseline: `${fmt(b)} bm25-OR`,
		ratio: b > 0 ? `${(a / b).toFixed(2)}×` : "—",
		goal: "report",
		met: null,
		note,
	});
	// bm25 never says its matches are weak: these rows have no baseline.
	const weak = (name: string, a: number) => ({
		...row(`says "weak matches": ${name}`, a, 0, pct),
		baseline: "— (bm25-OR never says)",
	});
	const rows: FigureRow[] = [];
	for (const r of held.rows) {
		if (r.kind === "all") {
			rows.push(row("recall@5", r.project.recallAt5, r.bm25.recallAt5, pct));
			rows.push(row("recall@10", r.project.recallAt10, r.bm25.recallAt10, pct));
			rows.push(row("MRR", r.project.mrr, r.bm25.mrr, (x) => x.toFixed(3)));
			rows.push(row("session recall@5", r.project.sessionAt5, r.bm25.sessionAt5, pct));
			rows.push(weak("answerable, gold in the top 5", r.project.weakGoldAt5));
			rows.push(weak("answerable, gold not in the top 5", r.project.weakGoldMissed));
		} else if (r.kind === "absent") {
			rows.push(row("absent: a hit holding every term", r.project.fullHit, r.bm25.fullHit, pct));
			rows.push(weak("absent", r.project.weak));
		} else if (r.project.n > 0)
			rows.push(row(`recall@5 ${r.kind} (${r.project.n})`, r.project.recallAt5, r.bm25.recallAt5, pct));
	}
	return rows;
}
