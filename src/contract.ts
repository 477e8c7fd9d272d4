/**
 * The public tool contract (docs/tool-contract.md).
 * Every shape the model or the CLI's --json sees is declared here; nothing else is public.
 */

export type BranchState = "selected" | "alternate" | "unknown";
export type SelectionState = "direct" | "summarized" | "not-selected" | "not-applicable" | "unknown";

/** Every BranchState. The order is stored: src/store/column-codes.ts. */
export const BRANCH_STATES: readonly BranchState[] = ["selected", "alternate", "unknown"];

/** Every SelectionState. The order is stored: src/store/column-codes.ts. */
export const SELECTION_STATES: readonly SelectionState[] = [
	"direct",
	"summarized",
	"not-selected",
	"not-applicable",
	"unknown",
];

/** Entry types Pi writes (src/project/project-entry.ts projects each). The order is stored: src/store/column-codes.ts. */
export const ENTRY_TYPES = [
	"message",
	"compaction",
	"branch_summary",
	"custom_message",
	"custom",
	"label",
	"session_info",
	"model_change",
	"thinking_level_change",
	"context_edit",
	"usage",
] as const;

/** Message roles as the index records them (v2's hookMessage is custom). The order is stored: column-codes.ts. */
export const MESSAGE_ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom"] as const;

/** Kinds of semantic fragment a persisted entry is projected into. */
export type SemanticKind =
	| "user_text"
	| "assistant_text"
	| "tool_call"
	| "tool_result"
	| "bash_command"
	| "bash_output"
	| "compaction_summary"
	| "branch_summary"
	| "custom_message"
	| "label"
	| "session_name"
	| "custom_data";

/** Every SemanticKind. The order is stored: src/store/column-codes.ts. */
export const SEMANTIC_KINDS: readonly SemanticKind[] = [
	"user_text",
	"assistant_text",
	"tool_call",
	"tool_result",
	"bash_command",
	"bash_output",
	"compaction_summary",
	"branch_summary",
	"custom_message",
	"label",
	"session_name",
	"custom_data",
];

/** Which entries can project into a fragment kind: their entry types and (for messages) roles. */
export interface KindOrigin {
	entryTypes: readonly (typeof ENTRY_TYPES)[number][];
	roles: readonly (typeof MESSAGE_ROLES)[number][];
}

/**
 * For each kind, every entry type and message role whose entries src/project/project-entry.ts projects into it (a
 * message of an unknown role is kept as custom_message). The index tags a fragment with its kind only: a filter on
 * entry types or roles matches the kinds listed here, then checks the row exactly. Pinned against the projector by
 * test/project/kind-origins.test.ts.
 */
export const KIND_ORIGINS: Readonly<Record<SemanticKind, KindOrigin>> = {
	user_text: { entryTypes: ["message"], roles: ["user"] },
	assistant_text: { entryTypes: ["message"], roles: ["assistant"] },
	tool_call: { entryTypes: ["message"], roles: ["assistant"] },
	tool_result: { entryTypes: ["message"], roles: ["toolResult"] },
	bash_command: { entryTypes: ["message"], roles: ["bashExecution"] },
	bash_output: { entryTypes: ["message"], roles: ["bashExecution"] },
	compaction_summary: { entryTypes: ["compaction"], roles: [] },
	branch_summary: { entryTypes: ["branch_summary"], roles: [] },
	custom_message: { entryTypes: ["message", "custom_message"], roles: ["custom"] },
	label: { entryTypes: ["label"], roles: [] },
	session_name: { entryTypes: ["session_info"], roles: [] },
	// Reserved: a custom entry's data is never searchable, so no entry projects into it.
	custom_data: { entryTypes: [], roles: [] },
};

/** Tools whose calls and results are suppressed from ordinary search results. */
export const RETRIEVAL_TOOL_NAMES: readonly string[] = ["event_search", "event_read", "event_trace"];

/** What the index covers right now; every tool result carries one. */
export interface Coverage {
	/** Session files discovered (or recorded) so far. */
	known: number;
	/** Files whose checkpoint is at their current end. */
	indexed: number;
	/** Files discovered but not yet (fully) indexed. */
	pending: number;
	/** Files whose last sync failed. */
	failed: number;
	/** A rebuild of the store is in progress. */
	rebuilding: boolean;
	/** True while anything above makes answers incomplete. */
	partial: boolean;
	/** Human-readable one-liner, e.g. "partial: 120 of 340 sessions indexed, catch-up running". */
	note?: string;
}

