/**
 * readEvent: one authorized event with bounded fragments (head/tail previews, or one movable window of a targeted
 * fragment), branch-aware or append-order neighbours, and fork receipts. Index-only; every lookup is indexed, so
 * the cost depends on the requested window, not on the session's length.
 */

import type { Budgets } from "../config/budgets.js";
import type {
	BranchForkReceipt,
	EventReadRequest,
	EventReadResult,
	EventRef,
	FragmentView,
	FragmentWindow,
	NeighborEvent,
	ParentCycle,
} from "../contract.js";
import { previewText, windowText } from "../text/preview.js";
import { STORED_HEAD_CHARS } from "../text/stored-head.js";
import type { AuthorizedRoots } from "./authorize.js";
import type { CallerContext } from "./caller.js";
import { conversationalChildren, conversationalParent, IN_CONVERSATION_SQL } from "./conversation.js";
import { all, type QueryDb } from "./db.js";
import { entryName, isShadowed } from "./entry-occurrence.js";
import { echo, invalidField, QueryError } from "./errors.js";
import { type EventTargetIds, eventTargetIds, findEventTarget } from "./event-target.js";
import { childSources, forkAnchor, parentSource } from "./forks.js";
import { firstPreview, fragmentByOrd, fragmentCount, fragmentsOf } from "./fragments.js";
import { checkKeys } from "./request-keys.js";
import {
	childrenOf,
	coverageOf,
	EVENT_COLUMNS,
	type EventLite,
	FORK_CANDIDATE_CAP,
	isOnLeafPath,
	type QueryOptions,
	refOf,
	type SourceLite,
	toMetadata,
} from "./rows.js";

/** Parses and checks a public fragment id `${entryId}#${ord}` against the target entry. */
function parseFragmentId(fragmentId: string, entryId: string): number {
	const hash = fragmentId.lastIndexOf("#");
	const ord = hash > 0 ? Number(fragmentId.slice(hash + 1)) : Number.NaN;
	if (hash <= 0 || fragmentId.slice(0, hash) !== entryId || !Number.isInteger(ord) || ord < 0) {
		throw invalidField(
			"matchingFragmentId",
			`must be a fragment of entry ${echo(entryId)}, like "${echo(entryId)}#0".`,
		);
	}
	return ord;
}

function neighbourCount(name: string, value: unknown, fallback: number, max: number): number {
	if (value === undefined || value === null) return Math.min(fallback, max);
	if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
		throw invalidField(name, "must be a non-negative integer.");
	}
	// Callers may ask for fewer, never for more than the configured maximum.
	return Math.min(value, max);
}

/**
 * Branch-order walk: predecessors by parentId, successors toward the leaf or along a sole-child chain. A parent link
 * back into the line already walked (a self-parent, or A→B→A) ends the walk in that direction and is reported once
 * (`cycle`): Pi's session tree takes a self-parent for a root and gives a longer cycle none, so nothing beyond it is
 * a neighbour, and no event is its own neighbour or child.
 */
function branchWalk(db: QueryDb, source: SourceLite, target: EventLite, before: number, after: number): Walk {
	const forks: BranchForkReceipt[] = [];
	const predecessors: EventLite[] = [];
	const onLine = new Set<number>([target.seq]);
	let cycle: ParentCycle | undefined;
	const meetsLine = (e: EventLite, parentId: string) => {
		cycle ??= { at: refOf(source, e.entryId), parentId };
	};
	let cur = target;
	for (let i = 0; i < before; i++) {
		const parent = conversationalParent(db, source.id, cur)?.event;
		if (parent === undefined) break;
		if (onLine.has(parent.seq)) {
			meetsLine(cur, parent.entryId);
			break;
		}
		const kids = conversationalKids(db, source, parent.entryId).filter((k) => k.seq !== parent.seq);
		if (kids.length > 1) {
			forks.push({
				kind: "in-session",
				at: refOf(source, parent.entryId),
				candidates: kids.map((k) => refOf(source, k.entryId)),
				chosen: refOf(source, entryName(db, cur)),
			});
		}
		predecessors.unshift(parent);
		onLine.add(parent.seq);
		cur = parent;
	}
	const successors: EventLite[] = [];
	const towardLeaf = isOnLeafPath(target);
	cur = target;
	for (let i = 0; i < after && !isShadowed(db, cur); i++) {
		// An event that names itself as parent is not its own child (Pi: a root).
		const kids = conversationalKids(db, source, cur.entryId).filter((k) => k.seq !== cur.seq);
		if (kids.length === 0) break;
		let next: EventLite | undefined;
		if (towardLeaf) {
			const onPath = kids.filter(isOnLeafPath);
			next = onPath[onPath.length - 1];
		} else if (kids.length === 1) next = kids[0];
		if (next !== undefined && onLine.has(next.seq)) {
			meetsLine(next, cur.entryId);
			next = undefined;
		}
		if (kids.length > 1) {
			const receipt: BranchForkReceipt = {
				kind: "in-session",
				at: refOf(source, cur.entryId),
				candidates: kids.map((k) => refOf(source, k.entryId)),
			};
			if (next) receipt.chosen = refOf(source, next.entryId);
			forks.push(receipt);
		}
		if (next === undefined) break;
		successors.push(next);
		onLine.add(next.seq);
		cur = next;
	}
	return cycle ? { predecessors, successors, forks, cycle } : { predecessors, successors, forks };
}

