/**
 * traceEvent: the bounded local relationship graph of one event — parent, children, derived branch siblings, and
 * related edges (tool call ↔ result, compaction, branch summary, labels, file evidence, cross-session forks).
 * Transitive traversal of related edges is opt-in (`depth` > 1) and bounded by the budgets.
 */
import type { EventTrace, TraceEdge, TraceEdgeKind } from "../contract.js";
import { codeSql } from "../store/column-codes.js";
import type { AuthorizedRoots } from "./authorize.js";
import type { CallerContext } from "./caller.js";
import { all, get, type QueryDb } from "./db.js";
import { invalidField } from "./errors.js";
import { eventTargetIds, findEventTarget } from "./event-target.js";
import { childSources, parentSource } from "./forks.js";
import { toTraceNode } from "./fragments.js";
import {
	childrenOf,
	coverageOf,
	displayFile,
	EVENT_COLUMNS,
	type EventLite,
	eventById,
	FORK_CANDIDATE_CAP,
	linkedTo,
	parseFiles,
	type QueryOptions,
	type SourceLite,
} from "./rows.js";

/** Request of event_trace. */
export interface EventTraceRequest {
	sessionId: string;
	entryId: string;
	/** Follow related edges transitively up to this depth (1 = direct edges only; capped by the budget). */
	depth?: number;
}

/** A related edge before it becomes public: the node's source and event, or a file. */
interface RawEdge {
	kind: TraceEdgeKind;
	inferred: boolean;
	source?: SourceLite;
	event?: EventLite;
	file?: string;
}

const OUTGOING_LINK: Record<string, TraceEdgeKind> = {
	compaction: "compaction-kept",
	branch_summary: "branch-summary-from",
	label: "label",
};
const INCOMING_LINK: Record<string, TraceEdgeKind> = {
	compaction: "compacted-by",
	branch_summary: "summarized-by",
	label: "labels",
};

const TOOL_CALL = codeSql("kind", "tool_call");

/** Related edges of one event, at most `limit`. */
function relatedOf(db: QueryDb, auth: AuthorizedRoots, source: SourceLite, e: EventLite, limit: number): RawEdge[] {
	const out: RawEdge[] = [];
	// Tool call → result: a result answers the nearest preceding call with its id (faux/real ids may repeat). Both
	// directions walk the session from the event in file order and stop at the first match, a few rows away as Pi
	// writes results right after their call; no index on call ids is kept (they cost 4 % of the index).
	const calls = all<{ toolCallId: string }>(
		db,
		`SELECT tool_call_id AS toolCallId FROM fragments WHERE source_id = ? AND event_seq = ? AND kind = ${TOOL_CALL}
			AND tool_call_id IS NOT NULL ORDER BY ord`,
		[e.sourceId, e.seq],
	);
	for (const { toolCallId } of calls) {
		const result = get<EventLite>(
			db,
			`SELECT ${EVENT_COLUMNS} FROM events e
				WHERE e.source_id = ? AND e.seq > ? AND e.tool_call_id = ? AND e.role = ${codeSql("role", "toolResult")}
				ORDER BY e.seq LIMIT 1`,
			[e.sourceId, e.seq, toolCallId],
		);
		if (result) out.push({ kind: "tool-result", inferred: false, source, event: result });
	}
	if (e.role === "toolResult" && e.toolCallId) {
		const call = get<EventLite>(
			db,
			`SELECT ${EVENT_COLUMNS} FROM events e WHERE e.source_id = ? AND e.seq = (
				SELECT f.event_seq FROM fragments f INDEXED BY fragments_event_ord
				WHERE f.source_id = ? AND f.event_seq < ? AND f.kind = ${TOOL_CALL} AND f.tool_call_id = ?
				ORDER BY f.event_seq DESC LIMIT 1)`,
			[e.sourceId, e.sourceId, e.seq, e.toolCallId],
		);
		if (call) out.push({ kind: "tool-call", inferred: false, source, event: call });
	}
	const outgoing = OUTGOING_LINK[e.entryType];
	if (outgoing && e.linkId) {
		const linked = eventById(db, e.sourceId, e.linkId);
		if (linked) out.push({ kind: outgoing, inferred: false, source, event: linked });
	}
	for (const l of linkedTo(db, e.sourceId, e.entryId, limit)) {
		const kind = INCOMING_LINK[l.entryType];
		if (kind) out.push({ kind, inferred: false, source, event: l });
	}
	for (const file of parseFiles(e.files))
		out.push({ kind: "file", inferred: true, file: displayFile(file, source.cwd) });
	// Cross-session fork edges: the same copied entry in the parent session and in child sessions.
	const parent = parentSource(db, auth, source);
	if (parent) {
		const copy = eventById(db, parent.id, e.entryId);
		if (copy) out.push({ kind: "session-fork-parent", inferred: true, source: parent, event: copy });
	}
	for (const child of childSources(db, auth, source, FORK_CANDIDATE_CAP)) {
		const copy = eventById(db, child.id, e.entryId);
		if (copy) out.push({ kind: "session-fork-child", inferred: true, source: child, event: copy });
	}
	return out;
}

