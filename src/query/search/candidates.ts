/**
 * Stage 2: candidates of one conjunction of terms under the plan. Everything that narrows happens inside the FTS
 * index (terms on the text columns, filters and authorization on the tags column); then a bounded window of the
 * newest matches is ranked there by weighted bm25 (rank.ts) and only the best few rows are joined to their
 * events and sessions, where the exact SQL checks are applied.
 */

import type { BranchState, SelectionState } from "../../contract.js";
import { isStoreDamage } from "../../store/db.js";
import { all, get, type QueryDb } from "../db.js";
import { QueryError } from "../errors.js";
import { type RankCandidate, WEIGHTED_BM25_RANK } from "../rank.js";
import type { SearchPlan } from "./request.js";

/** Matched fragments ranked per conjunction at most (the most recently indexed); see EventSearchResult.rankedMatchCap. */
export const MAX_RANKED_MATCHES = 3_000;

/** Ranked fragments returned per conjunction at most (a search asks for fewer: searchCandidateRows). */
export const SEARCH_CANDIDATE_LIMIT = 500;

/** Ranked fragments joined and checked per slice: joins cost ~10 µs a row, so only as many as the page needs. */
const JOIN_SLICE = 100;

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

/**
 * The full MATCH expression: the terms AND the plan's tag expressions, minus its exclusions. No column filters:
 * tag tokens never equal a word a term can match (terms.ts), so each side can only match its own column.
 */
export function matchExpression(
	plan: Pick<SearchPlan, "tagMatches" | "tagExclusions">,
	termMatches: readonly string[],
): string {
	const parts = [...termMatches, ...plan.tagMatches].map((p) => `(${p})`);
	const positive = parts.length === 1 ? parts[0] : `(${parts.join(" AND ")})`;
	if (plan.tagExclusions.length === 0) return positive;
	return `${positive} NOT (${plan.tagExclusions.join(" OR ")})`;
}

// CROSS JOIN fixes the join order: from the ranked ids outwards, whatever the checks (the planner otherwise may
// start from sources and walk every fragment of every visible session).
const JOIN_SQL = `SELECT f.id AS fragmentId, f.source_id AS sourceId, f.event_seq AS seq, f.ord AS ord, f.kind AS kind,
	f.char_count AS charCount, f.tool_name AS fragmentToolName, e.entry_id AS entryId, e.entry_type AS entryType,
	e.role AS role, e.tool_name AS eventToolName, e.is_error AS isError, e.timestamp AS timestamp,
	e.branch_state AS branchState, e.selection_state AS selectionState,
	s.session_id AS sessionId, s.session_name AS sessionName, s.cwd AS cwd
FROM json_each(?) j
CROSS JOIN fragments f ON f.id = j.value
CROSS JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
CROSS JOIN sources s ON s.id = f.source_id`;

/**
 * A rowid bound of an FTS5 query. FTS5 seeks to an integer bound but ignores a real one (and then returns every
 * match for `rowid = ?`, or walks the whole doclist for a range), and drivers bind a JS number as a real.
 */
export const INTEGER = "CAST(? AS INTEGER)";

/** Fragment ids with their weighted bm25, best first. */
type Ranked = Array<{ id: number; score: number }>;

/**
 * The best `keep` of the newest `cap` matches of `match` (the terms and the plan's tags), by weighted bm25. Bounded work: the window is a subquery walking the
 * doclist newest first (a `rowid > floor` bound is not a seek in FTS5: it scans the whole doclist), and bm25 runs
 * on it once; one row more than the cap says whether it applied, without a second walk.
 *
 * bm25 computes its idf with a full scan of the doclist of every phrase in the expression, filter tags included,
 * and a tag such as a year or a role is on a large share of all fragments (a rare word under a time range cost
 * 30 ms that way). So when the terms alone match at most `cap` fragments, the filtered ids are taken without bm25
 * and the terms alone are ranked: the same rows, the same order, no cap, and idf scans of the terms' doclists only.
 */