/** The children of an entry as the conversation shows them (conversation.ts), at most FORK_CANDIDATE_CAP. */
function conversationalKids(db: QueryDb, source: SourceLite, entryId: string): EventLite[] {
	return conversationalChildren(db, source.id, entryId, FORK_CANDIDATE_CAP).map((c) => c.event);
}

/** Append-order neighbours: the file's previous and next entries of the conversation, whatever their branch. */
function appendWalk(db: QueryDb, source: SourceLite, target: EventLite, before: number, after: number) {
	const predecessors = all<EventLite>(
		db,
		`SELECT ${EVENT_COLUMNS} FROM events e WHERE e.source_id = ? AND e.seq < ? AND ${IN_CONVERSATION_SQL}
			ORDER BY e.seq DESC LIMIT ?`,
		[source.id, target.seq, before],
	).reverse();
	const successors = all<EventLite>(
		db,
		`SELECT ${EVENT_COLUMNS} FROM events e WHERE e.source_id = ? AND e.seq > ? AND ${IN_CONVERSATION_SQL}
			ORDER BY e.seq LIMIT ?`,
		[source.id, target.seq, after],
	);
	return { predecessors, successors, forks: [] as BranchForkReceipt[] };
}

/**
 * Session-fork receipts for the entries of the window: child sessions copied from this one that diverge at one of
 * them, and this session's own divergence from its parent. Only indexed, authorized sessions take part.
 */
function sessionForkReceipts(
	db: QueryDb,
	auth: AuthorizedRoots,
	source: SourceLite,
	window: EventLite[],
	continuationOf: (entryId: string) => string | undefined,
): BranchForkReceipt[] {
	const ids = new Set(window.map((e) => e.entryId));
	const byAnchor = new Map<string, BranchForkReceipt>();
	for (const child of childSources(db, auth, source)) {
		const anchor = forkAnchor(db, child, source);
		if (anchor === undefined || !ids.has(anchor.anchorEntryId) || !child.sessionId) continue;
		let receipt = byAnchor.get(anchor.anchorEntryId);
		if (receipt === undefined) {
			receipt = { kind: "session-fork", at: refOf(source, anchor.anchorEntryId), candidates: [] };
			const own = continuationOf(anchor.anchorEntryId);
			if (own !== undefined) {
				receipt.candidates.push(refOf(source, own));
				receipt.chosen = refOf(source, own);
			}
			byAnchor.set(anchor.anchorEntryId, receipt);
		}
		receipt.candidates.push(refOf(child, anchor.childContinuationId ?? anchor.anchorEntryId));
	}
	const receipts = [...byAnchor.values()];
	const parent = parentSource(db, auth, source);
	if (parent?.sessionId) {
		const anchor = forkAnchor(db, source, parent);
		if (anchor !== undefined && ids.has(anchor.anchorEntryId)) {
			const candidates: EventRef[] = [];
			const parentNext = childrenOf(db, parent.id, anchor.anchorEntryId, FORK_CANDIDATE_CAP);
			const parentChosen =
				parentNext.filter(isOnLeafPath).pop() ?? (parentNext.length === 1 ? parentNext[0] : undefined);
			if (parentChosen) candidates.push(refOf(parent, parentChosen.entryId));
			const receipt: BranchForkReceipt = {
				kind: "session-fork",
				// The parent-session event is the canonical identity of the fork point.
				at: refOf(parent, anchor.anchorEntryId),
				candidates,
			};
			if (anchor.childContinuationId) {
				candidates.push(refOf(source, anchor.childContinuationId));
				receipt.chosen = refOf(source, anchor.childContinuationId);
			}
			receipts.push(receipt);
		}
	}
	return receipts;
}

