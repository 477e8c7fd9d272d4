/**
 * Stage 2a, for an OR of terms some of which are common: the ranked window with the common terms scored by their
 * presence instead of by FTS5's bm25.
 *
 * Why: bm25 computes the idf of every phrase of the expression by walking that phrase's whole doclist, whatever
 * the window. A common word's forms are on tens of thousands of fragments, so a relaxed OR of six words spent
 * 10–15 ms of its 22 ms there on 1 GB, and that part grows with the corpus while the window does not. Here the
 * window is the same (the newest `cap` matches of the whole expression and the tags); the rare terms (and quoted
 * phrases) are still ranked by FTS5's weighted bm25 among its ids, and each form of a common term adds what bm25
 * adds for one occurrence (rank.ts, presenceScore): its idf estimated from its density over the window's rowids,
 * the fragment's row weight (its id, store/fragment-ids.ts) and length from FTS5's docsize record. Every query is a seek and a
 * bounded walk.
 * Tier 1 uses the same scoring for the form as typed (withPresenceBonus).
 */

import { fragmentsInIds, ID_STRIDE, rowWeightOfId } from "../../store/fragment-ids.js";
import { get, type QueryDb } from "../db.js";
import { bm25Idf, presenceScore } from "../rank.js";
import {
	bestFirst,
	INTEGER,
	matchIds,
	type Ranked,
	type RankedWindow,
	type RowidSpan,
	rankAmong,
} from "./ranked-window.js";

/**
 * How the relaxed OR is ranked: the weighted bm25 of each of `ranked` (terms-only expressions, each over disjoint
 * phrases, so their scores add up to bm25 over all of them; a fragment that does not match one gets 0 from it),
 * plus the `present` terms.
 */
export interface PresenceScoring {
	ranked: readonly string[];
	/** MATCH expressions of single phrases, each scored by presence. */
	present: readonly string[];
	/** Where the walks of the `present` phrases are kept, for later questions of which fragment holds which. */
	walks?: PhraseWalks;
}

/**
 * The matches of single phrases within rowid ranges, as the presence scoring walked them: which fragments of a range
 * hold a phrase is then known without asking the index again (a seek with MATCH and a rowid costs 0.3–1 ms on 1 GB,
 * a term of four forms most).
 */
export class PhraseWalks {
	private readonly walked = new Map<string, { lo: number; hi: number; ids: readonly number[] }>();

	/** Records that `ids` (ascending) are all the matches of `phrase` within rowids lo..hi. */
	record(phrase: string, lo: number, hi: number, ids: readonly number[]): void {
		this.walked.set(phrase, { lo, hi, ids });
	}

	/** Whether fragment `id` holds `phrase`, or undefined when no walk of it covered `id`. */
	holds(phrase: string, id: number): boolean | undefined {
		const walk = this.walked.get(phrase);
		if (walk === undefined || id < walk.lo || id > walk.hi) return undefined;
		return walk.ids[firstAtLeast(walk.ids, id)] === id;
	}
}

