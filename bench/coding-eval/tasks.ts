/**
 * The converted sessions cut into tasks for writing questions: a task is one user request and the agent's work up
 * to the next request (its edits, command runs with their results, and its prose). Read straight from the session
 * files, so a question's gold entries are the converter's own ids.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CorpusSession } from "./convert.js";

/** One entry of a task, reduced to what question writing needs. */
export interface TaskEntry {
	id: string;
	role: "user" | "assistant" | "toolResult";
	/** Prose (user or assistant text). */
	text: string;
	/** assistant: the tool call's name and its main argument (command or path). */
	call?: { name: string; arg: string };
	/** toolResult: the output. */
	output?: string;
	isError?: boolean;
}

/** One request and the work that followed it. */
export interface Task {
	session: CorpusSession;
	/** 0-based position of the task in its session. */
	ordinal: number;
	request: TaskEntry;
	work: TaskEntry[];
}

interface RawMessage {
	role: string;
	content?: Array<{ type: string; text?: string; name?: string; arguments?: Record<string, string> }>;
	isError?: boolean;
}

function entryOf(id: string, m: RawMessage): TaskEntry {
	const blocks = m.content ?? [];
	const text = blocks
		.filter((b) => b.type === "text")
		.map((b) => b.text ?? "")
		.join("\n");
	const call = blocks.find((b) => b.type === "toolCall");
	const role = m.role as TaskEntry["role"];
	if (role === "toolResult") return { id, role, text: "", output: text, isError: m.isError === true };
	if (call) {
		const args = call.arguments ?? {};
		const arg = args.command ?? args.path ?? args.pattern ?? args.query ?? "";
		return { id, role, text, call: { name: call.name ?? "", arg } };
	}
	return { id, role, text };
}

/** The tasks of one converted session. */
export function tasksOf(corpusDir: string, session: CorpusSession): Task[] {
	const lines = readFileSync(join(corpusDir, session.file), "utf8").split("\n").filter(Boolean);
	const tasks: Task[] = [];
	for (const line of lines.slice(1)) {
		const e = JSON.parse(line) as { id: string; message?: RawMessage };
		if (!e.message) continue;
		const entry = entryOf(e.id, e.message);
		if (entry.role === "user") tasks.push({ session, ordinal: tasks.length, request: entry, work: [] });
		else tasks[tasks.length - 1]?.work.push(entry);
	}
	return tasks;
}
