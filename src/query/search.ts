/**
 * searchEvents: FTS5 over semantic fragments of authorized sessions, filters in SQL, weighted bm25 ranking with
 * proximity over a bounded candidate set (rank.ts), one hit per (source, entry). Reads the persistent index only —
 * no scan at call time.
 */
import path from "node:path";
import {
	type BranchState,
	type EventSearchHit,
	type EventSearchRequest,
	type EventSearchResult,
	RETRIEVAL_TOOL_NAMES,
	type SelectionState,
} from "../contract.js";
import { decodeFragmentPrefix, decodeFragmentText, type StoredFragmentText } from "../store/fragment-text.js";
import { compileQuery } from "../text/query-compiler.js";
import { authorizationSql, authorizedRoots, pathInsideSql } from "./authorize.js";
import type { CallerContext } from "./caller.js";
import { all, get, type QueryDb } from "./db.js";
import { invalid, QueryError } from "./errors.js";
import {
	candidateOrderSql,
	proximityTargets,
	type RankCandidate,
	RERANK_FRAGMENT_CHARS,
	rankCandidates,
} from "./rank.js";
import { coverageOf, type QueryOptions } from "./rows.js";
import { makeSnippet } from "./snippet.js";

/** Matched fragments considered per query before coalescing; bounds work whatever the corpus size. */
export const SEARCH_CANDIDATE_LIMIT = 500;

/** Matching fragments one search ranks at most (the most recently indexed); see EventSearchResult.rankedMatchCap. */
export const MAX_RANKED_MATCHES = 20_000;

/** Candidate order: bm25 weighted by fragment kind and length (rank.ts), so short statements are not crowded out. */
const CANDIDATE_ORDER = candidateOrderSql("bm25(fragments_fts)", "f.kind", "f.char_count");

const BRANCH_STATES: readonly BranchState[] = ["selected", "alternate", "unknown"];
const SELECTION_STATES: readonly SelectionState[] = [
	"direct",
	"summarized",
	"not-selected",
	"not-applicable",
	"unknown",
];

interface CandidateRow extends RankCandidate {
	fragmentId: number;
	fragmentToolName: string | null;
	entryId: string;
	entryType: string;
	role: string | null;
	eventToolName: string | null;
	isError: number;
	branchState: BranchState;
	selectionState: SelectionState;
	sessionName: string | null;
	cwd: string;
}

function stringList(name: string, value: unknown): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
		throw invalid(`"${name}" must be a list of strings.`);
	}
	const list = (value as string[]).map((v) => v.trim()).filter((v) => v !== "");
	return list.length > 0 ? [...new Set(list)] : undefined;
}

function enumList<T extends string>(name: string, value: unknown, allowed: readonly T[]): T[] | undefined {
	const list = stringList(name, value);
	if (list === undefined) return undefined;
	const bad = list.filter((v) => !(allowed as readonly string[]).includes(v));
	if (bad.length > 0) throw invalid(`"${name}" has unknown value(s) ${bad.join(", ")}; use ${allowed.join(", ")}.`);
	return list as T[];
}

function isoTime(name: string, value: unknown): string | undefined {
	if (value === undefined || value === null || value === "") return undefined;
	if (typeof value !== "string" || Number.isNaN(Date.parse(value))) {
		throw invalid(`"${name}" must be an ISO date or date-time, e.g. 2026-01-31 or 2026-01-31T12:00:00Z.`);
	}
	return new Date(Date.parse(value)).toISOString();
}

function placeholders(n: number): string {
	return Array.from({ length: n }, () => "?").join(", ");
}

/** Where the caller's own session is and where its invocation cutoff lies. */
function callerSource(db: QueryDb, caller: CallerContext) {
	if (!caller.sessionFile) return undefined;
	const src = get<{ id: number; sessionId: string | null; entryCount: number }>(
		db,
		"SELECT id, session_id AS sessionId, entry_count AS entryCount FROM sources WHERE path = ?",
		[path.resolve(caller.sessionFile)],
	);
	if (src === undefined) return undefined;
	let cutoff = src.entryCount;
	if (caller.cutoffEntryId) {
		const row = get<{ seq: number | null }>(
			db,
			"SELECT min(seq) AS seq FROM events WHERE source_id = ? AND entry_id = ?",
			[src.id, caller.cutoffEntryId],
		);
		if (row?.seq !== null && row?.seq !== undefined) cutoff = row.seq;
	}
	return { id: src.id, sessionId: caller.sessionId ?? src.sessionId, cutoff };
}

