/**
 * Tool-call arguments as searchable text: one `key: value` line per leaf, string values verbatim (not JSON-escaped,
 * so multi-line content keeps its words and lines), nested keys as `a.b` and `a[0]`.
 */
import { pathsFromCommand } from "./command-paths.js";
import { isRecord } from "./text-utils.js";

/** Nesting below this depth is rendered as "…" (arguments are model-written and may be arbitrarily deep). */
const MAX_DEPTH = 16;

/**
 * A tool call's searchable text: its name, then its `arguments` as readable lines (the name alone when there are
 * none). One join builds it: rendering the arguments first and prefixing the name copied a multi-MB `content`
 * argument twice.
 */
export function renderToolCall(name: string, args: unknown): string {
	const lines = [name];
	if (args !== undefined && args !== null && args !== "") renderInto(lines, "", args, 0);
	return lines.join("\n");
}

function renderInto(lines: string[], path: string, value: unknown, depth: number): void {
	if (Array.isArray(value) || isRecord(value)) {
		const keys = Object.keys(value);
		if (keys.length === 0) {
			if (path) lines.push(`${path}: ${Array.isArray(value) ? "[]" : "{}"}`);
			return;
		}
		if (depth >= MAX_DEPTH) {
			lines.push(`${path}: …`);
			return;
		}
		if (Array.isArray(value)) {
			for (let i = 0; i < value.length; i++) renderInto(lines, `${path}[${i}]`, value[i], depth + 1);
		} else {
			for (const key of keys) renderInto(lines, path ? `${path}.${key}` : key, value[key], depth + 1);
		}
		return;
	}
	const text = typeof value === "string" ? value : value === undefined ? "null" : String(value);
	lines.push(path ? `${path}: ${text}` : text);
}

/** Keys of tool arguments that name one file. */
const PATH_KEYS = ["path", "file_path", "filePath"] as const;

/**
 * Paths named by a tool call's top-level arguments (`path`, `file_path`, `filePath`, `paths[]`), then the files its
 * `command` argument names when it has one (a shell command: command-paths.ts).
 */
export function pathsFromArguments(args: unknown): string[] {
	if (!isRecord(args)) return [];
	const out: string[] = [];
	for (const key of PATH_KEYS) {
		const v = args[key];
		if (typeof v === "string" && v !== "") out.push(v);
	}
	const many = args.paths;
	if (Array.isArray(many)) {
		for (const v of many) if (typeof v === "string" && v !== "") out.push(v);
	}
	for (const p of pathsFromCommand(args.command)) if (!out.includes(p)) out.push(p);
	return out;
}

/** Paths in compaction / branch_summary `details` (`readFiles`, `modifiedFiles`; see Pi's compaction types). */
export function pathsFromSummaryDetails(details: unknown): string[] {
	if (!isRecord(details)) return [];
	const out: string[] = [];
	for (const key of ["readFiles", "modifiedFiles"]) {
		const list = details[key];
		if (!Array.isArray(list)) continue;
		for (const v of list) if (typeof v === "string" && v !== "") out.push(v);
	}
	return out;
}