/** A window was asked of a long fragment whose session file no longer holds the line the index read. */
function restUnavailable(fragmentId: string): QueryError {
	return new QueryError(
		"not_found",
		`Fragment ${echo(fragmentId)} can no longer be read whole: the index keeps its first ${STORED_HEAD_CHARS} characters and its session file was changed or removed since. Read the event without "matchingFragmentId" for its preview.`,
	);
}

/** A read request checked field by field: the ids, the walk order, the neighbour counts and the targeted fragment. */
interface ReadPlan {
	ids: EventTargetIds;
	order: "branch" | "append";
	before: number;
	after: number;
	/** Ordinal of the fragment `matchingFragmentId` names; undefined reads previews of the first fragments. */
	targetOrd: number | undefined;
}

/** The fragments part of a read: previews, or one window of the targeted fragment, and their coverage. */
interface ReadFragments {
	fragments: FragmentView[];
	window: FragmentWindow | undefined;
	coverage: EventReadResult["fragmentCoverage"];
}

/** Neighbours found by a walk, in window order, with the in-session forks met on the way. */
interface Walk {
	predecessors: EventLite[];
	successors: EventLite[];
	forks: BranchForkReceipt[];
	/** Where a parent link led back into the line (branch order only). */
	cycle?: ParentCycle;
}

/** The keys of a read request (the compiler checks the list against EventReadRequest). */
const READ_KEYS = Object.keys({
	sessionId: true,
	entryId: true,
	matchingFragmentId: true,
	offset: true,
	before: true,
	after: true,
	order: true,
} satisfies Record<keyof EventReadRequest, true>);

/** Checks every field of a read request before any lookup; throws QueryError naming the first bad field. */
function readPlan(req: EventReadRequest, budgets: Budgets): ReadPlan {
	if (req !== null && typeof req === "object") checkKeys(req, READ_KEYS, "event_read");
	const ids = eventTargetIds(req, "read");
	const order = req.order ?? "branch";
	if (order !== "branch" && order !== "append") throw invalidField("order", 'must be "branch" or "append".');
	const before = neighbourCount("before", req.before, budgets.defaultNeighbors, budgets.maxNeighbors);
	const after = neighbourCount("after", req.after, budgets.defaultNeighbors, budgets.maxNeighbors);
	const targetsFragment = req.matchingFragmentId !== undefined && req.matchingFragmentId !== null;
	checkOffset(req.offset, targetsFragment);
	const targetOrd = targetsFragment ? parseFragmentId(String(req.matchingFragmentId), ids.entryId) : undefined;
	return { ids, order, before, after, targetOrd };
}

/** Checks `offset`: a non-negative integer, given only with a `matchingFragmentId` (`targetsFragment`). */
function checkOffset(offset: EventReadRequest["offset"], targetsFragment: boolean): void {
	if (offset === undefined || offset === null) return;
	if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
		throw invalidField("offset", "must be a non-negative integer (code points).");
	}
	if (!targetsFragment) throw invalidField("offset", 'needs "matchingFragmentId".');
}

/** Reads the target's fragments: one window of the targeted fragment, else bounded previews of the first ones. */
function readFragments(
	db: QueryDb,
	source: SourceLite,
	target: EventLite,
	plan: ReadPlan,
	offset: EventReadRequest["offset"],
	budgets: Budgets,
): ReadFragments {
	const total = fragmentCount(db, source.id, target.seq);
	let fragments: FragmentView[] = [];
	let window: FragmentWindow | undefined;
	let returned: number;
	if (plan.targetOrd !== undefined) {
		window = fragmentWindow(db, source, target, plan.ids.entryId, plan.targetOrd, offset, budgets.windowChars);
		returned = 1;
	} else {
		fragments = fragmentPreviews(db, source, target, plan.ids.entryId, budgets);
		returned = fragments.length;
	}
	return { fragments, window, coverage: { total, returned, omitted: total - returned, truncated: total > returned } };
}