/** Trace one event; throws QueryError for invalid requests and the one not-found failure for missing/unauthorized. */
export function traceEvent(
	db: QueryDb,
	req: EventTraceRequest,
	caller: CallerContext,
	options: QueryOptions = {},
): EventTrace {
	const ids = eventTargetIds(req, "trace");
	const budgets = caller.budgets;
	if (req.depth !== undefined && req.depth !== null) {
		if (typeof req.depth !== "number" || !Number.isInteger(req.depth) || req.depth < 1) {
			throw invalidField("depth", "must be a positive integer.");
		}
	}
	const maxDepth = Math.min(req.depth ?? 1, budgets.traceMaxDepth);
	const { auth, source, target } = findEventTarget(db, caller, ids);

	const cap = budgets.traceEdges;
	const previewChars = budgets.neighborPreviewChars;
	let used = 0;
	let truncated = false;
	const take = () => {
		if (used >= cap) {
			truncated = true;
			return false;
		}
		used++;
		return true;
	};
	const node = (src: SourceLite, e: EventLite) => toTraceNode(db, src, e, previewChars);

	const trace: EventTrace = {
		target: node(source, target),
		children: [],
		branchSiblings: [],
		related: [],
		truncated: false,
		coverage: coverageOf(db, options),
	};
	const parent = target.parentId !== null ? eventById(db, source.id, target.parentId) : undefined;
	if (parent && take()) trace.parent = { kind: "parent", node: node(source, parent), inferred: false };
	const kids = childrenOf(db, source.id, target.entryId, cap + 1);
	for (const k of kids) {
		if (!take()) break;
		trace.children.push({ kind: "child", node: node(source, k), inferred: false });
	}
	if (parent) {
		for (const s of childrenOf(db, source.id, parent.entryId, cap + 2)) {
			if (s.seq === target.seq) continue;
			if (!take()) break;
			trace.branchSiblings.push({ kind: "branch-sibling", node: node(source, s), inferred: false, derived: true });
		}
	}

	// Related edges, breadth first; depth > 1 follows node edges transitively.
	const seen = new Set<string>([`${source.id}:${target.seq}`]);
	let frontier: Array<{ source: SourceLite; event: EventLite }> = [{ source, event: target }];
	for (let depth = 1; depth <= maxDepth && frontier.length > 0 && !truncated; depth++) {
		const next: typeof frontier = [];
		for (const item of frontier) {
			for (const raw of relatedOf(db, auth, item.source, item.event, cap + 1)) {
				if (raw.event && raw.source) {
					const key = `${raw.source.id}:${raw.event.seq}`;
					if (depth > 1 && seen.has(key)) continue;
					if (!take()) break;
					const edge: TraceEdge = { kind: raw.kind, node: node(raw.source, raw.event), inferred: raw.inferred };
					if (maxDepth > 1) edge.depth = depth;
					trace.related.push(edge);
					if (!seen.has(key)) {
						seen.add(key);
						next.push({ source: raw.source, event: raw.event });
					}
				} else if (raw.file !== undefined) {
					if (!take()) break;
					const edge: TraceEdge = { kind: "file", file: raw.file, inferred: raw.inferred };
					if (maxDepth > 1) edge.depth = depth;
					trace.related.push(edge);
				}
			}
			if (truncated) break;
		}
		frontier = next;
	}
	trace.truncated = truncated;
	return trace;
}
