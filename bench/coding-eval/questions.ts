/**
 * The coding eval's questions (questions.json): each asked the way a developer recalls past work, standing in the
 * question's project (`cwd`), with its gold events as `<session label>#<entry id>` (ids the converter derives from
 * the label, pi-session.ts). Questions with no answer in the corpus have no gold. The tune / held-back split is by
 * session, so no session lends questions to both halves.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hashString } from "../corpus/prng.js";

/** The kinds of question, in report order; `absent` has no answer in the corpus. */
export const QUESTION_KINDS = ["fix", "error", "test", "task", "abandoned", "decision", "file", "absent"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** What each kind asks, for reports. */
export const KIND_LABELS: Record<QuestionKind, string> = {
	fix: "how did we fix …? (the edits)",
	error: "what did it print / what error did we hit?",
	test: "which test did we run, and the result?",
	task: "pull up the task about … (the request)",
	abandoned: "what did we try first and abandon?",
	decision: "what did we decide about …?",
	file: "which file did we change for …?",
	absent: "no answer in the corpus",
};

/** One question. */
export interface CodingQuestion {
	id: string;
	kind: QuestionKind;
	text: string;
	/** The caller's workspace. */
	cwd: string;
	/** `<session label>#<entry id>`; any of them answers. Empty for `absent`. */
	gold: string[];
}

/** The two halves: tune on one, report the other. */
export type Half = "tune" | "held";

const HERE = dirname(fileURLToPath(import.meta.url));

export function loadQuestions(path = join(HERE, "questions.json")): CodingQuestion[] {
	return (JSON.parse(readFileSync(path, "utf8")) as { questions: CodingQuestion[] }).questions;
}

/** The session label of a gold reference. */
export const goldSession = (gold: string) => gold.slice(0, gold.lastIndexOf("#"));

/** The half a question belongs to: by its session's label (by its own id when it has no gold). */
export function halfOf(q: CodingQuestion): Half {
	const key = q.gold.length > 0 ? goldSession(q.gold[0]) : q.id;
	return hashString(`coding-eval:${key}`) % 2 === 0 ? "tune" : "held";
}
