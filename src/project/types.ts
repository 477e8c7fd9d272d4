/** Shapes produced by the projector and the tree-state computation (pure; no I/O). */
import type { BranchState, SelectionState, SemanticKind } from "../contract.js";

/** One searchable piece of an event. Never contains assistant reasoning or image bytes. */
export interface ProjectedFragment {
	/** 0-based position within its event; the public id is `${entryId}#${ord}`. */
	ord: number;
	kind: SemanticKind;
	text: string;
	/** Length of `text` in Unicode code points. */
	charCount: number;
	/** tool_call: the call's tool and id. A tool_result's are its event's (ProjectedEvent). */
	toolName?: string;
	toolCallId?: string;
	/** tool_call: the paths its own arguments name (render-arguments.ts pathsFromArguments), when any. */
	files?: string[];
	/**
	 * Set on a piece of a long line's text (a line read without holding it whole, ingest/long-line-read.ts): `text` is
	 * then only the piece's stored head (store/fragment-text.ts storedPart), and `read()` reads the whole piece again
	 * from the file. Pieces of one text are read fastest in order.
	 */
	piece?: { read(): string };
}

/** One public event = one persisted entry. */
export interface ProjectedEvent {
	seq: number;
	entryId: string;
	parentId: string | null;
	entryType: string;
	role?: string;
	toolName?: string;
	/** toolResult: the call it answers. */
	toolCallId?: string;
	isError: boolean;
	timestamp: string;
	lineNo: number;
	byteStart: number;
	byteEnd: number;
	/** compaction → firstKeptEntryId, branch_summary → fromId, label → targetId. */
	linkId?: string;
	/** Small scalar metadata (model, thinking level, exit code, custom type, stop reason…). */
	attributes: Record<string, string | number | boolean | null>;
	/**
	 * Paths named by tool arguments, a bash command or summary details (file evidence for traces and the `paths`
	 * filter). A tool result's are its call's, filled in by the writer (ingest/source-rows.ts).
	 */
	files: string[];
	/** session_info: the name it sets ("" clears). */
	sessionName?: string;
	fragments: ProjectedFragment[];
}

/** The minimum of an event that tree-state computation needs. */
export interface TreeNode {
	seq: number;
	entryId: string;
	parentId: string | null;
	entryType: string;
	/** compaction: firstKeptEntryId; branch_summary: fromId; context_edit: targetId. */
	linkId?: string | null;
	/** A message's role where tree states depend on it: `system` (conversation.ts); absent or null otherwise. */
	role?: string | null;
}

export interface TreeStates {
	branchState: BranchState;
	selectionState: SelectionState;
}
