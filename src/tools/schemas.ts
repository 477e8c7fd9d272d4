/**
 * TypeBox parameter schemas of the three tools, mirroring EventSearchRequest / EventReadRequest / EventTraceRequest
 * in src/contract.ts. The model gets no size knobs: search has no limit, read may move its window (offset) and ask
 * for fewer neighbours, never raise a budget. Extra keys are allowed here and refused by the services
 * (src/query/request-keys.ts), which name the nearest valid key where Pi's validation would echo every argument.
 */
import { type Static, type TSchema, Type } from "typebox";
import type { EventReadRequest } from "../contract.js";
import type { EventTraceRequest } from "../query/index.js";
import { MAX_FILTER_VALUES, SEARCH_FILTERS, type SearchFilter } from "../query/search/filters.js";
import { SESSION_PREFIX_HELP } from "../query/session-prefix.js";

const sessionId = Type.String({
	description: `Session id from an event_search hit (sessionId), ${SESSION_PREFIX_HELP}.`,
});
const entryId = Type.String({ description: "Entry id from an event_search hit (entryId)." });

/**
 * A string enum as `{ type: "string", enum }` (providers such as Google reject anyOf/const), typed as its values:
 * what Pi's `StringEnum` makes, built here so that no Pi package is needed at run time.
 */
function stringEnum<T extends readonly string[]>(values: T, options: { description?: string } = {}) {
	return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/** The TypeBox schema of one declared filter's value. */
function filterSchema(f: SearchFilter<never>): TSchema {
	const { description, shape } = f;
	switch (shape.type) {
		case "string":
		case "path":
			return Type.String({ description });
		case "boolean":
			return Type.Boolean({ description });
		case "strings":
			// The cap is said, not set as maxItems: Pi's own validation error would echo every value back.
			return Type.Array(shape.values ? stringEnum(shape.values) : Type.String(), {
				description: `${description} At most ${MAX_FILTER_VALUES} values.`,
			});
		case "time-range":
			return Type.Object(
				Object.fromEntries(
					f.flags.map((flag) => [flag.key ?? flag.flag, Type.Optional(Type.String({ description: shape.bound }))]),
				),
				{ description },
			);
	}
}

/** Parameters of event_search: the query plus every filter of SEARCH_FILTERS (src/query/search/filters.ts). */
export const searchParameters = Type.Object({
	query: Type.String({
		description:
			'Plain terms and "quoted phrases". Events containing every term come first; when there are too few, events matching only some terms follow, marked with the terms they miss. Quoted phrases are always required. No operators, wildcards or column syntax. May be empty when paths is given (the events that touched those files, newest first).',
	}),
	...Object.fromEntries(SEARCH_FILTERS.map((f) => [f.field, Type.Optional(filterSchema(f))])),
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
		stringEnum(["branch", "append"] as const, {
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

// Compile-time checks that the schemas stay assignable to the contract (the search schema is derived from the
// filter declarations, whose fields are keys of EventSearchRequest; test/tools checks it at run time).
const _read: (p: ReadParams) => EventReadRequest = (p) => p;
const _trace: (p: TraceParams) => EventTraceRequest = (p) => p;
void _read;
void _trace;
