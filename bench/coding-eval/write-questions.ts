/**
 * Writes questions.json from a converted corpus: `npx tsx bench/coding-eval/write-questions.ts [--corpus <dir>]`.
 * Picks candidate tasks per kind (tasks.ts), spread over projects and sessions, takes each question's gold events
 * from the task, and words the question the way a developer asks weeks later: one of many phrasings per kind, with
 * the request's salient words and identifiers said as words (phrases.ts), never the request copied; drafts that read
 * oddly were reworded by hand (rewordings.ts). The questions with no answer are written by hand (absent.ts).
 * Deterministic: the same corpus gives the same file.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRng, type Rng } from "../corpus/prng.js";
import { ABSENT_QUESTIONS } from "./absent.js";
import type { CorpusIndex } from "./convert.js";
import { commandPhrase, documentFrequencies, errorName, spoken, titleTopic, topicOf } from "./phrases.js";
import { outputShowsError } from "./pi-session.js";
import type { CodingQuestion, QuestionKind } from "./questions.js";
import { REWORDINGS } from "./rewordings.js";
import { corpusDir } from "./sources.js";
import { loadCorpusIndex } from "./store.js";
import { type Task, type TaskEntry, tasksOf } from "./tasks.js";
import { TEMPLATES, type Wording } from "./templates.js";

const TEST_COMMAND = /\b(test|tests|pytest|jest|vitest|spec|tox|nox|cargo test|go test|mocha|playwright)\b/i;
const SWITCH =
	/\b(different approach|another approach|alternative approach|didn't work|doesn't work|did not work|isn't working|try a different|instead,|revert(ed|ing)? (the|this|that|my)|that approach|let me try another|simpler approach|abandon)/i;
const DECISION =
	/\b(I recommend|I'd recommend|we should use|we'll use|we will use|I'll use|decided|decision|go with|going with|best approach|opt for|let's use|the plan is|prefer|stick with|settle on|chose|choose)\b/i;
const PROBLEM =
	/\b(error|errors|fix|bug|broken|fail|fails|failing|failed|issue|not working|wrong|doesn't|crash|warning)\b/i;

/** How many questions of each kind to write. */
const QUOTA: Record<Exclude<QuestionKind, "absent">, number> = {
	fix: 90,
	error: 70,
	test: 55,
	task: 85,
	abandoned: 45,
	decision: 45,
	file: 65,
};

const isEdit = (e: TaskEntry) => e.call?.name === "edit" || e.call?.name === "write";
const ref = (t: Task, e: TaskEntry) => `${t.session.label}#${e.id}`;
/** Mostly ASCII: the questions are English, and so must be the requests they recall. */
const english = (text: string) => [...text].filter((c) => c.charCodeAt(0) > 0x7f).length < text.length * 0.05;

/** A candidate question before wording: its kind, gold, and the words to word it with. */
interface Candidate {
	kind: Exclude<QuestionKind, "absent">;
	task: Task;
	gold: string[];
	wording: Wording;
}

function errorCandidate(t: Task, topic: string): Candidate | null {
	const errors = t.work.filter((e) => e.role === "toolResult" && e.isError);
	const pasted = outputShowsError(t.request.text) ? [t.request] : [];
	if (errors.length + pasted.length === 0) return null;
	const sample = errors[0] ?? t.request;
	const call = errors.length > 0 ? t.work[t.work.indexOf(errors[0]) - 1]?.call : undefined;
	const name = errorName(sample.output ?? sample.text);
	return {
		kind: "error",
		task: t,
		gold: [...pasted, ...errors].map((e) => ref(t, e)),
		wording: { topic, error: name, command: call ? commandPhrase(call.arg) : undefined },
	};
}