export interface EventSearchRequest {
	query: string;
	sessionId?: string;
	cwd?: string;
	kinds?: string[];
	roles?: string[];
	toolNames?: string[];
	/** Files the events touched (read, edited, written, named by a bash command), docs/query-language.md. */
	paths?: string[];
	errorOnly?: boolean;
	time?: { from?: string; to?: string };
	branchStates?: BranchState[];
	selectionStates?: SelectionState[];
}

export interface EventSearchHit {
	sessionId: string;
	sessionName?: string;
	cwd: string;
	entryId: string;
	entryType: string;
	matchingFragmentId: string;
	semanticKind: string;
	timestamp: string;
	branchState: BranchState;
	selectionState: SelectionState;
	snippet: string;
	matchingFragmentCount: number;
	/** Bounded list of the other matching fragment ids of this event. */
	otherFragmentIds?: string[];
	role?: string;
	toolName?: string;
	isError?: boolean;
	/** Relaxed hits only: the query terms this event contains (quoted phrases are always among them). */
	matchedTerms?: string[];
	/** Relaxed hits only: the query terms this event does not contain. */
	missingTerms?: string[];
	/** The same event copied verbatim into `--fork` child sessions (each readable by its own identity). */
	forkCopies?: EventRef[];
	/**
	 * Relaxed hits only: the event was brought forward by its task (a user request and the work after it, up to the
	 * next request) whose events match the question, being of the kind asked for (an edit, a test run, an output);
	 * it may hold few or none of the terms. The entry id of that request, in the same session.
	 */
	taskRequestId?: string;
}

/**
 * How many hits contain every term and how many only some (set when the result is relaxed).
 * @public
 */
export interface SearchTierCounts {
	allTerms: number;
	someTerms: number;
}

/** Why a page of hits is weak (EventSearchResult.weakMatches). */
export interface WeakMatches {
	/** Share (0–1, two decimals) of the query's weight the best of the first five hits holds. */
	bestCoverage: number;
	/** The query terms no hit on the page holds, in query order. */
	unmatchedTerms: string[];
}

export interface EventSearchResult {
	hits: EventSearchHit[];
	/** Hits beyond the service-owned limit were left out. */
	truncated: boolean;
	limit: number;
	/**
	 * Set when the query matched more fragments than one search ranks: only this many, the most recently indexed,
	 * were ranked. Adding terms or filters narrows the match and lifts the cap.
	 */
	rankedMatchCap?: number;
	/**
	 * Set when fewer events than the limit contain every term: the page was filled with events that match only
	 * some terms (best coverage of rare terms first); those hits carry matchedTerms/missingTerms.
	 */
	relaxed?: true;
	/** Hits per tier, with `relaxed`. */
	tiers?: SearchTierCounts;
	/**
	 * Set when even the best hits are weak matches (with `relaxed`): no hit holds every term, and none of the first
	 * five holds the share of the query's weight (each term weighing its rarity) that src/query/search/weak-matches.ts
	 * asks for. The history may not hold the answer.
	 */
	weakMatches?: WeakMatches;
	/**
	 * Set on an answer without hits when events hold the terms but the filters excluded them all (absent: no event
	 * the caller may read holds any term).
	 */
	emptiedBy?: EmptiedBy;
	coverage: Coverage;
}

/** The filters that emptied a search: request fields (e.g. "kinds", "time"). */
export interface EmptiedBy {
	filters: string[];
	/** Each of `filters` alone excludes every event holding the terms; false: they do only together. */
	alone: boolean;
}

/** Head/tail preview of a long text, ranges in Unicode code points. */
export interface TextPreview {
	text: string;
	totalChars: number;
	shownRanges: Array<{ start: number; end: number }>;
	omittedRanges: Array<{ start: number; end: number }>;
	truncated: boolean;
}

export interface EventRef {
	sessionId: string;
	entryId: string;
}

export interface BranchForkReceipt {
	kind: "in-session" | "session-fork";
	at: EventRef;
	candidates: EventRef[];
	chosen?: EventRef;
}

export interface EventReadRequest {
	sessionId: string;
	entryId: string;
	/** Read one fragment through a fixed-size window instead of previews of all fragments. */
	matchingFragmentId?: string;
	/** Code-point offset of the window inside the targeted fragment. */
	offset?: number;
	before?: number;
	after?: number;
	order?: "branch" | "append";
}

