/**
 * Task evidence: a coding question names its work by the request's topic ("the change we made for duplicate tasks"),
 * but the events it asks for (the edits, the test runs, the failing outputs of that work) seldom repeat the topic's
 * words. A task is a user request and the events after it, in file order, up to the next request of its session.
 * The candidates of the relaxed tier score the tasks they fall in, the request's own match counting most (it names
 * the work); within the best tasks, the events of the kind the question asks for (intent.ts) are brought forward,
 * holding the terms or not. Bounded: one FTS query for the requests of the best candidates' sessions, one range read
 * per lifted task. docs/ranking.md, "Task evidence".
 */

import type { SemanticKind } from "../../contract.js";
import { codeSql, inCodesSql } from "../../store/column-codes.js";
import { tag } from "../../text/fragment-tags.js";
import type { AskedKind } from "../../text/request-words.js";
import { STORED_HEAD_CHARS } from "../../text/stored-head.js";
import { indexTokens } from "../../text/term-presence.js";
import { all, allViaJson, type QueryDb } from "../db.js";
import { type CandidateRow, checkedWhere, JOIN_COLUMNS } from "./candidates.js";
import { eventKey, fragmentOpenings } from "./coalesce.js";
import { wantedRow } from "./intent.js";
import type { SearchPlan } from "./request.js";
import { cuesMatch, GIVE_UP_CUES, REPORTED_FAILURE_WORDS, TEST_RUNNER_CUES } from "./work-cues.js";

/** Share of the scores of a task's other matching events added to its best one's. */
const TASK_DAMPING = 0.3;
/** A task's matching events counted at most (its best). */
const TASK_EVENTS = 5;
/** Extra weight of the request's own score in its task's: the request names the work. */
const REQUEST_WEIGHT = 3;
/** Candidate events (the best) whose tasks are scored, and sessions (of the best of them) cut into tasks. */
const EVIDENCE_EVENTS = 200;
const TASK_SESSIONS = 8;
/** Tasks whose events of the wanted kind are brought forward, and how many of each at most. */
const TOP_TASKS = 3;
const PER_TASK = 2;
/** Tasks read at most (the best, in order) to find TOP_TASKS that have events of the wanted kind. */
const TASKS_READ = 2 * TOP_TASKS;
/** A task is lifted only when its evidence is at least this share of the best task's. */
const LIFT_RATIO = 0.5;
/** Share of its task's evidence an event of the wanted kind scores (when its own match is weaker). */
const TASK_SHARE = 0.5;
/** Fragments of a task read at most, in file order, to find its events of the wanted kind. */
const TASK_FRAGMENTS = 150;

const OUTPUTS: readonly SemanticKind[] = ["tool_result", "bash_output"];

/**
 * What a lifted intent reads of a task: the fragment kinds it can want, the phrases one of them must hold, and
 * whether the task's request is wanted too when it reports a failure (work-cues.ts).
 */
interface LiftedReads {
	kinds: readonly SemanticKind[];
	cues?: readonly string[];
	reportedFailure?: boolean;
}

/**
 * The intents whose events are lifted, and what is read for them (intent.ts decides which are wanted): the work's
 * own events, which seldom say the topic; a test run is a bash call of a test runner, a change of course the
 * assistant's turn that gives an approach up (work-cues.ts); an output or an error may be one the user pasted into
 * the request. A request and an assistant's decision say the topic themselves and rank by their own match.
 */
const LIFTED_INTENTS: ReadonlyMap<AskedKind, LiftedReads> = new Map([
	["output", { kinds: OUTPUTS, reportedFailure: true }],
	["failure", { kinds: OUTPUTS, reportedFailure: true }],
	["edit", { kinds: ["tool_call"] }],
	["test", { kinds: ["bash_command", "tool_call", ...OUTPUTS], cues: TEST_RUNNER_CUES }],
	["abandon", { kinds: ["assistant_text"], cues: GIVE_UP_CUES }],
]);

/** Whether a question of this intent has its task's events lifted (and so is ranked in one tier). */
export function liftsTaskEvents(wants: AskedKind | undefined): boolean {
	return wants !== undefined && LIFTED_INTENTS.has(wants);
}

/** One task: events [start, end) of one source (end: the next request, or past the last event). */
interface TaskSpan {
	sourceId: number;
	start: number;
	end: number;
}

/** A task with its evidence (lower is better, as bm25). */
interface ScoredTask extends TaskSpan {
	score: number;
}

