/**
 * Stage 2: candidates of one conjunction of terms under the plan. Everything that narrows happens inside the FTS
 * index (terms on the text columns, filters and authorization on the tags column); then a bounded window of the
 * newest matches is ranked there by weighted bm25 (rank.ts) and only the best few rows are joined to their
 * events and sessions, where the exact SQL checks are applied.
 */

import type { BranchState, SelectionState } from "../../contract.js";
import { codedJsonColumn, type JsonColumn, timestampJsonColumn } from "../../store/column-codes.js";
import { isStoreDamage } from "../../store/db.js";
import type { SqlClause } from "../authorize.js";
import { all, allViaJson, get, type QueryDb } from "../db.js";
import { QueryError } from "../errors.js";
import type { RankCandidate } from "../rank.js";
import { type PresenceScoring, presenceRankedWindow, withPresenceBonus } from "./presence-window.js";
import { matchExpression, matchIds, rankedWindow } from "./ranked-window.js";
import type { SearchPlan } from "./request.js";

/** Matched fragments ranked per conjunction at most (the most recently indexed); see EventSearchResult.rankedMatchCap. */
export const MAX_RANKED_MATCHES = 2_000;

/** Ranked fragments returned per conjunction at most (a search asks for fewer: searchCandidateRows). */
export const SEARCH_CANDIDATE_LIMIT = 500;

/** Ranked fragments joined and checked per further slice: joins cost ~3 µs a row, so only as many as the page needs. */
const JOIN_SLICE = 100;

/**
 * Fragments already joined and checked in one search, by id (null: the checks rejected it): a fragment that several
 * candidate lists rank (the relaxed tier's) is joined once.
 */
export type JoinedRows = Map<number, Omit<CandidateRow, "score"> | null>;

/** Ranked rows kept per row asked for: the exact checks rarely reject one (the filters narrowed inside the index). */
const MAX_PAGES = 4;