/** Index of the first of `ids` (ascending) that is at least `id` (`ids.length` when none is). */
function firstAtLeast(ids: readonly number[], id: number): number {
	let lo = 0;
	let hi = ids.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (ids[mid] < id) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/**
 * Ids of the matches of `match` within rowids lo..hi, ascending. FTS5 reaches `lo` by reading the phrase's doclist
 * from its start in each segment that keeps no index of it (a doclist of a few pages), but the end of a doclist at
 * once: so a range near the index's newest id (`newest`) is walked newest first, at about half the speed per row,
 * when that reads less (on 1 GB the relaxed question's 20 walks, 3.0 → 2.0 ms; `fix` alone 0.6 → 0.2 ms).
 */
export function idsWithin(db: QueryDb, match: string, lo: number, hi: number, newest: number): number[] {
	const backwards = 2 * (newest - lo) < hi;
	const row = get<{ ids: string }>(
		db,
		backwards
			? `SELECT json_group_array(id) AS ids FROM (SELECT rowid AS id FROM fragments_fts WHERE fragments_fts MATCH ?
				AND rowid BETWEEN ${INTEGER} AND ${INTEGER} ORDER BY rowid DESC LIMIT -1)`
			: `SELECT json_group_array(rowid) AS ids FROM fragments_fts WHERE fragments_fts MATCH ?
				AND rowid BETWEEN ${INTEGER} AND ${INTEGER}`,
		[match, lo, hi],
	);
	const ids = row ? (JSON.parse(row.ids) as number[]) : [];
	return backwards ? ids.reverse() : ids;
}

/** Value of one hex digit's character code. */
function nibble(code: number): number {
	return code <= 57 ? code - 48 : (code & 0x5f) - 55;
}

/**
 * The varints (SQLite's format: big-endian 7-bit groups, a ninth byte of 8 bits) of a blob given as hex: one
 * statement returns all the rows as JSON text, portable across drivers, and this runs on thousands of rows per
 * query, so it reads the hex in place.
 */
function varints(hex: string): number[] {
	const out: number[] = [];
	const bytes = hex.length >> 1;
	for (let at = 0; at < bytes; ) {
		let value = 0;
		for (let i = 0; at < bytes; i++) {
			const b = (nibble(hex.charCodeAt(2 * at)) << 4) | nibble(hex.charCodeAt(2 * at + 1));
			at++;
			if (i === 8) {
				value = value * 256 + b;
				break;
			}
			value = value * 128 + (b & 0x7f);
			if (b < 0x80) break;
		}
		out.push(value);
	}
	return out;
}

/** What bm25 counts against: FTS5's row count and mean row length in tokens (its averages record, id 1). */
function averages(db: QueryDb): { rows: number; avgdl: number } {
	const row = get<{ hex: string }>(db, "SELECT hex(block) AS hex FROM fragments_fts_data WHERE id = 1");
	const [rows, ...perColumn] = varints(row?.hex ?? "");
	const tokens = perColumn.reduce((a, b) => a + b, 0);
	return { rows: rows ?? 0, avgdl: rows ? tokens / rows : 1 };
}

/** The length in tokens (all columns of FTS5's docsize row) of each of `ids`. */
function docTokens(db: QueryDb, ids: readonly number[]): Map<number, number> {
	const row = get<{ rows: string }>(
		db,
		`SELECT json_group_array(json_array(d.id, hex(d.sz))) AS rows
		FROM json_each(?) j CROSS JOIN fragments_fts_docsize d ON d.id = j.value`,
		[JSON.stringify(ids)],
	);
	const rows = row ? (JSON.parse(row.rows) as Array<[number, string]>) : [];
	return new Map(rows.map(([id, hex]) => [id, varints(hex).reduce((a, b) => a + b, 0)]));
}

/** Rowids a phrase's density (its df estimate) is counted over at least: the newest of the window's range. */
const DENSITY_SPAN = 20_000 * ID_STRIDE;

/**
 * Adds to `score` (by fragment id, lower is better) what each of `phrases` adds to bm25 for one occurrence in
 * each fragment of `among` that holds it (rank.ts, presenceScore): the phrase's idf estimated from its density in
 * `span`, widened to DENSITY_SPAN rowids (counting its whole doclist is what bm25 pays for), the fragment's row weight
 * from its id and its length from FTS5's docsize record.
 */
function addPresence(
	db: QueryDb,
	score: Map<number, number>,
	phrases: readonly string[],
	span: RowidSpan,
	among: ReadonlySet<number>,
	walks?: PhraseWalks,
): void {
	const { rows, avgdl } = averages(db);
	const newest = get<{ n: number | null }>(db, "SELECT max(id) AS n FROM fragments")?.n ?? span.hi;
	// A window of few matches spans few rowids: its density says nothing, so it is taken over DENSITY_SPAN at least.
	const lo = Math.max(1, Math.min(span.lo, span.hi - DENSITY_SPAN + 1));
	const holders = phrases.map((phrase) => {
		const within = idsWithin(db, phrase, lo, span.hi, newest);
		walks?.record(phrase, lo, span.hi, within);
		const df = Math.round((within.length * rows) / fragmentsInIds(span.hi - lo + 1));
		// Only the window's own range can hold one of `among`.
		const inWindow = within.slice(firstAtLeast(within, span.lo));
		return { idf: bm25Idf(rows, df), ids: inWindow.filter((id) => among.has(id)) };
	});
	const tokens = docTokens(db, [...new Set(holders.flatMap((h) => h.ids))]);
	for (const { idf, ids } of holders)
		for (const id of ids) {
			const lengthRatio = (tokens.get(id) ?? avgdl) / avgdl;
			score.set(id, (score.get(id) ?? 0) + presenceScore(idf, rowWeightOfId(id), lengthRatio));
		}
}

/**
 * The best `keep` of the newest `cap` matches of `match` (the whole expression with the plan's tags), scored as
 * described above.
 */
export function presenceRankedWindow(
	db: QueryDb,
	match: string,
	scoring: PresenceScoring,
	cap: number,
	keep: number,
): RankedWindow {
	const window = matchIds(db, match, cap + 1);
	if (window?.lo == null || window.hi === null) return { ranked: [], capped: false };
	const capped = window.n > cap;
	const ids = (JSON.parse(window.ids) as number[]).slice(0, cap);
	const span = { lo: ids[ids.length - 1], hi: window.hi };
	const score = new Map<number, number>();
	for (const expr of scoring.ranked)
		for (const r of rankAmong(db, expr, JSON.stringify(ids), span.lo, span.hi, ids.length))
			score.set(r.id, (score.get(r.id) ?? 0) + r.score);
	addPresence(db, score, scoring.present, span, new Set(ids), scoring.walks);
	const ranked = bestFirst([...score].map(([id, s]) => ({ id, score: s })));
	return { ranked: ranked.slice(0, keep), capped, span };
}

/**
 * `ranked` (a window over `span`, best first) with each of `phrases` adding what bm25 adds for one occurrence,
 * best first again. Tier 1 ranks the exact form of an inflected word this way instead of writing it twice in the
 * MATCH: the second copy cost bm25 a second walk of the form's doclist and its positions on every row (on 1 GB,
 * `error` 11.7 → 8.5 ms, two common words 13.6 → 8.7 ms).
 */
export function withPresenceBonus(db: QueryDb, ranked: Ranked, phrases: readonly string[], span: RowidSpan): Ranked {
	if (phrases.length === 0 || ranked.length === 0) return ranked;
	const score = new Map(ranked.map((r) => [r.id, r.score]));
	addPresence(db, score, phrases, span, new Set(score.keys()));
	return bestFirst([...score].map(([id, s]) => ({ id, score: s })));
}
