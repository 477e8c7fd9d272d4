/**
 * Row shapes and small indexed lookups shared by read, trace and lineage. Every lookup goes through an index on
 * (source_id, entry_id / parent_id / link_id / seq) so cost never grows with session length.
 */
import path from "node:path";
import type { BranchState, Coverage, EventMetadata, EventRef, SelectionState } from "../contract.js";
import { decodedAttributesSql } from "../store/attribute-sets.js";
import { codeSql, decodedSql, decodedTimestampSql } from "../store/column-codes.js";
import { decodeFragmentText, type StoredFragmentText } from "../store/fragment-text.js";
import { computeCoverage } from "../store/source-counts.js";
import { textDictionaryOf } from "../store/text-dictionary.js";
import { redactSecrets } from "../text/redact.js";
import { type AuthorizedRoots, authorizationSql } from "./authorize.js";
import { all, get, type QueryDb } from "./db.js";
import { entryName, entrySeq } from "./entry-occurrence.js";

/** Options every query service accepts. */
export interface QueryOptions {
	/** Coverage supplied by the lifecycle manager; defaults to a computation over the sources table. */
	coverage?: () => Coverage;
	/** Local operational log (paths and details allowed here, never in results). */
	log?: (message: string) => void;
}

/** The columns of `sources` the services read. `path` is internal and never leaves this module family. */
export interface SourceLite {
	id: number;
	path: string;
	sessionId: string | null;
	cwd: string | null;
	sessionName: string | null;
	headerTimestamp: string | null;
	parentSession: string | null;
	parentSessionPath: string | null;
	/** The session id the recorded parent's file name carries (schema.ts). */
	parentSessionId: string | null;
	leafEntryId: string | null;
	entryCount: number;
	/** The workspace this session is confined to (schema.ts `sources.confined_to`), null for none. */
	confinedTo: string | null;
}

export const SOURCE_COLUMNS = `s.id AS id, s.path AS path, s.session_id AS sessionId, s.cwd AS cwd,
	s.session_name AS sessionName, s.header_timestamp AS headerTimestamp, s.parent_session AS parentSession,
	s.parent_session_path AS parentSessionPath, s.parent_session_id AS parentSessionId, s.leaf_entry_id AS leafEntryId, s.entry_count AS entryCount,
	s.confined_to AS confinedTo`;

/** The columns of `events` the services read. */
export interface EventLite {
	sourceId: number;
	seq: number;
	entryId: string;
	parentId: string | null;
	entryType: string;
	role: string | null;
	toolName: string | null;
	toolCallId: string | null;
	isError: number;
	timestamp: string;
	linkId: string | null;
	attributes: string;
	files: string;
	branchState: string;
	selectionState: string;
}

export const EVENT_COLUMNS = `e.source_id AS sourceId, e.seq AS seq, e.entry_id AS entryId, e.parent_id AS parentId,
	${decodedSql("entryType", "e.entry_type")} AS entryType, ${decodedSql("role", "e.role")} AS role,
	e.tool_name AS toolName, e.tool_call_id AS toolCallId, e.is_error AS isError, ${decodedTimestampSql("e.timestamp")} AS timestamp,
	e.link_id AS linkId, ${decodedAttributesSql("e.attributes")} AS attributes, e.files AS files,
	${decodedSql("branchState", "e.branch_state")} AS branchState,
	${decodedSql("selectionState", "e.selection_state")} AS selectionState`;

/** Cap on candidates listed at one fork and on child sessions considered per source. */
export const FORK_CANDIDATE_CAP = 20;

/** Coverage from the store alone (no lock states): the one computation, see computeCoverage. */
export function defaultCoverage(db: QueryDb): Coverage {
	return computeCoverage(db);
}

/** Coverage from the options or the default computation. */
export function coverageOf(db: QueryDb, options: QueryOptions): Coverage {
	return options.coverage ? options.coverage() : defaultCoverage(db);
}

/**
 * The visible source holding `(sessionId, entryId)`. Several visible files can share a session id (an `/export`
 * copy): the one with the most entries wins, then the most recently modified, then the lowest id.
 */
export function findVisibleSourceForEntry(
	db: QueryDb,
	auth: AuthorizedRoots,
	sessionId: string,
	entryId: string,
): SourceLite | undefined {
	const authSql = authorizationSql("s", auth);
	return get<SourceLite>(
		db,
		`SELECT ${SOURCE_COLUMNS} FROM sources s
		WHERE s.session_id = ? AND ${authSql.sql}
			AND EXISTS (SELECT 1 FROM events e WHERE e.source_id = s.id AND e.entry_id = ?)
		ORDER BY s.entry_count DESC, s.mtime_ms DESC, s.id ASC LIMIT 1`,
		[sessionId, ...authSql.params, entryId],
	);
}

/** The visible source of a session id (same tie-break as above). */
export function findVisibleSourceForSession(
	db: QueryDb,
	auth: AuthorizedRoots,
	sessionId: string,
): SourceLite | undefined {
	const authSql = authorizationSql("s", auth);
	return get<SourceLite>(
		db,
		`SELECT ${SOURCE_COLUMNS} FROM sources s WHERE s.session_id = ? AND ${authSql.sql}
		ORDER BY s.entry_count DESC, s.mtime_ms DESC, s.id ASC LIMIT 1`,
		[sessionId, ...authSql.params],
	);
}

/**
 * One event of a source by entry name (entry-occurrence.ts): an id names the last entry of that id, as Pi resolves
 * it (a parent link, the tree), and `<id>~<n>` the n-th one in file order.
 */
