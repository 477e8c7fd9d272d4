/**
 * Every output bound in one place. Configuration may lower or raise these within [min, max]; the model can
 * move a read window but never change a budget. Documented in docs/tool-contract.md, "Budgets".
 */
export interface Budgets {
	/** Hits returned by one event_search call. */
	searchLimit: number;
	/** Code points in one search snippet. */
	snippetChars: number;
	/** Other matching fragment ids named per hit. */
	otherFragmentIds: number;
	/** Code points shown per fragment in an unfiltered read (head + tail). */
	fragmentPreviewChars: number;
	/** Fragments returned by an unfiltered read. */
	readFragments: number;
	/** Code points in one targeted read window. */
	windowChars: number;
	/** Neighbours on each side of a read. */
	maxNeighbors: number;
	/** Default neighbours on each side when the caller does not ask. */
	defaultNeighbors: number;
	/** Code points of each neighbour or trace-node preview. */
	neighborPreviewChars: number;
	/** Edges in one trace (all lists together). */
	traceEdges: number;
	/** Depth of opt-in transitive tracing. */
	traceMaxDepth: number;
	/** Sessions in one lineage answer. */
	lineageSessions: number;
	/** Milliseconds a first call on a cold index waits for the caller's workspace. */
	coldWaitMs: number;
}

export const DEFAULT_BUDGETS: Budgets = {
	searchLimit: 10,
	snippetChars: 240,
	otherFragmentIds: 5,
	fragmentPreviewChars: 2_000,
	readFragments: 8,
	windowChars: 4_000,
	maxNeighbors: 6,
	defaultNeighbors: 2,
	neighborPreviewChars: 160,
	traceEdges: 40,
	traceMaxDepth: 4,
	lineageSessions: 50,
	coldWaitMs: 2_000,
};

/** Inclusive bounds a configuration may set; anything outside is rejected with a clear message. */
export const BUDGET_BOUNDS: Record<keyof Budgets, [number, number]> = {
	searchLimit: [1, 50],
	snippetChars: [40, 2_000],
	otherFragmentIds: [0, 20],
	fragmentPreviewChars: [100, 20_000],
	readFragments: [1, 50],
	windowChars: [200, 20_000],
	maxNeighbors: [0, 20],
	defaultNeighbors: [0, 20],
	neighborPreviewChars: [0, 2_000],
	traceEdges: [5, 200],
	traceMaxDepth: [1, 10],
	lineageSessions: [1, 500],
	coldWaitMs: [0, 30_000],
};