/** A row lifted by its task: the entry id of the task's request when the task's share beat the row's own score. */
export interface LiftedRow extends CandidateRow {
	taskRequestId?: string;
}

/** The seqs of the user requests of each of `sourceIds`, ascending: one FTS query on their source and kind tags. */
function requestSeqs(db: QueryDb, sourceIds: readonly number[]): Map<number, number[]> {
	const out = new Map<number, number[]>();
	if (sourceIds.length === 0) return out;
	const match = `(${sourceIds.map((id) => `"${tag.source(id)}"`).join(" OR ")}) AND "${tag.kind("user_text")}"`;
	const rows = all<{ sourceId: number; seq: number }>(
		db,
		`SELECT DISTINCT f.source_id AS sourceId, f.event_seq AS seq FROM fragments f
		WHERE f.id IN (SELECT rowid FROM fragments_fts WHERE fragments_fts MATCH ?)
			AND f.kind = ${codeSql("kind", "user_text")}
		ORDER BY f.source_id, f.event_seq`,
		[match],
	);
	for (const r of rows) out.set(r.sourceId, [...(out.get(r.sourceId) ?? []), r.seq]);
	return out;
}

/** The span of the task holding event `seq`, given its session's request seqs (ascending). */
function spanOf(sourceId: number, seq: number, requests: readonly number[]): TaskSpan {
	const after = requests.findIndex((r) => r > seq);
	const start = (after < 0 ? requests.at(-1) : requests[after - 1]) ?? 0;
	return { sourceId, start, end: after < 0 ? Number.MAX_SAFE_INTEGER : requests[after] };
}

/** Each event's best (lowest-scoring) row among `rows`, by eventKey. */
function bestRowOfEvent(rows: readonly CandidateRow[]): Map<string, CandidateRow> {
	const best = new Map<string, CandidateRow>();
	for (const row of rows) {
		const seen = best.get(eventKey(row));
		if (seen === undefined || row.score < seen.score) best.set(eventKey(row), row);
	}
	return best;
}

/**
 * The tasks the candidates fall in (each event by its best row, `bestOfEvent`), best first. A task's evidence: its best event's score, plus
 * TASK_DAMPING of its next best events' (each event by its best fragment), plus REQUEST_WEIGHT times its request's
 * own score when the request matched.
 */
function scoreTasks(db: QueryDb, bestOfEvent: ReadonlyMap<string, CandidateRow>): ScoredTask[] {
	const ranked = [...bestOfEvent.values()].sort((a, b) => a.score - b.score).slice(0, EVIDENCE_EVENTS);
	const sessions = new Set([...new Set(ranked.map((r) => r.sourceId))].slice(0, TASK_SESSIONS));
	const requests = requestSeqs(db, [...sessions]);
	const tasks = new Map<string, { span: TaskSpan; scores: number[]; request: number }>();
	for (const row of ranked) {
		if (!sessions.has(row.sourceId)) continue;
		const span = spanOf(row.sourceId, row.seq, requests.get(row.sourceId) ?? []);
		const key = `${span.sourceId}:${span.start}`;
		const task = tasks.get(key) ?? { span, scores: [], request: 0 };
		task.scores.push(row.score);
		if (row.seq === span.start && row.kind === "user_text") task.request = row.score;
		tasks.set(key, task);
	}
	return [...tasks.values()]
		.map(({ span, scores, request }) => {
			const [best, ...rest] = scores.slice(0, TASK_EVENTS);
			const others = rest.reduce((sum, s) => sum + s, 0);
			return { ...span, score: best + TASK_DAMPING * others + REQUEST_WEIGHT * request };
		})
		.sort((a, b) => a.score - b.score);
}

/**
 * The rows of the first TASK_FRAGMENTS fragments of the read kinds in `span` (holding one of its cues, when it has
 * any: one FTS query on the source's tag), in file order, that pass the plan's checks; and the task's request (its
 * first fragment, when a user's text), whatever the kinds.
 */
