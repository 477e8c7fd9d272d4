/**
 * The natural-question set: multi-session conversations written as Pi sessions (coding.ts: debugging, migrations,
 * config, CI, refactors with real-looking tool output; life.ts: personal events and plans, LoCoMo-style) and the
 * questions each event answers, written inline beside that event. Every question is tagged with the way its words
 * differ from the answer's; set-check.ts verifies the set's rules.
 */

import type { FillerDomain } from "./filler.js";

/** Every way a question's words differ from its answer's (each leaves at least one content word out), in report order. */
export const QUESTION_CLASSES = ["question-form", "inflection", "paraphrase", "keywords", "identifier"] as const;

/** One of QUESTION_CLASSES. */
export type QuestionClass = (typeof QUESTION_CLASSES)[number];

/** A question the event it is written on answers; `also` names further events that answer it equally. */
export interface Question {
	text: string;
	cls: QuestionClass;
	also?: string[];
}

/** A user or assistant message. `key` lets another question name this event in `also`. */
export interface SayTurn {
	role: "user" | "assistant";
	text: string;
	key?: string;
	questions?: Question[];
}

/** One tool call and its result: questions target the result; `callQuestions` the call (the assistant message). */
export interface ToolTurn {
	tool: "bash" | "read";
	/** The command line (bash) or the file path (read). */
	arg: string;
	output: string;
	isError?: boolean;
	questions?: Question[];
	callQuestions?: Question[];
	key?: string;
}

/** Background tool output (a real file of node_modules read or grepped), chosen by the seeded generator. */
export interface NoiseTurn {
	noise: number;
}

/** `count` user/assistant exchanges of small talk or routine requests (filler.ts), chosen by the seeded generator. */
export interface FillerTurn {
	filler: number;
	domain: FillerDomain;
}

export type Turn = SayTurn | ToolTurn | NoiseTurn | FillerTurn;

/** One session: its workspace (cwd), when it started, and its turns in order. */
export interface NaturalSession {
	label: string;
	cwd: string;
	start: string;
	turns: Turn[];
}

/** Shorthand for a question. */
export function q(text: string, cls: QuestionClass, ...also: string[]): Question {
	return also.length > 0 ? { text, cls, also } : { text, cls };
}

/** A user message answering `questions`. */
export function u(text: string, ...questions: Question[]): SayTurn {
	return { role: "user", text, questions };
}

/** An assistant message answering `questions`. */
export function a(text: string, ...questions: Question[]): SayTurn {
	return { role: "assistant", text, questions };
}

/** A bash call whose output answers `questions`. */
export function sh(command: string, output: string, ...questions: Question[]): ToolTurn {
	return { tool: "bash", arg: command, output, questions };
}

/** A failing bash call (isError) whose output answers `questions`. */
export function shFail(command: string, output: string, ...questions: Question[]): ToolTurn {
	return { tool: "bash", arg: command, output, isError: true, questions };
}

/** A read of `path` whose output answers `questions`. */
export function rd(path: string, output: string, ...questions: Question[]): ToolTurn {
	return { tool: "read", arg: path, output, questions };
}

/** `n` background tool outputs. */
export function noise(n: number): NoiseTurn {
	return { noise: n };
}

/** `count` filler exchanges of `domain`. */
export function filler(domain: FillerDomain, count: number): FillerTurn {
	return { filler: count, domain };
}

/** Gives a turn a key (for `also`). */
export function keyed<T extends SayTurn | ToolTurn>(key: string, turn: T): T {
	return { ...turn, key };
}