export interface EventMetadata {
	sessionId: string;
	sessionName?: string;
	cwd: string;
	entryId: string;
	parentId: string | null;
	entryType: string;
	role?: string;
	toolName?: string;
	toolCallId?: string;
	isError?: boolean;
	timestamp: string;
	branchState: BranchState;
	selectionState: SelectionState;
	onLeafPath: boolean;
	labels?: string[];
	/** Small metadata: model change, thinking level, exit code, custom type, stop reason … */
	attributes?: Record<string, string | number | boolean | null>;
}

export interface FragmentView {
	fragmentId: string;
	semanticKind: SemanticKind;
	toolName?: string;
	text: TextPreview;
}

/** A contiguous window of one text, positions in Unicode code points. */
export interface TextWindow {
	/** The effective (clamped) start offset. */
	offset: number;
	text: string;
	totalChars: number;
	range: { start: number; end: number };
	hasBefore: boolean;
	hasAfter: boolean;
}

/** A targeted read: one fixed-size window into one fragment. */
export interface FragmentWindow extends TextWindow {
	fragmentId: string;
	semanticKind: SemanticKind;
	/** The offset asked for, present only when it was clamped (past the end, or too near it for a full window). */
	requestedOffset?: number;
}

export interface NeighborEvent {
	event: EventMetadata;
	/** One short preview of the event's first fragment. */
	preview?: TextPreview;
	relation: "before" | "after";
}

/**
 * A parent link that leads back to an event already on the branch walked: `at`'s parent `parentId` is `at` itself (a
 * self-parent) or lies on the walk (A→B→A). Pi's session tree takes a self-parent for a root and gives a longer cycle
 * no root, so the walk stops there; it is reported once, and no event is its own neighbour, parent or child.
 */
export interface ParentCycle {
	at: EventRef;
	parentId: string;
}

export interface EventReadResult {
	event: EventMetadata;
	fragments: FragmentView[];
	fragmentCoverage: { total: number; returned: number; omitted: number; truncated: boolean };
	window?: FragmentWindow;
	neighbors: NeighborEvent[];
	order: "branch" | "append";
	forks: BranchForkReceipt[];
	/** The branch walk met a parent cycle (order "branch" only). */
	parentCycle?: ParentCycle;
	coverage: Coverage;
}

export interface TraceNode {
	sessionId: string;
	entryId: string;
	entryType: string;
	role?: string;
	toolName?: string;
	timestamp: string;
	branchState: BranchState;
	selectionState: SelectionState;
	/** The node lies on the path from a root to the materialized leaf, or leads toward it. */
	towardLeaf: boolean;
	preview?: TextPreview;
}

export type TraceEdgeKind =
	| "parent"
	| "child"
	| "branch-sibling"
	| "tool-call"
	| "tool-result"
	| "compaction-kept"
	| "compacted-by"
	| "branch-summary-from"
	| "summarized-by"
	| "label"
	| "labels"
	| "file"
	| "session-fork-parent"
	| "session-fork-child";

export interface TraceEdge {
	kind: TraceEdgeKind;
	node?: TraceNode;
	/** File evidence has a path, not a node. */
	file?: string;
	/** Derived rather than backed by a recorded field. */
	inferred: boolean;
	derived?: boolean;
	depth?: number;
}

export interface EventTrace {
	target: TraceNode;
	/** Absent for a root, and for a self-parent (then `parentCycle` says so). */
	parent?: TraceEdge;
	children: TraceEdge[];
	branchSiblings: TraceEdge[];
	related: TraceEdge[];
	truncated: boolean;
	/** The target names itself as parent, or its parent names the target (A→B→A). */
	parentCycle?: ParentCycle;
	coverage: Coverage;
}

export interface SessionLineageNode {
	sessionId: string;
	sessionName?: string;
	cwd: string;
	timestamp: string;
	generation: number;
}

export interface SessionLineage {
	session: SessionLineageNode;
	ancestors: SessionLineageNode[];
	descendants: SessionLineageNode[];
	truncated: boolean;
}

/** The one public failure for missing and unauthorized targets alike. */
export const NOT_FOUND_MESSAGE = "No such event in the sessions this workspace may read.";

/** Progress of one catch-up pass, reported after every file. */
export interface CatchUpProgress {
	total: number;
	done: number;
	indexed: number;
	failed: number;
	removed: number;
	bytesRead: number;
	entriesAdded: number;
	/** Older events whose tree states changed (their FTS rows were tokenized again). */
	statesChanged: number;
	elapsedMs: number;
}
