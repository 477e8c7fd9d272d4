/**
 * Sessions as a list ("what did I do last week"): the authorized sessions, newest activity first, narrowed by the
 * search filters `cwd` and `time` (declared once in search/filters.ts, so the same values and relative times are
 * accepted). From the sources table plus each session's last entry; no transcript is read. Used by the CLI's
 * `sessions` command; no tool returns it. Session files are named only by `sessionFiles`, for people (the CLI).
 */
import type { Coverage, EventSearchRequest } from "../contract.js";
import { decodedTimestampSql } from "../store/column-codes.js";
import { type AuthorizedRoots, authorizationSql, authorizedRoots, type SqlClause } from "./authorize.js";
import type { CallerContext } from "./caller.js";
import { all, type QueryDb } from "./db.js";
import { invalidField } from "./errors.js";
import { parentSource } from "./forks.js";
import { coverageOf, findVisibleSourceForSession, type QueryOptions, SOURCE_COLUMNS, type SourceLite } from "./rows.js";
import { SEARCH_FILTERS, type SearchFilter, type TimeRange } from "./search/filters.js";

/** The search filters a session list accepts. */
export const SESSION_FILTER_FIELDS = ["cwd", "time"] as const;

/** Bounds of one session list. */
export const SESSION_LIST_LIMIT = { default: 20, max: 500 } as const;

/** What to list: sessions whose activity overlaps `time`, whose cwd lies in `cwd`, at most `limit`. */
export interface SessionListRequest {
	cwd?: string;
	time?: EventSearchRequest["time"];
	limit?: number;
}

/** One session of the list. */
export interface SessionSummary {
	sessionId: string;
	sessionName?: string;
	cwd: string;
	/** The header's timestamp. */
	startedAt: string;
	/** Timestamp of the last entry (the start when it has none). */
	lastActivityAt: string;
	/** Entries indexed. */
	eventCount: number;
	/** The session it was forked from (`--fork`, `/fork`), when that one is indexed and authorized. */
	forkParent?: { sessionId: string };
}

/** The list, newest activity first. */
export interface SessionList {
	sessions: SessionSummary[];
	/** More sessions matched than `limit`. */
	truncated: boolean;
	limit: number;
	coverage: Coverage;
}

type Row = SourceLite & { lastActivity: string | null };

function filterOf<T>(field: string): SearchFilter<T> {
	return SEARCH_FILTERS.find((f) => f.field === field) as unknown as SearchFilter<T>;
}

function listLimit(limit: unknown): number {
	if (limit === undefined) return SESSION_LIST_LIMIT.default;
	if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > SESSION_LIST_LIMIT.max) {
		throw invalidField("limit", `must be an integer from 1 to ${SESSION_LIST_LIMIT.max}.`);
	}
	return limit;
}

/** The authorized sessions `req` selects, newest activity first. Throws QueryError for an invalid request. */
export function listSessions(
	db: QueryDb,
	req: SessionListRequest,
	caller: CallerContext,
	options: QueryOptions = {},
): SessionList {
	const now = new Date();
	const limit = listLimit(req.limit);
	const cwdFilter = filterOf<string>("cwd");
	const cwd = cwdFilter.parse(req.cwd, now);
	const time = filterOf<TimeRange>("time").parse(req.time, now);
	const auth = authorizedRoots(caller);
	const clauses: SqlClause[] = [authorizationSql("s", auth), { sql: "s.session_id IS NOT NULL", params: [] }];
	if (cwd !== undefined) clauses.push(cwdFilter.sql(cwd, { db, caller, auth }));
	const overlap: SqlClause[] = [];
	// A session is in the range when its activity overlaps it: started before the end, active after the start.
	if (time?.to !== undefined) overlap.push({ sql: "coalesce(headerTimestamp, lastActivity) <= ?", params: [time.to] });
	if (time?.from !== undefined)
		overlap.push({ sql: "coalesce(lastActivity, headerTimestamp) >= ?", params: [time.from] });
	const rows = all<Row>(
		db,
		`SELECT * FROM (
			SELECT ${SOURCE_COLUMNS},
				(SELECT ${decodedTimestampSql("e.timestamp")} FROM events e WHERE e.source_id = s.id ORDER BY e.seq DESC LIMIT 1) AS lastActivity,
				row_number() OVER (PARTITION BY s.session_id ORDER BY s.entry_count DESC, s.mtime_ms DESC, s.id) AS copy
			FROM sources s WHERE ${clauses.map((c) => c.sql).join(" AND ")}
		) WHERE copy = 1 ${overlap.map((c) => `AND ${c.sql}`).join(" ")}
		ORDER BY coalesce(lastActivity, headerTimestamp) DESC, id DESC LIMIT ?`,
		[...clauses.flatMap((c) => c.params), ...overlap.flatMap((c) => c.params), limit + 1],
	);
	return {
		sessions: rows.slice(0, limit).map((r) => summary(db, auth, r)),
		truncated: rows.length > limit,
		limit,
		coverage: coverageOf(db, options),
	};
}

function summary(db: QueryDb, auth: AuthorizedRoots, r: Row): SessionSummary {
	const startedAt = r.headerTimestamp ?? r.lastActivity ?? "";
	const s: SessionSummary = {
		sessionId: r.sessionId ?? "",
		cwd: r.cwd ?? "",
		startedAt,
		lastActivityAt: r.lastActivity ?? startedAt,
		eventCount: r.entryCount,
	};
	if (r.sessionName) s.sessionName = r.sessionName;
	const parent = parentSource(db, auth, r);
	if (parent?.sessionId) s.forkParent = { sessionId: parent.sessionId };
	return s;
}

/**
 * The session file of each authorized session id (for people: the CLI prints where a hit's file is). Never part
 * of a tool result: no source path reaches the model.
 */
export function sessionFiles(db: QueryDb, sessionIds: readonly string[], caller: CallerContext): Map<string, string> {
	const auth = authorizedRoots(caller);
	const out = new Map<string, string>();
	for (const id of new Set(sessionIds)) {
		const source = findVisibleSourceForSession(db, auth, id);
		if (source !== undefined) out.set(id, source.path);
	}
	return out;
}