function testCandidate(t: Task, topic: string): Candidate | null {
	const gold: string[] = [];
	let command: string | undefined;
	t.work.forEach((e, i) => {
		if (e.call?.name !== "bash" || !TEST_COMMAND.test(e.call.arg)) return;
		command ??= commandPhrase(e.call.arg);
		gold.push(ref(t, e));
		const result = t.work[i + 1];
		if (result?.role === "toolResult") gold.push(ref(t, result));
	});
	return gold.length === 0 ? null : { kind: "test", task: t, gold, wording: { topic, command } };
}

function switchCandidate(t: Task, topic: string): Candidate | null {
	const i = t.work.findIndex((e, j) => j > 0 && e.role === "assistant" && SWITCH.test(e.text));
	if (i < 0) return null;
	const gold = t.work.slice(Math.max(0, i - 2), i + 1).map((e) => ref(t, e));
	return { kind: "abandoned", task: t, gold, wording: { topic } };
}

function decisionCandidate(t: Task, topic: string): Candidate | null {
	const found = t.work.find((e) => e.role === "assistant" && DECISION.test(e.text));
	const own = DECISION.test(t.request.text) ? t.request : undefined;
	const entry = found ?? own;
	if (!entry) return null;
	return { kind: "decision", task: t, gold: [ref(t, entry)], wording: { topic } };
}

