/**
 * traceEvent: the bounded local relationship graph of one event — parent, children, derived branch siblings, and
 * related edges (tool call ↔ result, compaction, branch summary, labels, file evidence, cross-session forks).
 * Transitive traversal of related edges is opt-in (`depth` > 1) and bounded by the budgets.
 */
import type { EventTrace, TraceEdge, TraceEdgeKind, TraceNode } from "../contract.js";
import { codeSql } from "../store/column-codes.js";
import type { AuthorizedRoots } from "./authorize.js";
import type { CallerContext } from "./caller.js";
import { conversationalChildren, conversationalParent } from "./conversation.js";
import { all, get, type QueryDb } from "./db.js";
import { isShadowed } from "./entry-occurrence.js";
import { invalidField } from "./errors.js";
import { eventTargetIds, findEventTarget } from "./event-target.js";
import { childSources, parentSource } from "./forks.js";
import { toTraceNode } from "./fragments.js";
import { checkKeys } from "./request-keys.js";
import {
	coverageOf,
	displayFile,
	EVENT_COLUMNS,
	type EventLite,
	eventById,
	FORK_CANDIDATE_CAP,
	linkedTo,
	parseFiles,
	type QueryOptions,
	refOf,
	type SourceLite,
} from "./rows.js";

/** Request of event_trace. */
export interface EventTraceRequest {
	sessionId: string;
	entryId: string;
	/** Follow related edges transitively up to this depth (1 = direct edges only; capped by the budget). */
	depth?: number;
}

/** The keys of a trace request (the compiler checks the list against EventTraceRequest). */
const TRACE_KEYS = Object.keys({ sessionId: true, entryId: true, depth: true } satisfies Record<
	keyof EventTraceRequest,
	true
>);

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
		// A long call is several pieces with one id (text-pieces.ts): one edge per call.
		`SELECT tool_call_id AS toolCallId FROM fragments WHERE source_id = ? AND event_seq = ? AND kind = ${TOOL_CALL}
			AND tool_call_id IS NOT NULL GROUP BY tool_call_id ORDER BY MIN(ord)`,
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

/** The trace's one edge budget, shared by all its lists: each edge takes one; the first refusal marks truncation. */
class EdgeBudget {
	private used = 0;
	truncated = false;

	constructor(readonly cap: number) {}

	/** Takes one edge, or refuses (and marks the trace truncated) once the cap is spent. */
	take(): boolean {
		if (this.used >= this.cap) {
			this.truncated = true;
			return false;
		}
		this.used++;
		return true;
	}
}

/** What every step of one trace shares: the database, the caller's roots, the edge budget and the node renderer. */
interface Tracing {
	db: QueryDb;
	auth: AuthorizedRoots;
	budget: EdgeBudget;
	node: (src: SourceLite, e: EventLite) => TraceNode;
}

/** Nodes whose related edges the next depth follows. */
type Frontier = Array<{ source: SourceLite; event: EventLite }>;

/** The depth related edges are followed to: `depth` checked as a positive integer, then capped by the budget. */
function traceDepth(depth: EventTraceRequest["depth"], maxDepth: number): number {
	if (depth !== undefined && depth !== null) {
		if (typeof depth !== "number" || !Number.isInteger(depth) || depth < 1) {
			throw invalidField("depth", "must be a positive integer.");
		}
	}
	return Math.min(depth ?? 1, maxDepth);
}

/**
 * Adds the tree edges: the parent, the children, and the branch siblings derived from the parent's children, as the
 * conversation shows them (conversation.ts); an edge that steps over a system message or usage entry is inferred.
 */
