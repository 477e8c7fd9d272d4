/**
 * The event a read or a trace names: its ids checked first (a QueryError naming the field), then the event found
 * among the caller's authorized sessions, a session-id prefix resolved on the way; missing and unauthorized end in
 * the same not-found failure.
 */
import { type AuthorizedRoots, authorizedRoots } from "./authorize.js";
import type { CallerContext } from "./caller.js";
import type { QueryDb } from "./db.js";
import { parseEntryName } from "./entry-occurrence.js";
import { invalid, invalidField, notFound } from "./errors.js";
import { type EventLite, eventById, findVisibleSourceForEntry, type SourceLite } from "./rows.js";
import { resolveSessionId } from "./session-prefix.js";

/** The ids of a read or trace request, checked and trimmed. */
export interface EventTargetIds {
	sessionId: string;
	entryId: string;
}

/** The found event, its source, and the caller's authorized roots (the services' later lookups need them too). */
export interface FoundEvent {
	auth: AuthorizedRoots;
	source: SourceLite;
	target: EventLite;
}

/** Checks that `req` (of the `what` service) is an object with both ids; throws QueryError naming the field. */
export function eventTargetIds(req: unknown, what: "read" | "trace"): EventTargetIds {
	if (req === null || typeof req !== "object") throw invalid(`The ${what} request must be an object.`);
	const { sessionId, entryId } = req as { sessionId?: unknown; entryId?: unknown };
	if (typeof sessionId !== "string" || sessionId.trim() === "") throw invalidField("sessionId", "is required.");
	if (typeof entryId !== "string" || entryId.trim() === "") throw invalidField("entryId", "is required.");
	return { sessionId: sessionId.trim(), entryId: entryId.trim() };
}

/** The authorized event `ids` name; throws the one not-found failure for a missing and an unauthorized one alike. */
export function findEventTarget(db: QueryDb, caller: CallerContext, ids: EventTargetIds): FoundEvent {
	const auth = authorizedRoots(caller);
	const sessionId = resolveSessionId(db, auth, ids.sessionId);
	// An entry shadowed by a later one of its id is named `<id>~<n>` (entry-occurrence.ts): its file holds `<id>`.
	const source =
		findVisibleSourceForEntry(db, auth, sessionId, ids.entryId) ??
		findVisibleSourceForEntry(db, auth, sessionId, parseEntryName(ids.entryId).entryId);
	if (source === undefined) throw notFound();
	const target = eventById(db, source.id, ids.entryId);
	if (target === undefined) throw notFound();
	return { auth, source, target };
}
