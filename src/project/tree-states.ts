/**
 * branchState / selectionState of every entry of one source, following Pi's tree and `buildSessionContext`.
 * The rules are written down precisely in docs/data-model.md, "Tree states". Pure and O(n) (plus the entries a
 * branch summary covers).
 */
import type { BranchState, SelectionState } from "../contract.js";
import { isSystemMessage, SYSTEM_ROLE } from "../parse/conversation.js";
import type { ParsedEntry } from "../parse/types.js";
import { linkIdOf } from "./project-entry.js";
import type { ProjectedEvent, TreeNode, TreeStates } from "./types.js";

/** Types whose link tree states follow: a compaction's first kept entry, a summary's old leaf, an edit's target. */
const LINKED_TYPES = new Set(["compaction", "branch_summary", "context_edit"]);

/** Entry types whose content can reach the model (everything else is `not-applicable`). */
const CONTEXT_TYPES = new Set(["message", "custom_message", "branch_summary", "compaction"]);

/** Whether entries of this type can ever be part of the model's context. */
function reachesModel(entryType: string): boolean {
	return CONTEXT_TYPES.has(entryType);
}

/** The part of an event tree-state computation needs. */
export function treeNodeOf(
	event: Pick<ProjectedEvent, "seq" | "entryId" | "parentId" | "entryType" | "linkId" | "role">,
): TreeNode {
	return node(event.seq, event.entryId, event.parentId, event.entryType, event.linkId, event.role);
}

/** The same node straight from a parsed entry, without projecting its text (a whole file's plan, state-plan.ts). */
export function treeNodeOfEntry(entry: ParsedEntry): TreeNode {
	const message = entry.type === "message" ? entry.raw.message : undefined;
	const role = message !== null && typeof message === "object" ? (message as { role?: unknown }).role : undefined;
	return node(entry.seq, entry.id, entry.parentId, entry.type, linkIdOf(entry), typeof role === "string" ? role : null);
}

function node(
	seq: number,
	entryId: string,
	parentId: string | null,
	entryType: string,
	linkId?: string,
	role?: string | null,
): TreeNode {
	const n: TreeNode = { seq, entryId, parentId, entryType };
	if (LINKED_TYPES.has(entryType)) n.linkId = linkId ?? null;
	if (isSystemMessage(entryType, role)) n.role = SYSTEM_ROLE;
	return n;
}

const NONE = -1;

/** Whole-source computation: states of every node, keyed by seq. `nodes` are the source's entries in file order. */
export function computeTreeStates(input: TreeNode[]): Map<number, TreeStates> {
	const nodes = isSortedBySeq(input) ? input : [...input].sort((a, b) => a.seq - b.seq);
	const n = nodes.length;
	const out = new Map<number, TreeStates>();
	if (n === 0) return out;

	// Lookups by id use the last entry with that id (Pi builds a Map in file order).
	const byId = new Map<string, number>();
	for (let i = 0; i < n; i++) byId.set(nodes[i].entryId, i);
	const parent = new Int32Array(n);
	for (let i = 0; i < n; i++) {
		const p = nodes[i].parentId;
		parent[i] = p === null ? NONE : (byId.get(p) ?? NONE);
	}

	// The selected chain: parent links from the materialized leaf (the last entry) up to a root.
	const onChain = new Uint8Array(n);
	const chain: number[] = [];
	let cycle = false;
	for (let i = n - 1; i !== NONE; i = parent[i]) {
		if (onChain[i]) {
			cycle = true;
			break;
		}
		onChain[i] = 1;
		chain.push(i);
	}
	const top = chain[chain.length - 1];
	const brokenChain = !cycle && nodes[top].parentId !== null; // ends at a parent id not in the source

	const branch: BranchState[] = new Array(n);
	const selection: SelectionState[] = new Array(n);
	const reach = brokenChain ? reachesChain(parent, onChain) : undefined;
	for (let i = 0; i < n; i++) {
		if (onChain[i]) branch[i] = cycle ? "unknown" : "selected";
		else if (reach && !reach[i]) branch[i] = "unknown";
		else branch[i] = "alternate";
		selection[i] = branch[i] === "selected" ? "direct" : branch[i] === "alternate" ? "not-selected" : "unknown";
	}

	if (!cycle) {
		const path = chain.reverse(); // root first
		markCompacted(nodes, path, selection);
		markContextEdited(nodes, path, byId, onChain, selection);
		let depth: Int32Array | undefined;
		for (const b of path) {
			if (nodes[b].entryType !== "branch_summary") continue;
			depth ??= depths(parent);
			markBranchSummarized(nodes, parent, depth, byId, b, branch, selection);
		}
	}

	for (let i = 0; i < n; i++) {
		const s: SelectionState = reachesModel(nodes[i].entryType) ? selection[i] : "not-applicable";
		out.set(nodes[i].seq, { branchState: branch[i], selectionState: s });
	}
	return out;
}