/** Every candidate of a task, one per kind it can answer. */
function candidatesOf(t: Task, df: ReadonlyMap<string, number>, known: (w: string) => boolean, rng: Rng): Candidate[] {
	if (t.request.text.length < 20 || !english(t.request.text)) return [];
	const title = titleTopic(t.session.title);
	// The title summarizes the chat's first request only; a date, "Untitled" or a bracketed tag names nothing.
	const titleFits =
		t.ordinal === 0 &&
		/^[a-z][a-z0-9 .#_:/-]+$/i.test(title) &&
		!/^untitled$/i.test(title) &&
		title.split(" ").length >= 2 &&
		title.split(" ").length <= 7;
	const worked = new Set(t.work.flatMap((e) => spoken(`${e.text} ${e.call?.arg ?? ""}`).split(" ")));
	const fromRequest = topicOf(t.request.text, df, known, rng.range(2, 4), rng.chance(0.4), worked);
	const useTitle = titleFits && (rng.chance(0.6) || fromRequest === "");
	const topic = useTitle ? title : fromRequest;
	if (topic.split(" ").length < 2) return [];
	const edits = t.work.filter(isEdit);
	const out: Candidate[] = [{ kind: "task", task: t, gold: [ref(t, t.request)], wording: { topic } }];
	if (edits.length > 0) {
		const editGold = edits.map((e) => ref(t, e));
		const problem = PROBLEM.test(t.request.text) || t.work.some((e) => e.isError);
		out.push({ kind: "fix", task: t, gold: editGold, wording: { topic, problem } });
		out.push({ kind: "file", task: t, gold: editGold, wording: { topic, problem } });
	}
	for (const c of [errorCandidate(t, topic), testCandidate(t, topic), switchCandidate(t, topic)]) if (c) out.push(c);
	const d = decisionCandidate(t, topic);
	if (d) out.push(d);
	return out;
}

/** Fisher–Yates with the set's rng. */
function shuffle<T>(list: T[], rng: Rng): void {
	for (let i = list.length - 1; i > 0; i--) {
		const j = rng.int(i + 1);
		[list[i], list[j]] = [list[j], list[i]];
	}
}

/** Picks up to the quota of each kind, round-robin over projects, at most one question per task. */
function pick(candidates: Candidate[], rng: Rng): Candidate[] {
	const usedTasks = new Set<string>();
	const perSession = new Map<string, number>();
	const chosen: Candidate[] = [];
	const taskKey = (c: Candidate) => `${c.task.session.label}/${c.task.ordinal}`;
	// Scarce kinds choose first so the common ones do not take their tasks.
	const order: Array<Candidate["kind"]> = ["decision", "abandoned", "test", "error", "file", "fix", "task"];
	for (const kind of order) {
		const byProject = new Map<string, Candidate[]>();
		for (const c of candidates.filter((x) => x.kind === kind)) {
			const list = byProject.get(c.task.session.project) ?? [];
			list.push(c);
			byProject.set(c.task.session.project, list);
		}
		for (const list of byProject.values()) shuffle(list, rng);
		let taken = 0;
		while (taken < QUOTA[kind] && [...byProject.values()].some((l) => l.length > 0)) {
			for (const list of byProject.values()) {
				const c = list.shift();
				if (!c || taken >= QUOTA[kind] || usedTasks.has(taskKey(c))) continue;
				if ((perSession.get(c.task.session.label) ?? 0) >= 5) continue;
				usedTasks.add(taskKey(c));
				perSession.set(c.task.session.label, (perSession.get(c.task.session.label) ?? 0) + 1);
				chosen.push(c);
				taken++;
			}
		}
	}
	return chosen;
}

/** Words the corpus repeats (in at least three entries): a word it holds once is a typo or a one-off nobody recalls. */
function vocabulary(dir: string, sessions: CorpusIndex["sessions"]): (word: string) => boolean {
	const counts = new Map<string, number>();
	for (const s of sessions)
		for (const t of tasksOf(dir, s))
			for (const e of [t.request, ...t.work])
				for (const w of new Set(spoken(`${e.text} ${e.output ?? ""}`).split(" ")))
					counts.set(w, (counts.get(w) ?? 0) + 1);
	return (word) => (counts.get(word) ?? 0) >= 3;
}

/** The hand rewording of a drafted question, if it has one (drawn anyway, so the draws of later questions stay put). */
function reworded(c: Candidate, draft: string): string {
	return REWORDINGS[`${c.kind} ${c.gold[0]}`] ?? draft;
}

/** Writes the questions of the corpus at `dir`. */
export function writeQuestions(dir: string): CodingQuestion[] {
	const index = loadCorpusIndex(dir);
	if (index === null) throw new Error(`no converted corpus at ${dir} (run convert.ts first)`);
	const rng = createRng("coding-eval:questions");
	const candidates: Candidate[] = [];
	const known = vocabulary(dir, index.sessions);
	for (const project of new Set(index.sessions.map((s) => s.project))) {
		const tasks = index.sessions.filter((s) => s.project === project).flatMap((s) => tasksOf(dir, s));
		const df = documentFrequencies(tasks.map((t) => t.request.text));
		for (const t of tasks) candidates.push(...candidatesOf(t, df, known, rng));
	}
	const questions: CodingQuestion[] = pick(candidates, rng).map((c, i) => ({
		id: `q${String(i + 1).padStart(3, "0")}`,
		kind: c.kind,
		text: reworded(c, rng.pick(TEMPLATES[c.kind].filter((w) => w.fits(c.wording))).say(c.wording, rng)),
		cwd: c.task.session.cwd,
		gold: c.gold,
	}));
	ABSENT_QUESTIONS.forEach((a, i) => {
		questions.push({ id: `n${String(i + 1).padStart(3, "0")}`, kind: "absent", text: a.text, cwd: a.cwd, gold: [] });
	});
	return questions;
}

if (process.argv[1]?.endsWith("write-questions.ts")) {
	const argv = process.argv.slice(2);
	const dir = argv.includes("--corpus") ? argv[argv.indexOf("--corpus") + 1] : corpusDir();
	const questions = writeQuestions(dir);
	const out = join(dirname(fileURLToPath(import.meta.url)), "questions.json");
	writeFileSync(out, `${JSON.stringify({ questions }, null, "\t")}\n`);
	const counts = new Map<string, number>();
	for (const q of questions) counts.set(q.kind, (counts.get(q.kind) ?? 0) + 1);
	console.log(`${questions.length} questions: ${[...counts].map(([k, n]) => `${k} ${n}`).join(", ")} → ${out}`);
}