function addTreeEdges(t: Tracing, source: SourceLite, target: EventLite, trace: EventTrace): void {
	const { db, budget, node } = t;
	const stepped = conversationalParent(db, source.id, target);
	// A self-parent is a root, as Pi's session tree takes it: no parent edge, not its own child, no siblings.
	const parent = stepped?.event.seq === target.seq ? undefined : stepped;
	if (stepped && target.parentId !== null && (parent === undefined || parent.event.parentId === target.entryId)) {
		trace.parentCycle = { at: refOf(source, target.entryId), parentId: target.parentId };
	}
	if (parent && budget.take())
		trace.parent = { kind: "parent", node: node(source, parent.event), inferred: parent.stepped };
	// Pi's tree gives an entry shadowed by a later one of its id no children: they are the later one's.
	const kids = isShadowed(db, target)
		? []
		: conversationalChildren(db, source.id, target.entryId, budget.cap + 1).filter((k) => k.event.seq !== target.seq);
	for (const k of kids) {
		if (!budget.take()) break;
		trace.children.push({ kind: "child", node: node(source, k.event), inferred: k.stepped });
	}
	if (parent) {
		for (const s of conversationalChildren(db, source.id, parent.event.entryId, budget.cap + 2)) {
			if (s.event.seq === target.seq) continue;
			if (!budget.take()) break;
			const sibling = node(source, s.event);
			trace.branchSiblings.push({ kind: "branch-sibling", node: sibling, inferred: s.stepped, derived: true });
		}
	}
}

/** Adds the related edges, breadth first; depth > 1 follows node edges transitively. */
function addRelatedEdges(t: Tracing, source: SourceLite, target: EventLite, maxDepth: number, trace: EventTrace): void {
	const seen = new Set<string>([`${source.id}:${target.seq}`]);
	let frontier: Frontier = [{ source, event: target }];
	for (let depth = 1; depth <= maxDepth && frontier.length > 0 && !t.budget.truncated; depth++) {
		frontier = addRelatedLevel(t, frontier, depth, maxDepth, seen, trace);
	}
}

/** Adds the related edges of one depth's frontier; returns the nodes first reached, the next depth's frontier. */
function addRelatedLevel(
	t: Tracing,
	frontier: Frontier,
	depth: number,
	maxDepth: number,
	seen: Set<string>,
	trace: EventTrace,
): Frontier {
	const next: Frontier = [];
	for (const item of frontier) {
		for (const raw of relatedOf(t.db, t.auth, item.source, item.event, t.budget.cap + 1)) {
			if (raw.event && raw.source) {
				const key = `${raw.source.id}:${raw.event.seq}`;
				if (depth > 1 && seen.has(key)) continue;
				if (!t.budget.take()) break;
				const edge: TraceEdge = { kind: raw.kind, node: t.node(raw.source, raw.event), inferred: raw.inferred };
				trace.related.push(atDepth(edge, depth, maxDepth));
				if (!seen.has(key)) {
					seen.add(key);
					next.push({ source: raw.source, event: raw.event });
				}
			} else if (raw.file !== undefined) {
				if (!t.budget.take()) break;
				trace.related.push(atDepth({ kind: "file", file: raw.file, inferred: raw.inferred }, depth, maxDepth));
			}
		}
		if (t.budget.truncated) break;
	}
	return next;
}

/** Marks a related edge with its depth when the trace follows edges transitively. */
function atDepth(edge: TraceEdge, depth: number, maxDepth: number): TraceEdge {
	if (maxDepth > 1) edge.depth = depth;
	return edge;
}

/** Trace one event; throws QueryError for invalid requests and the one not-found failure for missing/unauthorized. */
export function traceEvent(
	db: QueryDb,
	req: EventTraceRequest,
	caller: CallerContext,
	options: QueryOptions = {},
): EventTrace {
	if (req !== null && typeof req === "object") checkKeys(req, TRACE_KEYS, "event_trace");
	const ids = eventTargetIds(req, "trace");
	const budgets = caller.budgets;
	const maxDepth = traceDepth(req.depth, budgets.traceMaxDepth);
	const { auth, source, target } = findEventTarget(db, caller, ids);
	const previewChars = budgets.neighborPreviewChars;
	const node = (src: SourceLite, e: EventLite) => toTraceNode(db, src, e, previewChars);
	const t: Tracing = { db, auth, budget: new EdgeBudget(budgets.traceEdges), node };
	const trace: EventTrace = {
		target: node(source, target),
		children: [],
		branchSiblings: [],
		related: [],
		truncated: false,
		coverage: coverageOf(db, options),
	};
	addTreeEdges(t, source, target, trace);
	addRelatedEdges(t, source, target, maxDepth, trace);
	trace.truncated = t.budget.truncated;
	return trace;
}
