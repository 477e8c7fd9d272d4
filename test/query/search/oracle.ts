/**
 * Brute-force search oracle: every fragment of the store read without the FTS index, tokenized in JS, and every
 * filter evaluated in JS from its documented meaning. Unbounded and slow: for comparing against searchEvents.
 */

import path from "node:path";
import { type EventSearchRequest, RETRIEVAL_TOOL_NAMES } from "../../../src/contract.js";
import { isInsideRoot } from "../../../src/query/authorize.js";
import type { QueryDb } from "../../../src/query/db.js";
import { decodedSql, decodedTimestampSql } from "../../../src/store/column-codes.js";
import { decodeFragmentText, type StoredFragmentText } from "../../../src/store/fragment-text.js";
import { textDictionaryOf } from "../../../src/store/text-dictionary.js";
import { foldLikeUnicode61 } from "../../../src/text/fold.js";
import { unicode61Tokens } from "../../../src/text/query-compiler.js";

interface Row {
	sourceId: number;
	seq: number;
	entryId: string;
	kind: string;
	text: StoredFragmentText;
	fragmentTool: string | null;
	entryType: string;
	role: string | null;
	eventTool: string | null;
	isError: number;
	timestamp: string;
	branchState: string;
	selectionState: string;
	sessionId: string;
	cwd: string | null;
	ownFiles: string | null;
	eventFiles: string;
}

/** Kinds that touch their event's files (a tool call touches its own; docs/query-language.md). */
const EVENT_FILE_KINDS = ["tool_result", "bash_command", "bash_output", "compaction_summary", "branch_summary"];

/**
 * True when `file`, named in a session started in `cwd`, is the file `asked` names: the same absolute path, or, for
 * a relative `asked`, the path as the session's cwd sees it ends with it by whole segments, or it is `asked` under
 * the caller's cwd.
 */
function namesFile(file: string, cwd: string, asked: string, callerCwd: string): boolean {
	const p = path.posix;
	const abs = p.resolve(cwd, file);
	const a = asked.trim();
	if (p.isAbsolute(a)) return abs === p.resolve(a);
	const v = p.normalize(a).replace(/\/+$/, "").replace(/^\.\//, "");
	if (abs === p.resolve(callerCwd, v)) return true;
	if (v === ".." || v.startsWith("../")) return false;
	const seen = isInsideRoot(abs, cwd) && abs !== cwd ? p.relative(cwd, abs) : abs.slice(1);
	return seen === v || seen.endsWith(`/${v}`);
}

function touches(r: Row, asked: readonly string[], callerCwd: string): boolean {
	const json = r.kind === "tool_call" ? r.ownFiles : EVENT_FILE_KINDS.includes(r.kind) ? r.eventFiles : null;
	const files = JSON.parse(json ?? "[]") as string[];
	return asked.some((a) => files.some((file) => namesFile(file, r.cwd as string, a, callerCwd)));
}

/** Event keys (`sessionId/entryId`) whose fragments contain every word of `req.query` and pass every filter. */
export function oracleSearch(db: QueryDb, req: EventSearchRequest, callerCwd = "/"): Set<string> {
	const rows = db
		.prepare(
			`SELECT f.source_id AS sourceId, f.event_seq AS seq, e.entry_id AS entryId, ${decodedSql("kind", "f.kind")} AS kind, f.text,
				f.tool_name AS fragmentTool, ${decodedSql("entryType", "e.entry_type")} AS entryType,
				${decodedSql("role", "e.role")} AS role, e.tool_name AS eventTool, e.is_error AS isError, ${decodedTimestampSql("e.timestamp")} AS timestamp,
				${decodedSql("branchState", "e.branch_state")} AS branchState,
				${decodedSql("selectionState", "e.selection_state")} AS selectionState,
				s.session_id AS sessionId, s.cwd, f.files AS ownFiles, e.files AS eventFiles
			FROM fragments f JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
			JOIN sources s ON s.id = f.source_id`,
		)
		.all() as Row[];
	const words = unicode61Tokens(req.query).map(foldLikeUnicode61);
	const iso = (t: string) => new Date(Date.parse(t)).toISOString();
	const out = new Set<string>();
	for (const r of rows) {
		if (!r.cwd) continue;
		const tokens = new Set(unicode61Tokens(decodeFragmentText(r.text, textDictionaryOf(db))).map(foldLikeUnicode61));
		if (!words.every((w) => tokens.has(w))) continue;
		const tool = r.fragmentTool ?? r.eventTool;
		const named = req.toolNames ?? [];
		const hidden = RETRIEVAL_TOOL_NAMES.filter((t) => !named.includes(t));
		if (r.fragmentTool && hidden.includes(r.fragmentTool)) continue;
		if (r.role === "toolResult" && hidden.includes(r.eventTool ?? "")) continue;
		if (req.sessionId && r.sessionId !== req.sessionId) continue;
		if (req.cwd && !isInsideRoot(r.cwd, path.resolve(callerCwd, req.cwd))) continue;
		if (req.kinds && !req.kinds.includes(r.kind) && !req.kinds.includes(r.entryType)) continue;
		if (req.roles && !req.roles.includes(r.role ?? "")) continue;
		if (req.toolNames && !req.toolNames.includes(tool ?? "")) continue;
		if (req.errorOnly && r.isError !== 1) continue;
		if (req.paths && !touches(r, req.paths, callerCwd)) continue;
		if (req.time?.from && r.timestamp < iso(req.time.from)) continue;
		if (req.time?.to && r.timestamp > iso(req.time.to)) continue;
		if (req.branchStates && !req.branchStates.includes(r.branchState as never)) continue;
		if (req.selectionStates && !req.selectionStates.includes(r.selectionState as never)) continue;
		out.add(`${r.sessionId}/${r.entryId}`);
	}
	return out;
}
