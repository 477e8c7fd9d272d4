/**
 * Session ids as people carry them: a unique prefix of at least MIN_SESSION_PREFIX characters stands for the whole
 * id, like Pi's own `--session`. Resolved once, at the query service boundary (search, read, trace), and only among
 * the caller's authorized sessions, so a prefix of a session outside the workspace resolves exactly like one that
 * does not exist: it stays as typed and the service answers as for any unknown id.
 */
import { type AuthorizedRoots, authorizationSql, authorizedRoots } from "./authorize.js";
import type { CallerContext } from "./caller.js";
import { all, get, type QueryDb } from "./db.js";
import { echo, invalid } from "./errors.js";

/** Shortest prefix accepted for a session id (shorter input must be a whole id). */
export const MIN_SESSION_PREFIX = 4;

/** How a session id may be abbreviated, for every place that takes one (tool schemas, the search filter, CLI help). */
export const SESSION_PREFIX_HELP = `or a unique prefix of it (at least ${MIN_SESSION_PREFIX} characters)`;

/** Most candidates an ambiguous prefix names. */
const MAX_PREFIX_CANDIDATES = 5;

/** Above every character a session id can hold: `prefix + PAST_END` bounds the index range of the prefix. */
const PAST_END = "\u{10FFFF}";

/**
 * The whole authorized session id `input` stands for: itself when an authorized session has exactly that id, the one
 * authorized id it is a prefix of, else `input` unchanged (unknown and unauthorized alike). Throws an invalid-request
 * error naming the candidates when several authorized sessions share the prefix.
 */
export function resolveSessionId(db: QueryDb, auth: AuthorizedRoots, input: string): string {
	const id = input.trim();
	const authSql = authorizationSql("s", auth);
	const exact = get<{ one: number }>(
		db,
		`SELECT 1 AS one FROM sources s WHERE s.session_id = ? AND ${authSql.sql} LIMIT 1`,
		[id, ...authSql.params],
	);
	if (exact !== undefined || Array.from(id).length < MIN_SESSION_PREFIX) return id;
	// A range over the sources_session index: the cost depends on the matches, not on the number of sessions.
	const ids = all<{ sessionId: string }>(
		db,
		`SELECT DISTINCT s.session_id AS sessionId FROM sources s
			WHERE s.session_id >= ? AND s.session_id < ? AND ${authSql.sql}
			ORDER BY s.session_id LIMIT ?`,
		[id, id + PAST_END, ...authSql.params, MAX_PREFIX_CANDIDATES + 1],
	).map((r) => r.sessionId);
	if (ids.length === 0) return id;
	if (ids.length === 1) return ids[0];
	const shown = ids.slice(0, MAX_PREFIX_CANDIDATES).join(", ");
	const more = ids.length > MAX_PREFIX_CANDIDATES ? ", and more" : "";
	throw invalid(
		`Session id prefix "${echo(id)}" matches several sessions (${shown}${more}); give more characters of the id.`,
	);
}

/** `req` with its `sessionId` (when it is a non-empty string) resolved for `caller`; other values stay for validation. */
export function withResolvedSession<T extends { sessionId?: unknown }>(db: QueryDb, req: T, caller: CallerContext): T {
	if (req === null || typeof req !== "object" || typeof req.sessionId !== "string" || req.sessionId.trim() === "") {
		return req;
	}
	return { ...req, sessionId: resolveSessionId(db, authorizedRoots(caller), req.sessionId) };
}