export function eventById(db: QueryDb, sourceId: number, name: string): EventLite | undefined {
	const seq = entrySeq(db, sourceId, name);
	if (seq === undefined) return undefined;
	return get<EventLite>(db, `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.source_id = ? AND e.seq = ?`, [
		sourceId,
		seq,
	]);
}

/**
 * Children of an entry in file order, at most `limit`, as Pi's tree has them: an entry shadowed by a later one of its
 * id is no child (Pi keeps the last entry of an id), and `entryId` is the id the children's parent links name.
 */
export function childrenOf(db: QueryDb, sourceId: number, entryId: string, limit: number): EventLite[] {
	return all<EventLite>(
		db,
		`SELECT ${EVENT_COLUMNS} FROM events e INDEXED BY events_parent WHERE e.source_id = ? AND e.parent_id = ?
			AND NOT EXISTS (SELECT 1 FROM events l INDEXED BY events_entry
				WHERE l.source_id = e.source_id AND l.entry_id = e.entry_id AND l.seq > e.seq)
			ORDER BY e.seq LIMIT ?`,
		[sourceId, entryId, limit],
	);
}

/** Events of a source whose link_id points at `entryId` (compactions, branch summaries, labels). */
export function linkedTo(db: QueryDb, sourceId: number, entryId: string, limit: number): EventLite[] {
	return all<EventLite>(
		db,
		// INDEXED BY: without ANALYZE statistics the planner would scan the whole source by primary key.
		`SELECT ${EVENT_COLUMNS} FROM events e INDEXED BY events_link WHERE e.source_id = ? AND e.link_id = ?
			ORDER BY e.seq LIMIT ?`,
		[sourceId, entryId, limit],
	);
}

/** The current label of an entry (latest label event wins; an empty label clears). */
function currentLabel(db: QueryDb, sourceId: number, entryId: string): string | undefined {
	const row = get<{ seq: number; attributes: string; text: StoredFragmentText | null }>(
		db,
		`SELECT e.seq AS seq, ${decodedAttributesSql("e.attributes")} AS attributes,
			(SELECT f.text FROM fragments f WHERE f.source_id = e.source_id AND f.event_seq = e.seq ORDER BY f.ord LIMIT 1)
				AS text
		FROM events e INDEXED BY events_link WHERE e.source_id = ? AND e.link_id = ? AND e.entry_type = ${codeSql("entryType", "label")}
		ORDER BY e.seq DESC LIMIT 1`,
		[sourceId, entryId],
	);
	if (row === undefined) return undefined;
	const attrs = parseAttributes(row.attributes);
	const fromAttrs = typeof attrs.label === "string" ? attrs.label : undefined;
	const label = (row.text === null ? undefined : decodeFragmentText(row.text, textDictionaryOf(db))) ?? fromAttrs ?? "";
	return label.trim() === "" ? undefined : redactSecrets(label);
}

/** The attributes JSON object of an event (never throws). */
function parseAttributes(json: string): Record<string, string | number | boolean | null> {
	try {
		const value: unknown = JSON.parse(json);
		if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
		const out: Record<string, string | number | boolean | null> = {};
		for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
			if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
		}
		return out;
	} catch {
		return {};
	}
}

/** The file list JSON of an event (never throws). */
export function parseFiles(json: string): string[] {
	try {
		const value: unknown = JSON.parse(json);
		return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
	} catch {
		return [];
	}
}

/** A file path for the model: relative to the session cwd when inside it, else as the tool arguments named it. */
export function displayFile(file: string, cwd: string | null): string {
	if (cwd && path.isAbsolute(file)) {
		const rel = path.relative(cwd, file);
		if (rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel)) return rel;
	}
	return file;
}

/** A stored branch state as the contract names it (unknown values: "unknown"). */
export function asBranchState(v: string): BranchState {
	return v === "selected" || v === "alternate" ? v : "unknown";
}

/** True when an event's stored branch state puts it on the path from a root to the session's leaf. */
export function isOnLeafPath(e: { branchState: string }): boolean {
	return e.branchState === "selected";
}

/** A stored selection state as the contract names it (unknown values: "unknown"). */
export function asSelectionState(v: string): SelectionState {
	return v === "direct" || v === "summarized" || v === "not-selected" || v === "not-applicable" ? v : "unknown";
}

/** Normalized public metadata of one event. */
export function toMetadata(db: QueryDb, source: SourceLite, e: EventLite): EventMetadata {
	const meta: EventMetadata = {
		sessionId: source.sessionId ?? "",
		cwd: source.cwd ?? "",
		entryId: entryName(db, e),
		parentId: e.parentId,
		entryType: e.entryType,
		timestamp: e.timestamp,
		branchState: asBranchState(e.branchState),
		selectionState: asSelectionState(e.selectionState),
		onLeafPath: isOnLeafPath(e),
	};
	if (source.sessionName) meta.sessionName = source.sessionName;
	if (e.role) meta.role = e.role;
	if (e.toolName) meta.toolName = e.toolName;
	if (e.toolCallId) meta.toolCallId = e.toolCallId;
	if (e.isError) meta.isError = true;
	const label = currentLabel(db, e.sourceId, e.entryId);
	if (label !== undefined) meta.labels = [label];
	const attrs = parseAttributes(e.attributes);
	if (Object.keys(attrs).length > 0) meta.attributes = attrs;
	return meta;
}

/** An event reference of a source. */
export function refOf(source: SourceLite, entryId: string): EventRef {
	return { sessionId: source.sessionId ?? "", entryId };
}
