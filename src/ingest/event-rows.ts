/**
 * An event's values as the writer binds them, derived from its projection before the write: coded columns,
 * JSON texts, each fragment's stored text (store/fragment-text.ts), FTS body (text/search-text.ts) and own tags
 * (text/fragment-tags.ts). Only what needs the store is left to the writer: the source id, the session's cwd tag,
 * tree states and the shared attribute set's id. Rows are tuples, so a chunk of them crosses between threads
 * (prefetch.ts) without a property name per value; the prefetch thread makes them ahead of the writer, the writer
 * makes them itself, one event at a time, for what it reads itself.
 */
import { RETRIEVAL_TOOL_NAMES } from "../contract.js";
import type { ProjectedEvent, ProjectedFragment } from "../project/types.js";
import { isSharedAttributeSet } from "../store/attribute-sets.js";
import { decodeCode, encodeCode, encodeNullableCode, encodeTimestamp, type StoredCode } from "../store/column-codes.js";
import { weightClass } from "../store/fragment-ids.js";
import { encodeFragmentText, type StoredFragmentText } from "../store/fragment-text.js";
import type { PreparedDictionary } from "../store/lz-dict.js";
import { ownTags } from "../text/fragment-tags.js";
import { searchText } from "../text/search-text.js";

/** One fragment's values for `fragments` and `fragments_fts`. */
type FragmentRow = [
	weightClass: number,
	ord: number,
	kind: StoredCode,
	stored: StoredFragmentText,
	charCount: number,
	toolName: string | null,
	toolCallId: string | null,
	body: FtsBody,
	ownTags: string,
	/** A tool call's own paths as JSON (fragments.files), or null. */
	files: string | null,
];

/**
 * A fragment's FTS body, or for a piece of a long line (ProjectedFragment.piece) how to make it: read as it is
 * inserted, so a long line's pieces are never all held at once. Such rows never cross threads (prefetch.ts leaves
 * long lines to the writer).
 */
type FtsBody = string | (() => string);

/** One event's values for `events`, the facts its tree node is made of first, then its fragments' rows. */
export type EventRow = [
	seq: number,
	entryId: string,
	parentId: string | null,
	entryType: string,
	linkId: string | null,
	role: StoredCode | null,
	toolName: string | null,
	toolCallId: string | null,
	isError: 0 | 1,
	timestamp: StoredCode,
	lineNo: number,
	byteStart: number,
	byteEnd: number,
	/** The attributes object as JSON, and whether it is stored once for all events (store/attribute-sets.ts). */
	attributes: string,
	sharedAttributes: boolean,
	files: string,
	fragments: FragmentRow[],
];

/** An event as the writer takes it: projected (its rows derived as it is inserted) or already a row. */
export type IndexedEvent = ProjectedEvent | EventRow;

/** The rows of a projected event, its texts packed against `dictionary` (the generation's, text-dictionary.ts). */
export function eventRow(e: ProjectedEvent, dictionary?: PreparedDictionary): EventRow {
	const fragments = e.fragments.map((f): FragmentRow => {
		const toolName = f.toolName ?? null;
		const own = ownTags({
			kind: f.kind,
			toolName: toolName ?? e.toolName ?? null,
			isError: e.isError,
			retrieval: isRetrieval(toolName, e.role ?? null, e.toolName ?? null),
			timestamp: e.timestamp,
		});
		return [
			weightClass(f.kind, f.charCount),
			f.ord,
			encodeCode("kind", f.kind),
			encodeFragmentText(f.text, dictionary),
			f.charCount,
			toolName,
			f.toolCallId ?? null,
			ftsBody(f),
			own,
			f.files ? JSON.stringify(f.files) : null,
		];
	});
	return [
		e.seq,
		e.entryId,
		e.parentId,
		e.entryType,
		e.linkId ?? null,
		encodeNullableCode("role", e.role),
		e.toolName ?? null,
		e.toolCallId ?? null,
		e.isError ? 1 : 0,
		encodeTimestamp(e.timestamp),
		e.lineNo,
		e.byteStart,
		e.byteEnd,
		JSON.stringify(e.attributes),
		isSharedAttributeSet(e.attributes),
		JSON.stringify(e.files),
		fragments,
	];
}

/** A fragment's FTS body: made now, or for a long line's piece when it is inserted. */
function ftsBody(f: ProjectedFragment): FtsBody {
	const { piece } = f;
	return piece ? () => searchText(piece.read(), f.kind) : searchText(f.text, f.kind);
}

/** The row of an event of either form (a prepared row was packed against the dictionary its thread was given). */
export function rowOf(e: IndexedEvent, dictionary?: PreparedDictionary): EventRow {
	return Array.isArray(e) ? e : eventRow(e, dictionary);
}

/** The facts of an event's tree node and leaf, from either form. */
export function eventNode(e: IndexedEvent): {
	seq: number;
	entryId: string;
	parentId: string | null;
	entryType: string;
	linkId?: string;
	role?: string;
} {
	if (!Array.isArray(e)) return e;
	const [seq, entryId, parentId, entryType, linkId, storedRole] = e;
	const node: ReturnType<typeof eventNode> = { seq, entryId, parentId, entryType };
	if (linkId !== null) node.linkId = linkId;
	const role = decodeCode("role", storedRole);
	if (role !== null) node.role = role;
	return node;
}

/** Calls and results of the retrieval tools stay indexed as audit evidence but are hidden from ordinary searches. */
export function isRetrieval(fragmentTool: string | null, role: string | null, eventTool: string | null): boolean {
	if (fragmentTool !== null && RETRIEVAL_TOOL_NAMES.includes(fragmentTool)) return true;
	return role === "toolResult" && eventTool !== null && RETRIEVAL_TOOL_NAMES.includes(eventTool);
}