/** Search authorized sessions; throws QueryError (only) for an invalid request. */
export function searchEvents(
	db: QueryDb,
	req: EventSearchRequest,
	caller: CallerContext,
	options: QueryOptions = {},
): EventSearchResult {
	if (req === null || typeof req !== "object") throw invalid("The search request must be an object.");
	if (typeof req.query !== "string") throw invalid('"query" must be a string of terms and "quoted phrases".');
	const compiled = compileQuery(req.query);
	if (!compiled.ok) throw invalid(compiled.error);

	const budgets = caller.budgets;
	const limit = budgets.searchLimit;
	const where: string[] = ["fragments_fts MATCH ?"];
	const params: unknown[] = [compiled.match];

	const auth = authorizedRoots(caller);
	const authSql = authorizationSql("s", auth);
	where.push(authSql.sql);
	params.push(...authSql.params);

	if (req.sessionId !== undefined && req.sessionId !== null) {
		if (typeof req.sessionId !== "string" || req.sessionId.trim() === "")
			throw invalid('"sessionId" must be a string.');
		where.push("s.session_id = ?");
		params.push(req.sessionId.trim());
	}
	if (req.cwd !== undefined && req.cwd !== null && req.cwd !== "") {
		if (typeof req.cwd !== "string") throw invalid('"cwd" must be a path.');
		const inside = pathInsideSql("s.cwd", path.resolve(caller.cwd, req.cwd));
		where.push(inside.sql);
		params.push(...inside.params);
	}
	const kinds = stringList("kinds", req.kinds);
	if (kinds) {
		where.push(`(f.kind IN (${placeholders(kinds.length)}) OR e.entry_type IN (${placeholders(kinds.length)}))`);
		params.push(...kinds, ...kinds);
	}
	const roles = stringList("roles", req.roles);
	if (roles) {
		where.push(`e.role IN (${placeholders(roles.length)})`);
		params.push(...roles);
	}
	const toolNames = stringList("toolNames", req.toolNames);
	if (toolNames) {
		where.push(`coalesce(f.tool_name, e.tool_name) IN (${placeholders(toolNames.length)})`);
		params.push(...toolNames);
	}
	// Retrieval tool calls/results stay indexed as audit evidence but only match when toolNames names them.
	const hidden = RETRIEVAL_TOOL_NAMES.filter((t) => !toolNames?.includes(t));
	if (hidden.length > 0) {
		where.push(
			`(f.tool_name IS NULL OR f.tool_name NOT IN (${placeholders(hidden.length)}))`,
			`NOT (e.role = 'toolResult' AND coalesce(e.tool_name, '') IN (${placeholders(hidden.length)}))`,
		);
		params.push(...hidden, ...hidden);
	}
	if (req.errorOnly !== undefined && req.errorOnly !== null && typeof req.errorOnly !== "boolean") {
		throw invalid('"errorOnly" must be true or false.');
	}
	if (req.errorOnly) where.push("e.is_error = 1");
	const from = isoTime("time.from", req.time?.from);
	const to = isoTime("time.to", req.time?.to);
	if (from !== undefined && to !== undefined && from > to) throw invalid('"time.from" is after "time.to".');
	if (from !== undefined) {
		where.push("e.timestamp >= ?");
		params.push(from);
	}
	if (to !== undefined) {
		where.push("e.timestamp <= ?");
		params.push(to);
	}
	const branchStates = enumList("branchStates", req.branchStates, BRANCH_STATES);
	if (branchStates) {
		where.push(`e.branch_state IN (${placeholders(branchStates.length)})`);
		params.push(...branchStates);
	}
	const selectionStates = enumList("selectionStates", req.selectionStates, SELECTION_STATES);
	if (selectionStates) {
		where.push(`e.selection_state IN (${placeholders(selectionStates.length)})`);
		params.push(...selectionStates);
	}

	// Caller rules: its own session only when targeted, and then only before the invocation cutoff.
	const own = callerSource(db, caller);
	if (own) {
		const targeted = req.sessionId !== undefined && own.sessionId !== null && req.sessionId.trim() === own.sessionId;
		if (targeted) {
			where.push("(f.source_id <> ? OR f.event_seq < ?)");
			params.push(own.id, own.cutoff);
		} else {
			where.push("f.source_id <> ?");
			params.push(own.id);
		}
	}

	// Bounded work: a query matching a huge share of the corpus (a very common word) ranks only the newest
	// MAX_RANKED_MATCHES matches. The probe walks the FTS doclist alone, newest first, without any join.
	let rankedMatchCap: number | undefined;
	const probe = get<{ rowid: number }>(
		db,
		"SELECT rowid FROM fragments_fts WHERE fragments_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
		[compiled.match, MAX_RANKED_MATCHES],
	);
	if (probe) {
		where.push("fragments_fts.rowid > ?");
		params.push(probe.rowid);
		rankedMatchCap = MAX_RANKED_MATCHES;
	}

	let rows: CandidateRow[];
	try {
		rows = all<CandidateRow>(
			db,
			`SELECT f.id AS fragmentId, f.source_id AS sourceId, f.event_seq AS seq, f.ord AS ord, f.kind AS kind,
				f.char_count AS charCount,
				f.tool_name AS fragmentToolName, e.entry_id AS entryId, e.entry_type AS entryType, e.role AS role,
				e.tool_name AS eventToolName, e.is_error AS isError, e.timestamp AS timestamp,
				e.branch_state AS branchState, e.selection_state AS selectionState,
				s.session_id AS sessionId, s.session_name AS sessionName, s.cwd AS cwd, bm25(fragments_fts) AS score
			FROM fragments_fts
			JOIN fragments f ON f.id = fragments_fts.rowid
			JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
			JOIN sources s ON s.id = f.source_id
			WHERE ${where.join(" AND ")}
			ORDER BY ${CANDIDATE_ORDER}, f.id
			LIMIT ?`,
			[...params, SEARCH_CANDIDATE_LIMIT],
		);
	} catch (err) {
		options.log?.(`event_search failed for query ${JSON.stringify(req.query)}: ${(err as Error).message}`);
		throw new QueryError("invalid_request", "The search could not be run; try simpler terms.");
	}

	// Proximity needs text: read it for a bounded prefix of the candidates only.
	const targets = proximityTargets(rows, compiled.phrases.length);
	const texts = new Map<number, string>();
	if (targets.length > 0) {
		for (const r of all<{ id: number; text: StoredFragmentText }>(
			db,
			"SELECT id, text FROM fragments WHERE id IN (SELECT value FROM json_each(?))",
			[JSON.stringify(targets)],
		))
			texts.set(r.id, decodeFragmentPrefix(r.text, RERANK_FRAGMENT_CHARS));
	}
	const ranked = rankCandidates(rows, compiled.phrases, texts);
	const groups = new Map<string, { best: CandidateRow; count: number; others: string[] }>();
	for (const row of ranked) {
		const key = `${row.sourceId}:${row.seq}`;
		const group = groups.get(key);
		if (group === undefined) groups.set(key, { best: row, count: 1, others: [] });
		else {
			group.count++;
			if (group.others.length < budgets.otherFragmentIds) group.others.push(`${row.entryId}#${row.ord}`);
		}
	}
	const ordered = [...groups.values()];
	const needles = compiled.terms;
	const hits: EventSearchHit[] = ordered.slice(0, limit).map(({ best, count, others }) => {
		const stored = get<{ text: StoredFragmentText }>(db, "SELECT text FROM fragments WHERE id = ?", [best.fragmentId]);
		const text = stored === undefined ? "" : decodeFragmentText(stored.text);
		const hit: EventSearchHit = {
			sessionId: best.sessionId,
			cwd: best.cwd,
			entryId: best.entryId,
			entryType: best.entryType,
			matchingFragmentId: `${best.entryId}#${best.ord}`,
			semanticKind: best.kind,
			timestamp: best.timestamp,
			branchState: best.branchState,
			selectionState: best.selectionState,
			snippet: makeSnippet(text, needles, budgets.snippetChars),
			matchingFragmentCount: count,
		};
		if (best.sessionName) hit.sessionName = best.sessionName;
		if (others.length > 0) hit.otherFragmentIds = others;
		if (best.role) hit.role = best.role;
		const toolName = best.fragmentToolName ?? best.eventToolName;
		if (toolName) hit.toolName = toolName;
		if (best.isError) hit.isError = true;
		return hit;
	});
	const result: EventSearchResult = {
		hits,
		truncated: ordered.length > limit || rows.length >= SEARCH_CANDIDATE_LIMIT || rankedMatchCap !== undefined,
		limit,
		coverage: coverageOf(db, options),
	};
	if (rankedMatchCap !== undefined) result.rankedMatchCap = rankedMatchCap;
	return result;
}
