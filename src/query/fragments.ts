/**
 * Fragments of an event as reads and traces show them: whole texts (the part past the stored head read from the
 * session file, whole-text.ts) and previews. Apart from rows.ts so that modules needing only rows (the CLI's flag
 * declarations, coverage) do not load the session-file reader.
 */
import type { SemanticKind, TraceNode } from "../contract.js";
import { codeSql, decodedSql } from "../store/column-codes.js";
import type { StoredFragmentText } from "../store/fragment-text.js";
import { previewText } from "../text/preview.js";
import { all, get, type QueryDb } from "./db.js";
import { entryName } from "./entry-occurrence.js";
import { asBranchState, asSelectionState, type EventLite, isOnLeafPath, type SourceLite } from "./rows.js";
import { wholeText } from "./whole-text.js";

/** The columns of `fragments` the services read. */
export interface FragmentLite {
	id: number;
	ord: number;
	kind: SemanticKind;
	/** The whole text, or only its stored head when the session file no longer holds the rest (`whole` false). */
	text: string;
	whole: boolean;
	charCount: number;
	toolName: string | null;
	toolCallId: string | null;
}

/** A fragment row as read, before its text is decoded. */
type StoredFragment = Omit<FragmentLite, "text" | "whole"> & { text: StoredFragmentText };

function decoded(db: QueryDb, row: StoredFragment): FragmentLite {
	return { ...row, ...wholeText(db, row) };
}

/** A tool result's tool and call id are stored once, on its event (project-entry.ts); a tool call's on itself. */
const ownOrResult = (column: string) =>
	`coalesce(f.${column}, CASE WHEN f.kind = ${codeSql("kind", "tool_result")} THEN e.${column} END)`;

const FRAGMENT_COLUMNS = `f.id AS id, f.ord AS ord, ${decodedSql("kind", "f.kind")} AS kind, f.text AS text, f.char_count AS charCount,
	${ownOrResult("tool_name")} AS toolName, ${ownOrResult("tool_call_id")} AS toolCallId`;

const FRAGMENTS_WITH_EVENT = "fragments f JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq";

/** Fragments of one event in order, at most `limit`. */
export function fragmentsOf(db: QueryDb, sourceId: number, seq: number, limit: number): FragmentLite[] {
	return all<StoredFragment>(
		db,
		`SELECT ${FRAGMENT_COLUMNS} FROM ${FRAGMENTS_WITH_EVENT} WHERE f.source_id = ? AND f.event_seq = ? ORDER BY f.ord LIMIT ?`,
		[sourceId, seq, limit],
	).map((row) => decoded(db, row));
}

/** Number of fragments of one event. */
export function fragmentCount(db: QueryDb, sourceId: number, seq: number): number {
	return (
		get<{ n: number }>(db, "SELECT count(*) AS n FROM fragments WHERE source_id = ? AND event_seq = ?", [sourceId, seq])
			?.n ?? 0
	);
}

/** One fragment of an event by ord. */
export function fragmentByOrd(db: QueryDb, sourceId: number, seq: number, ord: number): FragmentLite | undefined {
	const row = get<StoredFragment>(
		db,
		`SELECT ${FRAGMENT_COLUMNS} FROM ${FRAGMENTS_WITH_EVENT} WHERE f.source_id = ? AND f.event_seq = ? AND f.ord = ?`,
		[sourceId, seq, ord],
	);
	return row && decoded(db, row);
}

/** A bounded trace node: metadata plus a short preview of the first fragment. */
export function toTraceNode(db: QueryDb, source: SourceLite, e: EventLite, previewChars: number): TraceNode {
	const node: TraceNode = {
		sessionId: source.sessionId ?? "",
		entryId: entryName(db, e),
		entryType: e.entryType,
		timestamp: e.timestamp,
		branchState: asBranchState(e.branchState),
		selectionState: asSelectionState(e.selectionState),
		towardLeaf: isOnLeafPath(e),
	};
	if (e.role) node.role = e.role;
	if (e.toolName) node.toolName = e.toolName;
	const preview = firstPreview(db, e, previewChars);
	if (preview) node.preview = preview;
	return node;
}

/** Preview of an event's first fragment, or undefined when it has none or the budget is 0. */
export function firstPreview(db: QueryDb, e: EventLite, previewChars: number) {
	if (previewChars <= 0) return undefined;
	const first = fragmentsOf(db, e.sourceId, e.seq, 1)[0];
	return first ? previewText(first.text, previewChars) : undefined;
}
