/**
 * The coding eval's own rules, checked on every run and by test/bench/coding-eval-set.test.ts: enough questions of
 * every kind in both halves, well-formed gold, gold that the corpus holds in the question's own workspace, and
 * questions with no answer that no event of their workspace answers by holding every content word.
 */
import { contentWords, tokens } from "../natural/words.js";
import { type CodingQuestion, goldSession, halfOf, QUESTION_KINDS } from "./questions.js";
import type { CodingStore } from "./store.js";

/** Least answerable questions, and least questions with no answer (the floor). */
const MIN_ANSWERABLE = 400;
const MIN_ABSENT = 30;

/** Problems of the questions alone. */
export function checkQuestions(questions: readonly CodingQuestion[]): string[] {
	const problems: string[] = [];
	const ids = new Set<string>();
	for (const q of questions) {
		if (ids.has(q.id)) problems.push(`${q.id}: id used twice`);
		ids.add(q.id);
		if (!QUESTION_KINDS.includes(q.kind)) problems.push(`${q.id}: unknown kind ${q.kind}`);
		if ((q.kind === "absent") !== (q.gold.length === 0))
			problems.push(`${q.id}: gold must be empty exactly for absent`);
		for (const g of q.gold) if (!/^[\w.-]+\/.+#[0-9a-f]{8}$/.test(g)) problems.push(`${q.id}: malformed gold ${g}`);
		if (q.text.trim().length < 10) problems.push(`${q.id}: text too short`);
	}
	const answerable = questions.filter((q) => q.kind !== "absent").length;
	if (answerable < MIN_ANSWERABLE) problems.push(`${answerable} answerable questions, fewer than ${MIN_ANSWERABLE}`);
	const absent = questions.length - answerable;
	if (absent < MIN_ABSENT) problems.push(`${absent} questions with no answer, fewer than ${MIN_ABSENT}`);
	for (const half of ["tune", "held"] as const)
		for (const kind of QUESTION_KINDS)
			if (!questions.some((q) => q.kind === kind && halfOf(q) === half))
				problems.push(`no ${kind} question in the ${half} half`);
	return problems;
}

/** Problems of the questions against the converted corpus. */
export function checkAgainstCorpus(questions: readonly CodingQuestion[], store: CodingStore): string[] {
	const problems: string[] = [];
	const cwdOf = new Map(store.sessions.map((s) => [s.label, s.cwd]));
	for (const q of questions) {
		for (const g of q.gold) {
			if (!store.keyOf.has(g)) problems.push(`${q.id}: gold ${g} is not in the corpus`);
			else if (cwdOf.get(goldSession(g)) !== q.cwd)
				problems.push(`${q.id}: gold ${g} is outside the workspace ${q.cwd}`);
		}
	}
	const absent = questions.filter((q) => q.kind === "absent");
	const words = new Map(absent.map((q) => [q.id, contentWords(q.text)]));
	for (const e of store.events) {
		const have = new Set(tokens(e.text));
		for (const q of absent)
			if (q.cwd === e.cwd && (words.get(q.id) ?? []).every((w) => have.has(w)))
				problems.push(`${q.id}: event ${e.ref} holds every content word of a question with no answer`);
	}
	return problems;
}
