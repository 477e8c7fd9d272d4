/**
 * Cross-session fork relations. Pi's `--fork` copies every entry (same ids) into a child session whose header
 * `parentSession` names the parent file; `/fork` copies only the root→leaf path. The fork anchor is the last copied
 * entry: the parent of the child's first entry whose id the parent does not have (or the child's leaf when it has
 * nothing new yet). Only indexed, authorized sessions take part; no source path ever leaves this module.
 */
import { type AuthorizedRoots, authorizationSql } from "./authorize.js";
import { all, get, type QueryDb } from "./db.js";
import { FORK_CANDIDATE_CAP, SOURCE_COLUMNS, type SourceLite } from "./rows.js";

/** Where a child session branched off its parent. */
export interface ForkAnchor {
	/** Entry id (present in both sessions) after which the child diverges. */
	anchorEntryId: string;
	/** The child's first own entry after the anchor, when it has one. */
	childContinuationId?: string;
}

/**
 * Whether `child` names `parent` as the session it was forked from: its header's `parentSession` resolves to the
 * parent's file (at ingest, `resolveParentSession`), or that recorded file's name carries the parent's session id
 * (`sources.parent_session_id`; Pi names files `<timestamp>_<session id>.jsonl`), so a fork still finds a parent whose
 * file moved (an agent dir moved, synced from another machine, or archived under another root). The SQL of
 * parentSource and childSources says the same, through the indexes on both columns.
 */
export function namesAsParent(child: SourceLite, parent: SourceLite): boolean {
	return (
		(child.parentSessionPath !== null && child.parentSessionPath === parent.path) ||
		(child.parentSessionId !== null && child.parentSessionId === parent.sessionId)
	);
}

/** Whether two sessions were forked from the same parent (which may itself be gone). */
export function shareParent(a: SourceLite, b: SourceLite): boolean {
	return (
		(a.parentSessionPath !== null && a.parentSessionPath === b.parentSessionPath) ||
		(a.parentSessionId !== null && a.parentSessionId === b.parentSessionId)
	);
}

/** The visible parent source of `child` (namesAsParent), if it is indexed and authorized: its recorded file first. */
export function parentSource(db: QueryDb, auth: AuthorizedRoots, child: SourceLite): SourceLite | undefined {
	if (child.parentSessionPath === null && child.parentSessionId === null) return undefined;
	const authSql = authorizationSql("s", auth);
	return get<SourceLite>(
		db,
		`SELECT ${SOURCE_COLUMNS} FROM sources s
		WHERE (s.path = ? OR s.session_id = ?) AND s.id <> ? AND ${authSql.sql}
		ORDER BY s.path = ? DESC, s.id LIMIT 1`,
		[child.parentSessionPath, child.parentSessionId, child.id, ...authSql.params, child.parentSessionPath],
	);
}

/** Visible child sessions of `parent` (namesAsParent), bounded, oldest first. */
export function childSources(db: QueryDb, auth: AuthorizedRoots, parent: SourceLite, limit = FORK_CANDIDATE_CAP) {
	const authSql = authorizationSql("s", auth);
	return all<SourceLite>(
		db,
		`SELECT ${SOURCE_COLUMNS} FROM sources s
		WHERE (s.parent_session_path = ? OR s.parent_session_id = ?) AND s.id <> ? AND ${authSql.sql}
		ORDER BY s.header_timestamp, s.id LIMIT ?`,
		[parent.path, parent.sessionId, parent.id, ...authSql.params, limit],
	);
}

/** The anchor of `child` in `parent`, or undefined when they share no entry. */
export function forkAnchor(db: QueryDb, child: SourceLite, parent: SourceLite): ForkAnchor | undefined {
	const firstNew = get<{ entryId: string; parentId: string | null }>(
		db,
		`SELECT c.entry_id AS entryId, c.parent_id AS parentId FROM events c
		WHERE c.source_id = ? AND NOT EXISTS (SELECT 1 FROM events p WHERE p.source_id = ? AND p.entry_id = c.entry_id)
		ORDER BY c.seq LIMIT 1`,
		[child.id, parent.id],
	);
	const inParent = (id: string | null) =>
		id !== null &&
		get<{ one: number }>(db, "SELECT 1 AS one FROM events WHERE source_id = ? AND entry_id = ? LIMIT 1", [
			parent.id,
			id,
		]) !== undefined;
	if (firstNew === undefined) {
		return child.leafEntryId && inParent(child.leafEntryId) ? { anchorEntryId: child.leafEntryId } : undefined;
	}
	if (!inParent(firstNew.parentId)) return undefined;
	return { anchorEntryId: firstNew.parentId as string, childContinuationId: firstNew.entryId };
}
