/**
 * Parses a SpecStory chat export (`.specstory/history/*.md`: Cursor's agent, and Claude Code through SpecStory) into
 * turns: user text, assistant text and the tool uses the export rendered (shell commands with their output, diffs,
 * file reads, codebase and grep searches, directory listings). Thinking is dropped, as Pi's index never reads it.
 */

/** One tool use as the export shows it; `output` is what the transcript recorded of its result. */
export interface ToolUse {
	kind: "bash" | "edit" | "read" | "search" | "grep" | "ls" | "web" | "other";
	/** bash: the command; edit/read/ls: the path ("" when the export names none); search/grep/web: the query. */
	arg: string;
	output: string;
	/** edit: the diff body (lines prefixed "+ ", "- " or "  "). */
	diff?: string;
	/** other: the tool name the export shows. */
	name?: string;
}

/** A piece of one turn, in order. */
type TurnItem = { text: string } | { tool: ToolUse };

/** One user or assistant turn. */
interface Turn {
	role: "user" | "assistant";
	items: TurnItem[];
}

/** The parsed export. */
export interface SpecStoryChat {
	title: string;
	turns: Turn[];
}

const ROLE_LINE = /^_\*\*(User|Assistant|Agent[^*]*)?\*\*_\s*$|^\*\*(User|Cursor)\*\*\s*$/;
const FENCE = /^(`{3,})(\S*)\s*$/;

/** A summary line of a `<details>` block, classified. */
function classifySummary(summary: string): { kind: ToolUse["kind"] | "think"; arg: string; name?: string } {
	const quoted = summary.match(/"([^"]*)"/)?.[1] ?? "";
	if (/^Thought Process/i.test(summary)) return { kind: "think", arg: "" };
	if (/^Searched codebase/i.test(summary)) return { kind: "search", arg: quoted };
	if (/^Grep search/i.test(summary)) return { kind: "grep", arg: quoted };
	if (/^Searched web/i.test(summary)) return { kind: "web", arg: quoted };
	if (/^Listed current directory/i.test(summary)) return { kind: "ls", arg: "." };
	const listed = summary.match(/^Listed directory\s+(.+?)\s*(•|$)/i);
	if (listed) return { kind: "ls", arg: listed[1] };
	const edited = summary.match(/^Edit file:\s*(.+?)\s*$/i);
	if (edited) return { kind: "edit", arg: edited[1] };
	const read = summary.match(/^Read file:\s*(.+?)\s*$/i);
	if (read) return { kind: "read", arg: read[1] };
	const named = summary.match(/\*\*([^*]+)\*\*/)?.[1] ?? summary.replace(/•.*$/, "").trim();
	return { kind: "other", arg: quoted, name: named || "tool" };
}

/** Strips the HTML of a `<details>` body, keeping its text and tables. */
function detailsText(lines: readonly string[]): string {
	return lines
		.map((l) => l.replace(/<\/?(details|summary|think|tool-use)[^>]*>/g, "").trimEnd())
		.filter((l) => l.trim() !== "")
		.join("\n");
}

/** Reads a fenced block starting at `i` (the fence line); returns its body and the index after it. */
function readFence(lines: readonly string[], i: number): { lang: string; body: string[]; next: number } {
	const open = lines[i].match(FENCE);
	const ticks = open?.[1] ?? "```";
	const body: string[] = [];
	let j = i + 1;
	for (; j < lines.length; j++) {
		if (lines[j].trimEnd() === ticks || lines[j].trimEnd() === "```") break;
		body.push(lines[j]);
	}
	return { lang: open?.[2] ?? "", body, next: j + 1 };
}

/** Index of the next non-blank line from `i`, skipping `---` separators too. */
function nextContent(lines: readonly string[], i: number): number {
	let j = i;
	while (j < lines.length && (lines[j].trim() === "" || lines[j].trim() === "---")) j++;
	return j;
}