function spanRows(
	db: QueryDb,
	plan: SearchPlan,
	span: TaskSpan,
	reads: LiftedReads,
): Array<Omit<CandidateRow, "score">> {
	const { where, params } = checkedWhere(plan);
	const cued =
		reads.cues === undefined ? "" : "AND id IN (SELECT rowid FROM fragments_fts WHERE fragments_fts MATCH ?)";
	const match = reads.cues === undefined ? [] : [`"${tag.source(span.sourceId)}" AND ${cuesMatch(reads.cues)}`];
	return allViaJson<Omit<CandidateRow, "score">>(
		db,
		JOIN_COLUMNS,
		`FROM (SELECT * FROM fragments WHERE source_id = ? AND event_seq = ? AND ord = 0
			UNION ALL SELECT * FROM (SELECT * FROM fragments WHERE source_id = ? AND event_seq > ? AND event_seq < ?
				AND ${inCodesSql("kind", "kind", reads.kinds)} ${cued} ORDER BY event_seq, ord LIMIT ?)) f
		CROSS JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
		CROSS JOIN sources s ON s.id = f.source_id ${where}`,
		[span.sourceId, span.start, span.sourceId, span.start, span.end, ...match, TASK_FRAGMENTS, ...params],
	);
}

/** Whether a user's request reports a failure: its opening holds one of REPORTED_FAILURE_WORDS, as the index reads it. */
function reportsFailure(db: QueryDb, request: Omit<CandidateRow, "score">): boolean {
	const opening = fragmentOpenings(db, [request.fragmentId], STORED_HEAD_CHARS).get(request.fragmentId) ?? "";
	return indexTokens(opening, request.kind).some((t) => REPORTED_FAILURE_WORDS.has(t));
}

/**
 * The events of `task` of the wanted kind (or its request, when it reports a failure and the intent reads that),
 * none in `exclude`, at most PER_TASK: each is its own best candidate row (`own`) when it had one, else its first
 * fragment of the wanted kind, and scores TASK_SHARE of the task's evidence, or its own score when that is better.
 * Best score first, then file order.
 */
function taskEvents(
	db: QueryDb,
	plan: SearchPlan,
	task: ScoredTask,
	reads: LiftedReads & { wanted: (row: CandidateRow) => boolean },
	own: ReadonlyMap<string, CandidateRow>,
	exclude: ReadonlySet<string>,
): LiftedRow[] {
	const { wanted } = reads;
	const share = TASK_SHARE * task.score;
	const rows = spanRows(db, plan, task, reads);
	const requestRow = rows.find((r) => r.seq === task.start && r.kind === "user_text");
	const request = requestRow?.entryId;
	const reported = reads.reportedFailure === true && requestRow !== undefined && reportsFailure(db, requestRow);
	const picked = new Map<string, LiftedRow>();
	for (const row of rows) {
		const key = eventKey(row);
		const want = wanted({ ...row, score: 0 }) || (reported && row === requestRow);
		if (picked.has(key) || exclude.has(key) || !want) continue;
		const candidate = own.get(key);
		const mine = candidate?.score ?? 0;
		const byTask = share < mine && request !== undefined && row !== requestRow ? { taskRequestId: request } : {};
		picked.set(key, { ...(candidate ?? row), score: Math.min(mine, share), ...byTask });
	}
	return [...picked.values()].sort((a, b) => a.score - b.score || a.seq - b.seq).slice(0, PER_TASK);
}

/**
 * The events of the kind the plan wants (LIFTED_INTENTS) in the best tasks of the candidates `scored`: the first
 * TOP_TASKS (of the best TASKS_READ, each with at least LIFT_RATIO of the best one's evidence) that have any, none of
 * them in `exclude` (taskEvents). A task with none (a discussion, for a question wanting an edit) gives its place to
 * the next. Empty (and no query) when the plan wants another kind or none.
 */
export function liftedByTasks(
	db: QueryDb,
	plan: SearchPlan,
	scored: readonly CandidateRow[],
	exclude: ReadonlySet<string>,
): LiftedRow[] {
	const reads = plan.wants && LIFTED_INTENTS.get(plan.wants);
	if (plan.wants === undefined || reads === undefined) return [];
	const own = bestRowOfEvent(scored);
	const tasks = scoreTasks(db, own);
	const bar = LIFT_RATIO * (tasks[0]?.score ?? 0);
	const out: LiftedRow[] = [];
	const wanted = { ...reads, wanted: wantedRow(plan.wants) };
	let lifted = 0;
	for (const task of tasks.slice(0, TASKS_READ).filter((t) => t.score <= bar)) {
		if (lifted === TOP_TASKS) break;
		const events = taskEvents(db, plan, task, wanted, own, exclude);
		if (events.length > 0) lifted++;
		out.push(...events);
	}
	return out;
}
