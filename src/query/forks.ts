/**
 * Cross-session fork relations. Pi's `--fork` copies every entry (same ids) into a child session whose header
 * `parentSession` names the parent file; `/fork` copies only the root→leaf path. The fork anchor is the last copied
 * entry: the parent of the child's first entry whose id the parent does not have (or the child's leaf when it has
 * nothing new yet). Only indexed, authorized sessions take part; no source path ever leaves this module.
 */
import path from "node:path";
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
 * Paths a recorded `parentSession` may denote. Pi writes it as given on the command line (relative to the process
 * cwd, which is the child's header cwd), so a relative value is resolved against that cwd; the ingest-resolved
 * path and the file's own directory are tried too.
 */
export function parentPathCandidates(child: SourceLite): string[] {
	const out = new Set<string>();
	if (child.parentSessionPath) out.add(child.parentSessionPath);
	const recorded = child.parentSession;
	if (recorded) {
		if (path.isAbsolute(recorded)) out.add(path.resolve(recorded));
		else {
			if (child.cwd) out.add(path.resolve(child.cwd, recorded));
			out.add(path.resolve(path.dirname(child.path), recorded));
		}
	}
	return [...out];
}

/** The visible parent source of `child`, if its recorded parent is indexed and authorized. */
export function parentSource(db: QueryDb, auth: AuthorizedRoots, child: SourceLite): SourceLite | undefined {
	const candidates = parentPathCandidates(child);
	if (candidates.length === 0) return undefined;
	const authSql = authorizationSql("s", auth);
	return get<SourceLite>(
		db,
		`SELECT ${SOURCE_COLUMNS} FROM sources s
		WHERE s.path IN (${candidates.map(() => "?").join(", ")}) AND s.id <> ? AND ${authSql.sql}
		ORDER BY s.id LIMIT 1`,
		[...candidates, child.id, ...authSql.params],
	);
}

/** Visible child sessions of `parent` (recorded parentSession resolving to the parent's path), bounded. */
export function childSources(db: QueryDb, auth: AuthorizedRoots, parent: SourceLite, limit = FORK_CANDIDATE_CAP) {
	const authSql = authorizationSql("s", auth);
	const rows = all<SourceLite>(
		db,
		`SELECT ${SOURCE_COLUMNS} FROM sources s
		WHERE (s.parent_session_path = ? OR s.parent_session = ?) AND s.id <> ? AND ${authSql.sql}
		ORDER BY s.header_timestamp, s.id LIMIT ?`,
		[parent.path, parent.path, parent.id, ...authSql.params, limit],
	);
	return rows;
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