/**
 * Pi's `buildSessionContext`: before the last compaction on the path, only entries from its firstKeptEntryId on are
 * sent, and of those no system message (Pi 1.x sends the compaction's own `systemMessage` checkpoint instead).
 */
function markCompacted(nodes: TreeNode[], path: number[], selection: SelectionState[]): void {
	let ci = -1;
	for (let k = path.length - 1; k >= 0; k--) {
		if (nodes[path[k]].entryType === "compaction") {
			ci = k;
			break;
		}
	}
	if (ci < 0) return;
	const firstKept = nodes[path[ci]].linkId;
	let fk = -1;
	for (let k = 0; k < ci && firstKept; k++) {
		if (nodes[path[k]].entryId === firstKept) {
			fk = k;
			break;
		}
	}
	for (let k = 0; k < ci; k++) {
		const i = path[k];
		// Older compactions are never re-sent; their summaries live on inside the last one, and older system
		// messages inside its systemMessage.
		if (fk < 0 || k < fk || nodes[i].entryType === "compaction" || nodes[i].role === SYSTEM_ROLE) {
			selection[i] = "summarized";
		}
	}
}

/**
 * Pi 1.x's `buildSessionProjection`: a `context_edit` that is itself sent (on the path, not summarized) omits its
 * target from what the model is sent (`replacement: null`, what Pi writes after a failed attempt it retries) or
 * replaces the target's content. Either way the target's indexed content no longer reaches the model, so a `direct`
 * target becomes `not-selected`. Pi edits only user, assistant, tool-result and custom messages.
 */
function markContextEdited(
	nodes: TreeNode[],
	path: number[],
	byId: Map<string, number>,
	onChain: Uint8Array,
	selection: SelectionState[],
): void {
	// Targets first: an edit that is itself edited still applies (Pi collects every sent edit before projecting).
	const targets: number[] = [];
	for (const e of path) {
		if (nodes[e].entryType !== "context_edit" || selection[e] !== "direct") continue;
		const target = nodes[e].linkId;
		const t = target ? byId.get(target) : undefined;
		if (t !== undefined && onChain[t]) targets.push(t);
	}
	for (const t of targets) if (selection[t] === "direct") selection[t] = "not-selected";
}

/**
 * A branch_summary B on the selected path summarized the branch left by /tree: path(oldLeaf) minus path(B.fromId),
 * with oldLeaf = the entry just before B in file order (Pi appends B right after navigating). Alternates in it
 * become `summarized`. Walks only the two segments below the common ancestor (depth-equalizing).
 */
function markBranchSummarized(
	nodes: TreeNode[],
	parent: Int32Array,
	depth: Int32Array,
	byId: Map<string, number>,
	b: number,
	branch: BranchState[],
	selection: SelectionState[],
): void {
	let a = b - 1; // oldLeaf
	if (a < 0) return;
	const fromId = nodes[b].linkId;
	let f = fromId ? (byId.get(fromId) ?? NONE) : NONE; // "root" (navigated above the first entry) finds nothing
	const mark = (i: number) => {
		if (branch[i] === "alternate") selection[i] = "summarized";
	};
	if (depth[a] === CYCLIC || (f !== NONE && depth[f] === CYCLIC)) return; // no root to meet at: undecidable, leave as is
	if (f === NONE) {
		for (; a !== NONE; a = parent[a]) mark(a);
		return;
	}
	while (depth[a] > depth[f]) {
		mark(a);
		a = parent[a];
	}
	while (depth[f] > depth[a]) f = parent[f];
	// Same depth now; in different trees both reach NONE together.
	while (a !== f) {
		mark(a);
		a = parent[a];
		f = parent[f];
	}
}