/** One fixed-size window of fragment `ord` of the target, starting at `offset` (moved when needed). */
function fragmentWindow(
	db: QueryDb,
	source: SourceLite,
	target: EventLite,
	entryId: string,
	ord: number,
	offset: EventReadRequest["offset"],
	windowChars: number,
): FragmentWindow {
	const frag = fragmentByOrd(db, source.id, target.seq, ord);
	if (frag === undefined) {
		throw invalidField("matchingFragmentId", `names no fragment of entry ${echo(entryId)}: it has no #${ord}.`);
	}
	if (!frag.whole) throw restUnavailable(`${entryId}#${frag.ord}`);
	const w = windowText(frag.text, offset ?? 0, windowChars);
	const window: FragmentWindow = {
		fragmentId: `${entryId}#${frag.ord}`,
		semanticKind: frag.kind,
		offset: w.offset,
		text: w.text,
		totalChars: w.totalChars,
		range: w.range,
		hasBefore: w.hasBefore,
		hasAfter: w.hasAfter,
	};
	// Said, not silent: the caller learns its offset was moved to keep the window full and inside the text.
	if (offset !== undefined && offset !== null && w.offset !== offset) window.requestedOffset = offset;
	return window;
}

/** Head/tail previews of the target's first fragments, as many as the budget allows. */
function fragmentPreviews(
	db: QueryDb,
	source: SourceLite,
	target: EventLite,
	entryId: string,
	budgets: Budgets,
): FragmentView[] {
	return fragmentsOf(db, source.id, target.seq, budgets.readFragments).map((f) => {
		const view: FragmentView = {
			fragmentId: `${entryId}#${f.ord}`,
			semanticKind: f.kind,
			text: previewText(f.text, budgets.fragmentPreviewChars),
		};
		if (f.toolName) view.toolName = f.toolName;
		return view;
	});
}

/** The fork receipts of a branch read: the walk's in-session forks, then session forks at the window's entries. */
function branchForks(
	db: QueryDb,
	auth: AuthorizedRoots,
	source: SourceLite,
	target: EventLite,
	walk: Walk,
): BranchForkReceipt[] {
	const line = [...walk.predecessors, target, ...walk.successors];
	return [...walk.forks, ...sessionForkReceipts(db, auth, source, line, continuationIn(db, source, line))];
}

/** This session's continuation after an entry: the next entry of the window, else its selected or sole child. */
function continuationIn(db: QueryDb, source: SourceLite, line: EventLite[]): (entryId: string) => string | undefined {
	const nextInWindow = new Map<string, string>();
	for (let i = 0; i + 1 < line.length; i++) nextInWindow.set(line[i].entryId, line[i + 1].entryId);
	return (id) => {
		if (nextInWindow.has(id)) return nextInWindow.get(id);
		// A self-parent is not its own continuation (Pi: a root).
		const kids = childrenOf(db, source.id, id, FORK_CANDIDATE_CAP).filter((k) => k.entryId !== id);
		const sel = kids.filter(isOnLeafPath).pop();
		return (sel ?? (kids.length === 1 ? kids[0] : undefined))?.entryId;
	};
}

/** The walk's neighbours as returned: predecessors then successors, each with a short preview. */
function neighboursOf(db: QueryDb, source: SourceLite, walk: Walk, previewChars: number): NeighborEvent[] {
	const neighbour = (e: EventLite, relation: "before" | "after"): NeighborEvent => {
		const n: NeighborEvent = { event: toMetadata(db, source, e), relation };
		const preview = firstPreview(db, e, previewChars);
		if (preview) n.preview = preview;
		return n;
	};
	return [
		...walk.predecessors.map((e) => neighbour(e, "before")),
		...walk.successors.map((e) => neighbour(e, "after")),
	];
}

/** Read one event; throws QueryError for invalid requests and the one not-found failure for missing/unauthorized. */
export function readEvent(
	db: QueryDb,
	req: EventReadRequest,
	caller: CallerContext,
	options: QueryOptions = {},
): EventReadResult {
	const budgets = caller.budgets;
	const plan = readPlan(req, budgets);
	const { auth, source, target } = findEventTarget(db, caller, plan.ids);
	const read = readFragments(db, source, target, plan, req.offset, budgets);
	const { order, before, after } = plan;
	const walk: Walk =
		order === "branch" ? branchWalk(db, source, target, before, after) : appendWalk(db, source, target, before, after);
	const forks = order === "branch" ? branchForks(db, auth, source, target, walk) : [];
	const result: EventReadResult = {
		event: toMetadata(db, source, target),
		fragments: read.fragments,
		fragmentCoverage: read.coverage,
		neighbors: neighboursOf(db, source, walk, budgets.neighborPreviewChars),
		order,
		forks,
		coverage: coverageOf(db, options),
	};
	if (read.window) result.window = read.window;
	if (walk.cycle) result.parentCycle = walk.cycle;
	return result;
}
