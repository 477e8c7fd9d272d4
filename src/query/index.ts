/** The query services: search, read, trace and session lineage over the persistent index. */

export type { Budgets } from "../config/budgets.js";
export { BUDGET_BOUNDS, DEFAULT_BUDGETS } from "../config/budgets.js";
export { authorizedRoots, findWorkspaceRoot } from "./authorize.js";
export type { AuthorizationConfig, CallerContext } from "./caller.js";
export type { QueryDb } from "./db.js";
export { QueryError } from "./errors.js";
export { type SessionLineageRequest, traceSession } from "./lineage.js";
export { readEvent } from "./read.js";
export { defaultCoverage, type QueryOptions } from "./rows.js";
export { SEARCH_CANDIDATE_LIMIT, searchEvents } from "./search.js";
export {
	listSessions,
	SESSION_FILTER_FIELDS,
	SESSION_LIST_LIMIT,
	type SessionList,
	type SessionListRequest,
	type SessionSummary,
	sessionFiles,
} from "./sessions.js";
export { type EventTraceRequest, traceEvent } from "./trace.js";