function rankedWindow(
	db: QueryDb,
	plan: SearchPlan,
	termMatches: readonly string[],
	match: string,
	cap: number,
	keep: number,
): { ranked: Ranked; capped: boolean } {
	if (plan.tagMatches.length > 0) {
		const termsOnly = matchExpression({ tagMatches: [], tagExclusions: [] }, termMatches);
		const few = get<{ n: number }>(
			db,
			"SELECT count(*) AS n FROM (SELECT 1 FROM fragments_fts WHERE fragments_fts MATCH ? ORDER BY rowid DESC LIMIT ?)",
			[termsOnly, cap + 1],
		);
		if ((few?.n ?? 0) <= cap) {
			const ids = all<{ id: number }>(db, "SELECT rowid AS id FROM fragments_fts WHERE fragments_fts MATCH ?", [
				match,
			]).map((r) => r.id);
			if (ids.length === 0) return { ranked: [], capped: false };
			const allowed = new Set(ids);
			// bm25 runs only on the rows the range returns.
			const scored = all<{ id: number; score: number }>(
				db,
				`SELECT rowid AS id, rank AS score FROM fragments_fts
				WHERE fragments_fts MATCH ? AND rank MATCH ? AND rowid BETWEEN ${INTEGER} AND ${INTEGER}`,
				[termsOnly, WEIGHTED_BM25_RANK, Math.min(...ids), Math.max(...ids)],
			);
			const ranked = scored.filter((r) => allowed.has(r.id)).sort((a, b) => a.score - b.score || a.id - b.id);
			return { ranked: ranked.slice(0, keep), capped: false };
		}
	}
	const ranked = all<{ id: number; score: number; n: number }>(
		db,
		`SELECT id, score, n FROM (SELECT id, score, count(*) OVER () AS n, row_number() OVER (ORDER BY id DESC) AS age
			FROM (SELECT rowid AS id, rank AS score FROM fragments_fts
			WHERE fragments_fts MATCH ? AND rank MATCH ? ORDER BY rowid DESC LIMIT ?))
		WHERE age <= ? ORDER BY score, id LIMIT ?`,
		[match, WEIGHTED_BM25_RANK, cap + 1, cap, keep],
	);
	return { ranked, capped: (ranked[0]?.n ?? 0) > cap };
}

/**
 * Ranked, checked candidates of `termMatches` (FTS expressions, all required) under `plan`. `cap` bounds the
 * matches ranked (newest first), `limit` the rows returned. Throws QueryError if SQLite rejects the statement.
 */
export function findCandidates(
	db: QueryDb,
	plan: SearchPlan,
	termMatches: readonly string[],
	cap = MAX_RANKED_MATCHES,
	limit = SEARCH_CANDIDATE_LIMIT,
	log?: (message: string) => void,
): Candidates {
	const match = matchExpression(plan, termMatches);
	try {
		const { ranked, capped } = rankedWindow(db, plan, termMatches, match, cap, limit * MAX_PAGES);
		const score = new Map(ranked.map((r) => [r.id, r.score]));
		const checks = plan.checks.filter((c) => c.sql !== "");
		const where = checks.length > 0 ? `WHERE ${checks.map((c) => `(${c.sql})`).join(" AND ")}` : "";
		const params = checks.flatMap((c) => c.params);
		const rows: CandidateRow[] = [];
		let next = 0;
		while (rows.length < limit && next < ranked.length) {
			const slice = ranked.slice(next, next + JOIN_SLICE).map((r) => r.id);
			next += slice.length;
			const checked = all<Omit<CandidateRow, "score">>(db, `${JOIN_SQL} ${where}`, [JSON.stringify(slice), ...params]);
			for (const row of checked) rows.push({ ...row, score: score.get(row.fragmentId) ?? 0 });
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
