/**
 * Writes a parsed agent chat as a Pi v3 session (header, then user, assistant and toolResult messages chained by
 * id/parentId). Every id and timestamp derives from the session's label, so a conversion writes the same bytes on
 * every run and the questions' gold entry ids stay valid. Tool uses become the calls a Pi agent makes: `bash`,
 * `edit` / `write` (a diff with removed lines is an edit, one with only added lines a write), `read`, `grep`, `ls`,
 * and the export's own name for the rest (`codebase_search`, `web_search`).
 */
import { createHash } from "node:crypto";
import type { SpecStoryChat, ToolUse } from "./specstory.js";

/** What the converter knows about one session besides its chat. */
export interface SessionSpec {
	/** Stable label, `<project>/<file stem>`; every id derives from it. */
	label: string;
	cwd: string;
	/** Start time (ISO). */
	start: string;
}

/** One written entry that search can return: its id, role and tool. */
export interface WrittenEntry {
	id: string;
	role: "user" | "assistant" | "toolResult";
	/** Tool call name (assistant) or the tool answered (toolResult). */
	tool?: string;
	isError?: boolean;
}

/** A converted session. */
export interface PiSession {
	id: string;
	lines: string[];
	entries: WrittenEntry[];
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

/** The session id: UUID-shaped, from the label. */
function sessionIdOf(label: string): string {
	const h = hash(`session:${label}`);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Lines an error leaves in a command's output (the export keeps no exit code, so this is read off the text). */
const ERROR_OUTPUT =
	/Traceback \(most recent call last\)|^\s*(\w*Error|ERROR|error)(\[\w+\])?[: ]|\bFAIL(ED)?\b|\b[1-9]\d* (failed|failing|errors?)\b|command not found|No such file or directory|npm ERR!|^\s*E\s{2,}\S|error TS\d+|^\s*✗|panicked at|Exception:/m;

/** Whether a command's recorded output shows a failure. */
export function outputShowsError(output: string): boolean {
	return ERROR_OUTPUT.test(output);
}

/** A diff body split into the text it replaced and the text it wrote. */
export function diffSides(diff: string): { oldText: string; newText: string; removed: number } {
	const oldLines: string[] = [];
	const newLines: string[] = [];
	let removed = 0;
	for (const raw of diff.split("\n")) {
		if (/^@@/.test(raw)) continue;
		const mark = raw[0];
		const line = raw.length > 1 && raw[1] === " " ? raw.slice(2) : raw.slice(1);
		if (mark === "+") newLines.push(line);
		else if (mark === "-") {
			oldLines.push(line);
			removed++;
		} else {
			oldLines.push(line);
			newLines.push(line);
		}
	}
	return { oldText: oldLines.join("\n"), newText: newLines.join("\n"), removed };
}

const FILE_EXTENSIONS =
	"ts|tsx|js|jsx|mjs|cjs|py|md|mdc|json|toml|ya?ml|rs|go|css|scss|html|vue|sh|txt|cfg|ini|sql|tf|lock|env";
const PATH_TOKEN = new RegExp(
	`\`([\\w@./-]+\\.[a-z]{1,5}|[\\w@.-]+\\/[\\w@./-]+)\`|(?<![\\w/.-])([\\w@.-]*[\\w@-]\\/)*[\\w@-][\\w@.-]*\\.(${FILE_EXTENSIONS})\\b`,
	"gi",
);

/** The most recent path-looking token in a text (`src/a.ts`, PROGRESS.md), for a diff the export left unnamed. */
function lastPathIn(text: string): string | undefined {
	const found = [...text.matchAll(PATH_TOKEN)].map((m) => m[1] ?? m[0]);
	return found[found.length - 1];
}

/** The Pi tool call and result text for one tool use. */
function piCall(t: ToolUse, path: string): { name: string; args: Record<string, string>; result: string } {
	switch (t.kind) {
		case "bash":
			return { name: "bash", args: { command: t.arg }, result: t.output };
		case "edit": {
			const { oldText, newText, removed } = diffSides(t.diff ?? "");
			if (removed === 0 && oldText.trim() === "")
				return {
					name: "write",
					args: { path, content: newText },
					result: `Successfully wrote ${newText.length} bytes to ${path}`,
				};
			return {
				name: "edit",
				args: { path, oldText, newText },
				result: `Successfully replaced 1 block(s) in ${path}.`,
			};
		}
		case "read":
			return { name: "read", args: { path: t.arg }, result: t.output };
		case "grep":
			return { name: "grep", args: { pattern: t.arg }, result: t.output };
		case "ls":
			return { name: "ls", args: { path: t.arg }, result: t.output };
		case "search":
			return { name: "codebase_search", args: { query: t.arg }, result: t.output };
		case "web":
			return { name: "web_search", args: { query: t.arg }, result: t.output };
		default:
			return { name: (t.name ?? "tool").replace(/\W+/g, "_").toLowerCase(), args: { query: t.arg }, result: t.output };
	}
}

const zeroCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: zeroCost };

/** Builds the session's lines. */
export function toPiSession(chat: SpecStoryChat, spec: SessionSpec): PiSession {
	const id = sessionIdOf(spec.label);
	let clock = Date.parse(spec.start);
	if (Number.isNaN(clock)) throw new Error(`${spec.label}: bad start time ${spec.start}`);
	const lines = [JSON.stringify({ type: "session", version: 3, id, timestamp: spec.start, cwd: spec.cwd })];
	const entries: WrittenEntry[] = [];
	let leaf: string | null = null;
	const push = (message: Record<string, unknown>, entry: Omit<WrittenEntry, "id">, gapMs: number) => {
		const entryId = hash(`${spec.label}#${entries.length}`).slice(0, 8);
		clock += gapMs;
		lines.push(
			JSON.stringify({
				type: "message",
				id: entryId,
				parentId: leaf,
				timestamp: new Date(clock).toISOString(),
				message: { ...message, timestamp: clock },
			}),
		);
		leaf = entryId;
		entries.push({ id: entryId, ...entry });
	};
	const assistant = (content: unknown[], stopReason: string) => ({
		role: "assistant",
		content,
		api: "openai-responses",
		provider: "cursor",
		model: "cursor-agent",
		usage,
		stopReason,
	});
	let lastPath = "";
	for (const turn of chat.turns) {
		if (turn.role === "user") {
			const text = turn.items
				.map((it) => ("text" in it ? it.text : ""))
				.join("\n\n")
				.trim();
			if (text !== "") push({ role: "user", content: [{ type: "text", text }] }, { role: "user" }, 240_000);
			continue;
		}
		let pending: string[] = [];
		for (const item of turn.items) {
			if ("text" in item) {
				pending.push(item.text);
				lastPath = lastPathIn(item.text) ?? lastPath;
				continue;
			}
			const t = item.tool;
			if (t.kind === "read" && t.arg) lastPath = t.arg;
			const path = t.kind === "edit" ? t.arg || lastPath || "unknown" : t.arg;
			if (t.kind === "edit") lastPath = path;
			const call = piCall(t, path);
			const callId = `call_${hash(`${spec.label}#call${entries.length}`).slice(0, 20)}`;
			const content = [
				...(pending.length > 0 ? [{ type: "text", text: pending.join("\n\n") }] : []),
				{ type: "toolCall", id: callId, name: call.name, arguments: call.args },
			];
			pending = [];
			push(assistant(content, "toolUse"), { role: "assistant", tool: call.name }, 8_000);
			const isError = t.kind === "bash" && outputShowsError(t.output);
			push(
				{
					role: "toolResult",
					toolCallId: callId,
					toolName: call.name,
					content: [{ type: "text", text: call.result }],
					isError,
				},
				{ role: "toolResult", tool: call.name, isError },
				6_000,
			);
		}
		if (pending.length > 0)
			push(assistant([{ type: "text", text: pending.join("\n\n") }], "stop"), { role: "assistant" }, 20_000);
	}
	return { id, lines, entries };
}
