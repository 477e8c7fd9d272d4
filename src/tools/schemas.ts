/**
 * TypeBox parameter schemas of the three tools, mirroring EventSearchRequest / EventReadRequest / EventTraceRequest
 * in src/contract.ts. The model gets no size knobs: search has no limit, read may move its window (offset) and ask
 * for fewer neighbours, never raise a budget.
 */
import { StringEnum } from "@mariozechner/pi-ai";
import { type Static, Type } from "typebox";
import type { BranchState, EventReadRequest, EventSearchRequest, SelectionState } from "../contract.js";
import { SEMANTIC_KINDS } from "../contract.js";
import type { EventTraceRequest } from "../query/index.js";

const BRANCH_STATES = ["selected", "alternate", "unknown"] as const satisfies readonly BranchState[];
const SELECTION_STATES = [
	"direct",
	"summarized",
	"not-selected",
	"not-applicable",
	"unknown",
] as const satisfies readonly SelectionState[];

const sessionId = Type.String({ description: "Session id from an event_search hit (sessionId)." });
const entryId = Type.String({ description: "Entry id from an event_search hit (entryId)." });

/** Parameters of event_search. */
export const searchParameters = Type.Object({
	query: Type.String({
		description:
			'Plain terms and "quoted phrases", all required (implicit AND). No operators, wildcards or column syntax.',
	}),
	sessionId: Type.Optional(Type.String({ description: "Only this session (also the way to search the current one)." })),
	cwd: Type.Optional(Type.String({ description: "Only sessions whose working directory is this one or inside it." })),
	kinds: Type.Optional(
		Type.Array(Type.String(), {
			description: `Fragment kinds (${SEMANTIC_KINDS.join(", ")}) or entry types (compaction, label, …).`,
		}),
	),
	roles: Type.Optional(
		Type.Array(Type.String(), { description: "Message roles: user, assistant, toolResult, bashExecution, custom." }),
	),
	toolNames: Type.Optional(
		Type.Array(Type.String(), { description: "Only calls/results of these tools (e.g. bash, read, edit)." }),
	),
	errorOnly: Type.Optional(Type.Boolean({ description: "Only events recorded as errors (e.g. failed tool results)." })),
	time: Type.Optional(
		Type.Object(
			{
				from: Type.Optional(Type.String({ description: "ISO date or date-time, inclusive." })),
				to: Type.Optional(Type.String({ description: "ISO date or date-time, inclusive." })),
			},
			{ description: "Entry timestamp range." },
		),
	),
	branchStates: Type.Optional(
		Type.Array(StringEnum(BRANCH_STATES), {
			description: "selected = on the session's current path; alternate = an abandoned branch.",
		}),
	),
	selectionStates: Type.Optional(
		Type.Array(StringEnum(SELECTION_STATES), {
			description: "direct = still in context; summarized = replaced by a compaction summary.",
		}),
	),
});

/** Parameters of event_read. */
export const readParameters = Type.Object({
	sessionId,
	entryId,
	matchingFragmentId: Type.Optional(
		Type.String({
			description: 'Read one fragment (e.g. "09c7d8dd#0" from a hit) through a fixed-size window instead of previews.',
		}),
	),
	offset: Type.Optional(
		Type.Integer({
			minimum: 0,
			description: "Code-point offset of the window inside matchingFragmentId, to page through a long fragment.",
		}),
	),
	before: Type.Optional(Type.Integer({ minimum: 0, description: "Neighbouring events before (capped)." })),
	after: Type.Optional(Type.Integer({ minimum: 0, description: "Neighbouring events after (capped)." })),
	order: Type.Optional(
		StringEnum(["branch", "append"] as const, {
			description: "branch (default): the conversation path; append: file order, for forensics.",
		}),
	),
});

/** Parameters of event_trace. */
export const traceParameters = Type.Object({
	sessionId,
	entryId,
	depth: Type.Optional(
		Type.Integer({
			minimum: 1,
			description: "Follow related edges transitively up to this depth (default 1, capped).",
		}),
	),
});

export type SearchParams = Static<typeof searchParameters>;
export type ReadParams = Static<typeof readParameters>;
export type TraceParams = Static<typeof traceParameters>;

// Compile-time checks that the schemas stay assignable to the contract.
const _search: (p: SearchParams) => EventSearchRequest = (p) => p;
const _read: (p: ReadParams) => EventReadRequest = (p) => p;
const _trace: (p: TraceParams) => EventTraceRequest = (p) => p;
void _search;
void _read;
void _trace;