const CYCLIC = -1;

/** Depth of every node below its root (a null or missing parent); CYCLIC when its ancestry loops. */
function depths(parent: Int32Array): Int32Array {
	const n = parent.length;
	const UNSET = -2;
	const PENDING = -3;
	const depth = new Int32Array(n).fill(UNSET);
	const stack: number[] = [];
	for (let i = 0; i < n; i++) {
		if (depth[i] !== UNSET) continue;
		let j = i;
		while (j !== NONE && depth[j] === UNSET) {
			depth[j] = PENDING;
			stack.push(j);
			j = parent[j];
		}
		const cyclic = j !== NONE && (depth[j] === PENDING || depth[j] === CYCLIC);
		let d = j === NONE || cyclic ? -1 : depth[j]; // depth of the node above the stack's top
		while (stack.length > 0) {
			const k = stack.pop() as number;
			depth[k] = cyclic ? CYCLIC : ++d;
		}
	}
	return depth;
}

/** For a chain that ends at a missing parent: which entries provably hang off the known chain (else undecidable). */
function reachesChain(parent: Int32Array, onChain: Uint8Array): Uint8Array {
	const n = parent.length;
	const UNSET = 0;
	const YES = 1;
	const NO = 2;
	const PENDING = 3;
	const state = new Uint8Array(n);
	const stack: number[] = [];
	for (let i = 0; i < n; i++) {
		if (state[i] !== UNSET || onChain[i]) continue;
		let j = i;
		while (j !== NONE && !onChain[j] && state[j] === UNSET) {
			state[j] = PENDING;
			stack.push(j);
			j = parent[j];
		}
		// PENDING here means the ancestry loops without touching the chain.
		const v = j !== NONE && (onChain[j] || state[j] === YES) ? YES : NO;
		while (stack.length > 0) state[stack.pop() as number] = v;
	}
	for (let i = 0; i < n; i++) if (onChain[i]) state[i] = YES;
	return state.map((v) => (v === YES ? 1 : 0));
}

function isSortedBySeq(nodes: TreeNode[]): boolean {
	for (let i = 1; i < nodes.length; i++) if (nodes[i].seq <= nodes[i - 1].seq) return false;
	return true;
}

/** What `extendsLeaf` may additionally check when the caller (the store) can answer it. */
export interface ExtendsLeafContext {
	/** Stored states of the previous leaf: the fast path is refused unless it is `selected` (not inside a cycle). */
	prevLeafStates?: TreeStates;
	/** True when an older entry of the source has this id, or names it as parentId / linkId. */
	idInUse?: (id: string) => boolean;
}

/**
 * The O(new) fast path: true when appending `newNodes` only extends the materialized leaf, so the new nodes are
 * `selected` (`direct` or `not-applicable` by type) and no older entry's state changes. Without `context`, ids are
 * assumed unique within the source (Pi guarantees it); with it, reused or forward-referenced ids are refused too.
 */
export function extendsLeaf(
	prevLeafEntryId: string | null,
	newNodes: TreeNode[],
	context: ExtendsLeafContext = {},
): boolean {
	if (context.prevLeafStates && context.prevLeafStates.branchState !== "selected") return false;
	const ids = new Set<string>();
	if (prevLeafEntryId !== null) ids.add(prevLeafEntryId);
	let expectedParent = prevLeafEntryId;
	for (const node of newNodes) {
		if (node.parentId !== expectedParent) return false;
		// Each of these changes the states of older entries.
		if (LINKED_TYPES.has(node.entryType)) return false;
		if (ids.has(node.entryId) || context.idInUse?.(node.entryId)) return false;
		ids.add(node.entryId);
		expectedParent = node.entryId;
	}
	return true;
}

/** States of nodes appended on the fast path (`extendsLeaf` returned true). */
export function leafExtensionStates(newNodes: TreeNode[]): Map<number, TreeStates> {
	const out = new Map<number, TreeStates>();
	for (const node of newNodes) {
		out.set(node.seq, {
			branchState: "selected",
			selectionState: reachesModel(node.entryType) ? "direct" : "not-applicable",
		});
	}
	return out;
}
