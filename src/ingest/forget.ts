/**
 * `forget` and `unforget`: which indexed sessions a selection names, and what a tombstone list looks like after a
 * session is forgotten or brought back. The writes (rows dropped, tombstones replaced, in one write transaction) are
 * IndexManager.forget / unforget; this module only reads.
 */

import { decodedTimestampSql } from "../store/column-codes.js";
import type { SqliteDb } from "../store/driver.js";
import { readTombstones, type Tombstone } from "./forgotten.js";

/** Which sessions to forget: one id (or unique prefix), or every session of a workspace and/or idle since a time. */
export interface ForgetSelection {
	sessionId?: string;
	/** With `sessionId`: its file, forgotten even when nothing of it is indexed yet (the session Pi is writing). */
	file?: string;
	/** Sessions whose cwd is this directory or lies inside it. */
	workspace?: string;
	/** ISO time: sessions whose last activity is before it. */
	before?: string;
}

/** An indexed session a selection names. */
export interface ForgetCandidate {
	sourceId: number;
	sessionId: string | null;
	path: string;
	cwd: string | null;
	name: string | null;
	/** ISO time of its last event (its start when it has none). */
	lastActivityAt: string | null;
}

/** A selection that names no session, or a prefix that names several. */
export class ForgetError extends Error {}

/** Shortest session-id prefix accepted (as for the query services' ids). */
const MIN_PREFIX = 4;

const CANDIDATE_SQL = `SELECT id AS sourceId, session_id AS sessionId, path, cwd, session_name AS name,
		coalesce((SELECT ${decodedTimestampSql("e.timestamp")} FROM events e WHERE e.source_id = s.id ORDER BY e.seq DESC LIMIT 1),
			header_timestamp) AS lastActivityAt
	FROM sources s`;

/** The indexed sessions `sel` names, oldest activity first. Throws ForgetError when it names none or is ambiguous. */
export function forgetCandidates(db: SqliteDb, sel: ForgetSelection): ForgetCandidate[] {
	if (sel.sessionId !== undefined && sel.file !== undefined) {
		const found = db
			.prepare(`${CANDIDATE_SQL} WHERE session_id = ? OR path = ?`)
			.all(sel.sessionId, sel.file) as ForgetCandidate[];
		if (found.some((c) => c.path === sel.file)) return found;
		const file = {
			sourceId: -1,
			sessionId: sel.sessionId,
			path: sel.file,
			cwd: null,
			name: null,
			lastActivityAt: null,
		};
		return [...found, file];
	}
	if (sel.sessionId !== undefined) return oneSession(db, sel.sessionId.trim());
	const all = db.prepare(CANDIDATE_SQL).all() as ForgetCandidate[];
	const inside = (cwd: string | null, dir: string) =>
		cwd !== null && (cwd === dir || cwd.startsWith(dir.endsWith("/") ? dir : `${dir}/`));
	return all
		.filter((c) => sel.workspace === undefined || inside(c.cwd, sel.workspace))
		.filter((c) => sel.before === undefined || (c.lastActivityAt !== null && c.lastActivityAt < sel.before))
		.sort((a, b) => (a.lastActivityAt ?? "").localeCompare(b.lastActivityAt ?? ""));
}

/** Every file of the one session `id` names (a session copied to two files is one session). */
function oneSession(db: SqliteDb, id: string): ForgetCandidate[] {
	const exact = db.prepare(`${CANDIDATE_SQL} WHERE session_id = ?`).all(id) as ForgetCandidate[];
	const matches =
		exact.length > 0 || Array.from(id).length < MIN_PREFIX
			? exact
			: (db
					.prepare(`${CANDIDATE_SQL} WHERE session_id >= ? AND session_id < ?`)
					.all(id, `${id}\u{10FFFF}`) as ForgetCandidate[]);
	const ids = [...new Set(matches.map((m) => m.sessionId))];
	if (ids.length === 0)
		throw new ForgetError(
			`no indexed session has the id "${id}" (or a unique prefix of at least ${MIN_PREFIX} characters)`,
		);
	if (ids.length > 1)
		throw new ForgetError(
			`session id prefix "${id}" matches several sessions (${ids.slice(0, 5).join(", ")}); give more of the id`,
		);
	return matches;
}

/** The tombstone of a candidate forgotten by the person now. */
export function tombstoneOf(c: ForgetCandidate, now = new Date()): Tombstone {
	return { sessionId: c.sessionId, path: c.path, cwd: c.cwd, forgottenAt: now.toISOString(), reason: "forget" };
}

/** The tombstones of `indexDir` whose session id is `id` or starts with it (a prefix of at least MIN_PREFIX). */
export function tombstonesMatching(indexDir: string, id: string): Tombstone[] {
	const want = id.trim();
	const list = readTombstones(indexDir);
	const exact = list.filter((t) => t.sessionId === want || t.path === want);
	if (exact.length > 0 || Array.from(want).length < MIN_PREFIX) return exact;
	const byPrefix = list.filter((t) => t.sessionId?.startsWith(want));
	const ids = new Set(byPrefix.map((t) => t.sessionId));
	if (ids.size > 1)
		throw new ForgetError(
			`session id prefix "${want}" matches several forgotten sessions (${[...ids].slice(0, 5).join(", ")}); give more of the id`,
		);
	return byPrefix;
}