/** Reads a `<details>` block (nested ones counted) from `i`; returns its summary, body lines and the index after. */
function readDetails(lines: readonly string[], i: number): { summary: string; body: string[]; next: number } {
	let depth = 0;
	let summary = "";
	const body: string[] = [];
	let j = i;
	for (; j < lines.length; j++) {
		const line = lines[j];
		depth += (line.match(/<details/g) ?? []).length;
		const s = line.match(/<summary>(.*?)(<\/summary>|$)/);
		if (s && summary === "") summary = s[1].trim();
		else if (j > i) body.push(line);
		depth -= (line.match(/<\/details>/g) ?? []).length;
		if (depth <= 0 && j >= i) break;
	}
	return { summary, body, next: j + 1 };
}

/** Parses one role section's lines into items. */
function parseSection(lines: readonly string[]): TurnItem[] {
	const items: TurnItem[] = [];
	let text: string[] = [];
	const flush = () => {
		const t = text.join("\n").trim();
		if (t !== "") items.push({ text: t });
		text = [];
	};
	const tool = (t: ToolUse) => {
		flush();
		items.push({ tool: t });
	};
	let i = 0;
	while (i < lines.length) {
		const line = lines[i];
		if (/^<think>/.test(line.trim())) {
			let j = i;
			while (j < lines.length && !lines[j].includes("</think>")) j++;
			i = j + 1;
			continue;
		}
		if (/^<\/?tool-use/.test(line.trim())) {
			i++;
			continue;
		}
		if (/^\s*<details/.test(line)) {
			const d = readDetails(lines, i);
			i = d.next;
			const c = classifySummary(d.summary);
			if (c.kind === "think") continue;
			if (c.kind === "edit") {
				const fence = d.body.findIndex((l) => FENCE.test(l) && l.trim() !== "```");
				const diff = fence >= 0 ? readFence(d.body, fence).body.join("\n") : "";
				tool({ kind: "edit", arg: c.arg, output: "", diff });
			} else tool({ kind: c.kind, arg: c.arg, output: detailsText(d.body), ...(c.name ? { name: c.name } : {}) });
			continue;
		}
		const read = line.match(/^Read file:\s*(.+?)\s*$/);
		if (read) {
			tool({ kind: "read", arg: read[1], output: "" });
			i++;
			continue;
		}
		const fence = line.match(FENCE);
		if (fence && (fence[2] === "bash" || fence[2] === "diff")) {
			const f = readFence(lines, i);
			i = f.next;
			if (fence[2] === "diff") {
				tool({ kind: "edit", arg: "", output: "", diff: f.body.join("\n") });
				continue;
			}
			const after = nextContent(lines, i);
			let output = "";
			if (after < lines.length && lines[after].trimEnd() === "```") {
				const o = readFence(lines, after);
				output = o.body.join("\n");
				i = o.next;
			}
			tool({ kind: "bash", arg: f.body.join("\n").trim(), output });
			continue;
		}
		if (fence) {
			const f = readFence(lines, i);
			text.push(lines[i], ...f.body, "```");
			i = f.next;
			continue;
		}
		if (line.trim() !== "---") text.push(line);
		i++;
	}
	flush();
	return items;
}

/** Parses a whole export. Consecutive sections of the same role are one turn. */
export function parseSpecStory(markdown: string): SpecStoryChat {
	const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
	const heading = lines.find((l) => /^#{1,3} /.test(l) && !/^#+ SpecStory\s*$/.test(l)) ?? "";
	const title = heading
		.replace(/^#+\s*/, "")
		.replace(/\s*\([^)]*\d{4}[^)]*\)\s*$/, "")
		.trim();
	const turns: Turn[] = [];
	let role: Turn["role"] | null = null;
	let section: string[] = [];
	const close = () => {
		if (role === null) return;
		const items = parseSection(section);
		const last = turns[turns.length - 1];
		if (last && last.role === role) last.items.push(...items);
		else if (items.length > 0) turns.push({ role, items });
		section = [];
	};
	for (const line of lines) {
		const m = line.match(ROLE_LINE);
		if (m) {
			close();
			role = (m[1] ?? m[2]) === "User" ? "user" : "assistant";
			continue;
		}
		if (role !== null) section.push(line);
	}
	close();
	return { title, turns };
}
