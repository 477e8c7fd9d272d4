/**
 * Tree states of a whole file that is indexed for the first time, worked out before its first batch.
 *
 * A file longer than one batch is indexed batch by batch, and each batch's tree states can only see the entries
 * read so far: a compaction or a branch in a later batch changes the states of earlier entries, whose FTS rows must
 * then be deleted and tokenized again (`SourceRows.retag`). In a cold build that was 15 % of the CPU. One parse of
 * the file's skeleton up front (no projection, no write lock held) gives every entry its final states at insert.
 * The parse is the indexer's own (`parseChunk`), so `seq` numbers match exactly; the last batch still recomputes
 * the states from the stored skeleton, so a plan can only save work, never decide a state.
 */

import { closeSync } from "node:fs";
import { DEFAULT_MAX_LINE_BYTES, initialParseState, parseChunk } from "../parse/parse-chunk.js";
import { computeTreeStates, treeNodeOfEntry } from "../project/tree-states.js";
import type { TreeNode, TreeStates } from "../project/types.js";
import { chunkReader, nextParseBuffer } from "./chunk-reader.js";
import { type FileFacts, openRegularFile, sameFacts } from "./file-facts.js";

/** The planned states of a file's entries, valid while the file still has these facts. */
export interface StatePlan {
	file: FileFacts;
	states: Map<number, TreeStates>;
}

/**
 * A line longer than this ends the plan: joining its chunks left tens of MiB of short-lived buffers behind (a 6 MiB
 * line: 21 MiB; peak RSS of a cold build +7 MiB). Such files are rare and are indexed unplanned, as before.
 */
export const PLAN_MAX_LINE_BYTES = 1 << 20;

/**
 * Plans the states of every entry of the file at `path` as it is now; undefined when it cannot be opened or holds a
 * line longer than PLAN_MAX_LINE_BYTES.
 */
export function planTreeStates(path: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES): StatePlan | undefined {
	const opened = openRegularFile(path);
	if (!opened) return undefined;
	try {
		const nodes = skeleton(opened.fd, opened.file.size, maxLineBytes);
		return nodes && { file: opened.file, states: computeTreeStates(nodes) };
	} finally {
		closeSync(opened.fd);
	}
}

function skeleton(fd: number, size: number, maxLineBytes: number): TreeNode[] | undefined {
	const nodes: TreeNode[] = [];
	const reader = chunkReader(fd, 0, size);
	let state = initialParseState();
	let pending: Uint8Array = new Uint8Array(0);
	// Reading past PLAN_MAX_LINE_BYTES of one line is where planning stops.
	const readUpTo = PLAN_MAX_LINE_BYTES + 1;
	for (let next = nextParseBuffer(reader, pending, readUpTo); next; next = nextParseBuffer(reader, pending, readUpTo)) {
		pending = next;
		const parsed = parseChunk(pending, state, { maxLineBytes, skeleton: true });
		pending = pending.subarray(parsed.state.byteOffset - state.byteOffset);
		if (pending.length > PLAN_MAX_LINE_BYTES) return undefined;
		state = parsed.state;
		for (const entry of parsed.entries) nodes.push(treeNodeOfEntry(entry));
	}
	return nodes;
}

/** True when `plan` was made from the file as it is now (same identity, size and modification time). */
export function planHolds(plan: StatePlan, file: FileFacts): boolean {
	return sameFacts(plan.file, file);
}

/** The planned states (a map covering `nodes`), or undefined when the plan lacks any of them (the file grew since). */
export function plannedStates(plan: StatePlan, nodes: TreeNode[]): Map<number, TreeStates> | undefined {
	return nodes.every((n) => plan.states.has(n.seq)) ? plan.states : undefined;
}