/** One matched fragment with the event and session facts hits need. */
export interface CandidateRow extends RankCandidate {
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

/** Candidates of one conjunction, best first by weighted bm25. */
export interface Candidates {
	rows: CandidateRow[];
	/** More matches existed than the ranked window held (the cap applied). */
	capped: boolean;
	/** More candidates than returned passed the checks (the page limit applied). */
	more: boolean;
}

/** What the join returns for each ranked fragment (CandidateRow less its score). */
export const JOIN_COLUMNS = {
	fragmentId: "f.id",
	sourceId: "f.source_id",
	seq: "f.event_seq",
	ord: "f.ord",
	kind: codedJsonColumn("kind", "f.kind"),
	charCount: "f.char_count",
	fragmentToolName: "f.tool_name",
	entryId: "e.entry_id",
	entryType: codedJsonColumn("entryType", "e.entry_type"),
	role: codedJsonColumn("role", "e.role"),
	eventToolName: "e.tool_name",
	isError: "e.is_error",
	timestamp: timestampJsonColumn("e.timestamp"),
	branchState: codedJsonColumn("branchState", "e.branch_state"),
	selectionState: codedJsonColumn("selectionState", "e.selection_state"),
	sessionId: "s.session_id",
	sessionName: "s.session_name",
	cwd: "s.cwd",
} as const satisfies Record<keyof Omit<CandidateRow, "score">, string | JsonColumn>;

// CROSS JOIN fixes the join order: from the ranked ids outwards, whatever the checks (the planner otherwise may
// start from sources and walk every fragment of every visible session).
const JOIN_FROM = `FROM json_each(?) j
CROSS JOIN fragments f ON f.id = j.value
CROSS JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
CROSS JOIN sources s ON s.id = f.source_id`;

/** Whether any fragment of `ids` (a JSON array) passes every one of `checks`: one indexed join, stopped at the first. */
export function anyPasses(db: QueryDb, checks: readonly SqlClause[], ids: string): boolean {
	const live = checks.filter((c) => c.sql !== "");
	const where = live.length > 0 ? `WHERE ${live.map((c) => `(${c.sql})`).join(" AND ")}` : "";
	return (
		get(db, `SELECT 1 AS one ${JOIN_FROM} ${where} LIMIT 1`, [ids, ...live.flatMap((c) => c.params)]) !== undefined
	);
}

/** How findCandidates bounds and ranks its window. */
export interface CandidateOptions {
	/** Matches ranked at most (the newest). */
	cap?: number;
	/** Rows returned at most. */
	limit?: number;
	/** Rank some terms by presence (presence-window.ts) instead of bm25 over the whole expression. */
	presence?: PresenceScoring;
	/**
	 * The exact form of each of termMatches that has inflections (undefined for the others): a row holding it ranks
	 * above one with only an inflected form (presence-window.ts, withPresenceBonus; or bm25, ranked-window.ts).
	 */
	exactForms?: ReadonlyArray<string | undefined>;
	/** A term of termMatches was typed as a phrase (terms.ts, typedAsPhrase): its window is ranked in one pass. */
	typedPhrase?: boolean;
	/**
	 * The terms likely match at most `cap` fragments (a relaxed term whose counted document frequency is within the
	 * cap): the window is walked oldest first before newest first (ranked-window.ts, rankedByTerms). Only the speed
	 * depends on it.
	 */
	fewMatches?: boolean;
	/** Rows joined by earlier lists of the same search and plan: not joined again, and those joined here are added. */
	joined?: JoinedRows;
	log?: (message: string) => void;
}

/**
 * Ranked, checked candidates of `termMatches` (FTS expressions, all required) under `plan`. Throws QueryError if
 * SQLite rejects the statement.
 */
export function findCandidates(
	db: QueryDb,
	plan: SearchPlan,
	termMatches: readonly string[],
	{
		cap = MAX_RANKED_MATCHES,
		limit = SEARCH_CANDIDATE_LIMIT,
		presence,
		exactForms = [],
		typedPhrase = false,
		fewMatches = false,
		joined,
		log,
	}: CandidateOptions = {},
): Candidates {
	const match = matchExpression(plan, termMatches);
	try {
		const keep = limit * MAX_PAGES;
		const window = presence
			? presenceRankedWindow(db, match, presence, cap, keep)
			: rankedWindow(db, plan, termMatches, match, { cap, keep, exactForms, typedPhrase, fewMatches });
		const { capped, span } = window;
		const bonus = window.exactCounted ? [] : exactForms.filter((f) => f !== undefined);
		const ranked = span ? withPresenceBonus(db, window.ranked, bonus, span) : window.ranked;
		const score = new Map(ranked.map((r) => [r.id, r.score]));
		const rows: CandidateRow[] = [];
		let next = 0;
		while (rows.length < limit && next < ranked.length) {
			// The first slice holds every row asked for: one statement when the checks reject none.
			const size = next === 0 ? limit : JOIN_SLICE;
			const slice = ranked.slice(next, next + size).map((r) => r.id);
			next += slice.length;
			for (const row of joinChecked(db, plan, slice, joined)) {
				// A row of `joined` is shared with other lists, each with its own score; a fresh one is this list's alone.
				const scored = joined === undefined ? (row as CandidateRow) : ({ ...row } as CandidateRow);
				scored.score = score.get(row.fragmentId) ?? 0;
				rows.push(scored);
			}
		}
		rows.sort((a, b) => a.score - b.score || a.fragmentId - b.fragmentId);
		return { rows: rows.slice(0, limit), capped, more: rows.length > limit || next < ranked.length };
	} catch (err) {
		// A damaged store is the caller's to recover (IndexRuntime), not a query the model should simplify.
		if (isStoreDamage(err)) throw err;
		log?.(`event_search failed for match ${JSON.stringify(match)}: ${(err as Error).message}`);
		throw new QueryError("invalid_request", "The search could not be run; try simpler terms.");
	}
}

/**
 * The rows of fragments `ids` joined to their events and sessions, those that pass the plan's exact checks; those
 * `joined` knows are taken from it, and the others are added to it.
 */
function joinChecked(
	db: QueryDb,
	plan: SearchPlan,
	ids: readonly number[],
	joined?: JoinedRows,
): Omit<CandidateRow, "score">[] {
	const unknown = joined === undefined ? ids : ids.filter((id) => !joined.has(id));
	const { where, params } = checkedWhere(plan);
	const fresh =
		unknown.length === 0
			? []
			: allViaJson<Omit<CandidateRow, "score">>(db, JOIN_COLUMNS, `${JOIN_FROM} ${where}`, [
					JSON.stringify(unknown),
					...params,
				]);
	if (joined === undefined) return fresh;
	for (const id of unknown) joined.set(id, null);
	for (const row of fresh) joined.set(row.fragmentId, row);
	return ids.flatMap((id) => joined.get(id) ?? []);
}

/** The WHERE clause of the plan's exact checks (none: empty) and its parameters. */
export function checkedWhere(plan: SearchPlan): { where: string; params: Array<string | number> } {
	const checks = plan.checks.filter((c) => c.sql !== "");
	const where = checks.length > 0 ? `WHERE ${checks.map((c) => `(${c.sql})`).join(" AND ")}` : "";
	return { where, params: checks.flatMap((c) => c.params) };
}

/**
 * Candidates of a search with no terms (a look-up by file: docs/query-language.md): the newest `cap` matches of the
 * plan's tags, all joined and checked, newest first by timestamp. No text to rank by: every score is 0, so the
 * hits' order is their tie order (rank.ts), newest first.
 */
export function listCandidates(
	db: QueryDb,
	plan: SearchPlan,
	{ cap = MAX_RANKED_MATCHES, limit = SEARCH_CANDIDATE_LIMIT }: Pick<CandidateOptions, "cap" | "limit"> = {},
): Candidates {
	const window = matchIds(db, matchExpression(plan, []), cap + 1);
	const ids = window ? (JSON.parse(window.ids) as number[]).sort((a, b) => b - a) : [];
	const capped = ids.length > cap;
	// Only the newest that pass the checks are joined whole: a stored timestamp orders as its instant (epoch ms; one
	// kept as text sorts first, rare), and a whole join of the window cost about 5 µs a row.
	const { where, params } = checkedWhere(plan);
	const newest = all<{ id: number }>(
		db,
		`SELECT f.id AS id ${JOIN_FROM} ${where} ORDER BY e.timestamp DESC, f.id DESC LIMIT ?`,
		[JSON.stringify(ids.slice(0, cap)), ...params, limit + 1],
	).map((r) => r.id);
	const rows = joinChecked(db, plan, newest).map((row): CandidateRow => Object.assign(row, { score: 0 }));
	rows.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : b.fragmentId - a.fragmentId));
	return { rows: rows.slice(0, limit), capped, more: rows.length > limit };
}
