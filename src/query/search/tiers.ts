/**
 * Stage 2b: relaxed tiers. When fewer events than the limit contain every term, the rest of the page is filled
 * with events that contain only some of the terms. Candidates come from inside the FTS index under every filter:
 * the OR of all the terms, each rare term alone (so its events are found however common the others are), and the
 * phrases alone, each query bounded to its newest MAX_RANKED_MATCHES (candidates.ts). The score is weighted bm25 against the OR
 * (bm25 adds the idf of each matched term, so covering more and rarer terms ranks higher, while a term repeated in
 * a short statement still counts); for a candidate only a per-term list held, the sum of its per-term scores. No
 * FTS query per candidate: with a MATCH, even a rowid seek (ranked-window.ts, INTEGER) costs ≈ 0.3 ms on 1 GB.
 * The best events (chosen with their session facts and, for a question asking a measure or a name, a stated number
 * or name counted: answer-type.ts) are then re-ranked with their conversation context (context.ts). Measured on bench/natural: 90.4 %
 * recall@5 against 75.3 % for plain bm25-OR (82.9 % without the context). Phrases are required in every query.
 */

import { fragmentsInIds } from "../../store/fragment-ids.js";
import { STORED_HEAD_CHARS } from "../../text/stored-head.js";
import { containsAnyForm, indexTokens } from "../../text/term-presence.js";
import { get, type QueryDb } from "../db.js";
import { statesAnswer } from "./answer-type.js";
import { type CandidateRow, findCandidates, type JoinedRows, MAX_RANKED_MATCHES } from "./candidates.js";
import { coalesce, type EventGroup, eventKey, fragmentOpenings, type Openings } from "./coalesce.js";
import { contextTerms, namesMonth, sessionFacts } from "./context.js";
import { intentFactor } from "./intent.js";
import { PhraseWalks, type PresenceScoring } from "./presence-window.js";
import { INTEGER } from "./ranked-window.js";
import type { SearchPlan } from "./request.js";
import { liftedByTasks } from "./task-evidence.js";
import { type SearchTerm, typedAsPhrase } from "./terms.js";

/** Candidates taken from the OR of all terms, and from each term alone. */
const OR_CANDIDATES = 200;
const TERM_CANDIDATES = 60;
/** Document frequencies are counted up to this many fragments; commoner terms all weigh the same. */
const DF_COUNT_CAP = 10_000;
/** Terms considered for relaxation at most (the rarest); the others count as missing. */
const MAX_RELAXED_TERMS = 10;

/** An event of a relaxed tier: its group and which of the plain terms it contains. */
export interface RelaxedGroup extends EventGroup {
	matched: SearchTerm[];
	missing: SearchTerm[];
	/**
	 * Share (0–1) of the query's weight the event holds: each plain term weighs its idf, each quoted phrase (held by
	 * every hit; its frequency is not counted, a phrase's count walks its positions) as much as the rarest term.
	 * What weak-matches.ts judges a page by.
	 */
	coverage: number;
}

/** What the relaxed tiers found. */
export interface RelaxedResult {
	groups: RelaxedGroup[];
	/** Some conjunction hit its ranked-match cap. */
	capped: boolean;
}

/** Fragments matching `match`, counted up to DF_COUNT_CAP. */
function countUpToCap(db: QueryDb, match: string): number {
	return (
		get<{ n: number }>(
			db,
			"SELECT count(*) AS n FROM (SELECT 1 FROM fragments_fts WHERE fragments_fts MATCH ? LIMIT ?)",
			[match, DF_COUNT_CAP],
		)?.n ?? 0
	);
}

/**
 * Fragments containing the term anywhere, counted up to DF_COUNT_CAP. When its form as typed alone reaches the cap,
 * so does the OR of its forms: one doclist walks faster than a merge of several (a common word's count, 0.8 → 0.5 ms
 * on 1 GB).
 */
function documentFrequency(db: QueryDb, term: SearchTerm): number {
	if (term.exactForm !== undefined && countUpToCap(db, term.exactForm) >= DF_COUNT_CAP) return DF_COUNT_CAP;
	return countUpToCap(db, term.match);
}

/**
 * How the OR of the terms is ranked when some are common (counted on DF_COUNT_CAP fragments or more): bm25's idf
 * would walk their whole doclists, so they are scored by presence (presence-window.ts). Undefined: plain bm25.
 */
function orScoring(
	indexed: readonly SearchTerm[],
	dfs: ReadonlyMap<SearchTerm, number>,
	required: readonly string[],
	walks: PhraseWalks,
): PresenceScoring | undefined {
	const common = indexed.filter((t) => (dfs.get(t) ?? 0) >= DF_COUNT_CAP);
	if (common.length === 0) return undefined;
	const rare = indexed.filter((t) => !common.includes(t));
	const ranked = [
		...(required.length > 0 ? [required.map((m) => `(${m})`).join(" AND ")] : []),
		...(rare.length > 0 ? [rare.map((t) => t.match).join(" OR ")] : []),
	];
	// Each form alone, as bm25 ranks each phrase of the OR: a rarer form weighs more, two forms count twice.
	return { ranked, present: common.flatMap((t) => t.formMatches), walks };
}

/** Events of the relaxed tier whose conversation context is read (the best by their own score). */
const CONTEXT_GROUPS = 40;
/** Share of a term's idf that its presence in the context (not in the event) adds. */
const CONTEXT_WEIGHT = 0.8;

/**
 * Longest prefix of a fragment read to name its matched terms: what the index stores of it (fragment-text.ts); a
 * term that prefix lacks is asked of the index.
 */
const PRESENCE_SCAN_CHARS = STORED_HEAD_CHARS;

/**
 * Which of `terms` the event's fragment contains: a term whose own candidate list held one of the event's
 * fragments (`listed`: their indexes) is in; otherwise the stored head of the fragment's text (`head`) is tokenised
 * as the index does (term-presence.ts), and for a longer fragment a term the head lacks is looked up in the walks
 * of its forms the presence scoring made (`walks`), or else asked of the index (a seek with an integer rowid:
 * ranked-window.ts, INTEGER).
 */
function presentTerms(
	db: QueryDb,
	best: CandidateRow,
	terms: readonly SearchTerm[],
	listed: ReadonlySet<number>,
	{ head, walks }: { head: string; walks: PhraseWalks },
): SearchTerm[] {
	const unknown = terms.filter((_, i) => !listed.has(i));
	if (unknown.length === 0) return [...terms];
	const tokens = indexTokens(head, best.kind);
	const inIndex = (t: SearchTerm) => {
		if (best.charCount <= PRESENCE_SCAN_CHARS) return false;
		const walked = t.formMatches.map((form) => walks.holds(form, best.fragmentId));
		if (walked.includes(true)) return true;
		if (!walked.includes(undefined)) return false;
		return (
			get(db, `SELECT 1 FROM fragments_fts WHERE fragments_fts MATCH ? AND rowid = ${INTEGER}`, [
				t.match,
				best.fragmentId,
			]) !== undefined
		);
	};
	const found = new Set(unknown.filter((t) => containsAnyForm(tokens, t.forms) || inIndex(t)));
	return terms.filter((t, i) => listed.has(i) || found.has(t));
}

/** Share of the rarest term's idf that stating what the question asks for (a number, a name) adds to an event. */
const ANSWER_WEIGHT = 0.5;
/** Candidates (the best by their own score and session facts) whose opening is read for a number. */
const ANSWER_ROWS = 120;

/**
 * Sorts `scored` (in place) best first; for a question asking a measure or a name, the best ANSWER_ROWS that state
 * one (answer-type.ts) rank with `bonus` counted, before the events whose context is read are chosen. Returns them.
 */
function sortWithAnswers(db: QueryDb, plan: SearchPlan, scored: CandidateRow[], bonus: number): Set<number> {
	const byScore = (a: CandidateRow, b: CandidateRow) => a.score - b.score || a.fragmentId - b.fragmentId;
	scored.sort(byScore);
	const answering = plan.asks ? statesAnswer(db, scored.slice(0, ANSWER_ROWS), plan.asks) : new Set<number>();
	if (answering.size === 0) return answering;
	for (const row of scored) if (answering.has(row.fragmentId)) row.score -= bonus;
	scored.sort(byScore);
	return answering;
}

/**
 * The best events' final order: their own score (`own`, by fragment), less part of the weight of each term the
 * event lacks but its conversation has (context.ts), less `bonus` (the question asks a measure or a name, the event
 * states one: answer-type.ts).
 */
function rerank(
	db: QueryDb,
	best: ReadonlyArray<{ group: EventGroup; matched: SearchTerm[] }>,
	live: readonly SearchTerm[],
	weight: (t: SearchTerm) => number,
	own: ReadonlyMap<number, number>,
	bonus: (fragmentId: number) => number,
): Array<{ group: EventGroup; matched: SearchTerm[]; score: number }> {
	const context = contextTerms(
		db,
		best.map((b) => b.group.best),
		live,
	);
	const adjusted = best.map(({ group, matched }) => {
		const held = context.get(eventKey(group.best)) ?? new Set();
		const credit = live.filter((t) => !matched.includes(t) && held.has(t)).reduce((sum, t) => sum + weight(t), 0);
		const row = { ...group.best, score: own.get(group.best.fragmentId) ?? group.best.score };
		return {
			group: { ...group, best: row },
			matched,
			score: row.score - CONTEXT_WEIGHT * credit - bonus(row.fragmentId),
		};
	});
	return adjusted.sort((a, b) => a.score - b.score);
}

/** The plain terms as the relaxed tiers weigh them. */
interface RelaxedTerms {
	/** Each plain term's document frequency, counted up to DF_COUNT_CAP. */
	dfs: Map<SearchTerm, number>;
	/** The terms relaxed: those the index holds or that name a month, rarest first, at most MAX_RELAXED_TERMS. */
	live: SearchTerm[];
	/** The live terms the index holds. */
	indexed: SearchTerm[];
	/** A term's idf. */
	weight: (t: SearchTerm) => number;
}

/** Counts the plain terms' document frequencies and keeps the rarest as the terms to relax. */
function weighTerms(db: QueryDb, plain: readonly SearchTerm[]): RelaxedTerms {
	const maxId = get<{ n: number | null }>(db, "SELECT max(id) AS n FROM fragments")?.n ?? 0;
	const total = Math.max(1, Math.ceil(fragmentsInIds(maxId + 1)));
	const dfs = new Map(plain.map((term) => [term, documentFrequency(db, term)]));
	const idf = (df: number) => Math.log(1 + (total - df + 0.5) / (df + 0.5));
	// A month name no text holds still names the month of an event (context.ts).
	const live = plain
		.filter((term) => (dfs.get(term) ?? 0) > 0 || namesMonth(term))
		.sort((a, b) => idf(dfs.get(b) ?? 0) - idf(dfs.get(a) ?? 0))
		.slice(0, MAX_RELAXED_TERMS);
	const indexed = live.filter((term) => (dfs.get(term) ?? 0) > 0);
	return { dfs, live, indexed, weight: (t) => idf(dfs.get(t) ?? 0) };
}

/**
 * One candidate list: its MATCH expressions, the terms they come from (`typed`: one typed as a phrase is ranked in
 * one pass), and which list it is (`term`: undefined for the OR of the terms, the term's index in `live` for a term
 * alone, -1 for the phrases alone).
 */
interface CandidateQuery {
	matches: string[];
	typed: readonly SearchTerm[];
	limit: number;
	term?: number;
	presence?: PresenceScoring;
	/** The list's terms match at most the ranked window's cap (candidates.ts, fewMatches). */
	fewMatches?: boolean;
}

/** The candidate lists in the order they are read: the OR of the terms, each rare term alone, the phrases alone. */
function candidateQueries(
	phrases: readonly SearchTerm[],
	{ dfs, live, indexed }: RelaxedTerms,
	walks: PhraseWalks,
): CandidateQuery[] {
	const required = phrases.map((t) => t.match);
	const queries: CandidateQuery[] = [];
	if (indexed.length > 0) {
		queries.push({
			matches: [...required, `(${indexed.map((t) => t.match).join(" OR ")})`],
			typed: [...phrases, ...indexed],
			limit: OR_CANDIDATES,
			presence: orScoring(indexed, dfs, required, walks),
		});
	}
	// A rare term alone: its events are found however common the others are. A common term's own list would
	// only repeat the OR's newest window, and its df probe already walked that far.
	live.forEach((term, i) => {
		const df = dfs.get(term) ?? 0;
		if (indexed.length > 1 && df > 0 && df < DF_COUNT_CAP)
			queries.push({
				matches: [...required, term.match],
				typed: [...phrases, term],
				limit: TERM_CANDIDATES,
				term: i,
				fewMatches: df <= MAX_RANKED_MATCHES,
			});
	});
	// The phrases alone: events that have them but none of the other terms still fill the page.
	if (required.length > 0) queries.push({ matches: required, typed: phrases, limit: TERM_CANDIDATES, term: -1 });
	return queries;
}

/**
 * A candidate fragment: its bm25 against the OR (exact where the OR list had it), the per-term scores it summed
 * otherwise (bm25 adds up per matched term, so that sum is the OR score less the commoner terms it missed), and the
 * terms whose lists held it.
 */
interface Candidate {
	row: CandidateRow;
	or?: number;
	sum: number;
	terms: Set<number>;
}

/** Reads the candidate lists and merges their rows per fragment; `capped` when some list hit its ranked-match cap. */
function gatherCandidates(
	db: QueryDb,
	plan: SearchPlan,
	queries: readonly CandidateQuery[],
	log?: (message: string) => void,
): { found: Map<number, Candidate>; capped: boolean } {
	const found = new Map<number, Candidate>();
	// A fragment several lists rank is joined once.
	const joined: JoinedRows = new Map();
	let capped = false;
	for (const { matches, typed, limit, term, presence, fewMatches } of queries) {
		const typedPhrase = typed.some(typedAsPhrase);
		const list = findCandidates(db, plan, matches, { limit, presence, typedPhrase, fewMatches, joined, log });
		if (list.capped) capped = true;
		for (const row of list.rows) {
			const entry = found.get(row.fragmentId) ?? { row, sum: 0, terms: new Set<number>() };
			if (term === undefined) entry.or = row.score;
			else if (term >= 0) {
				entry.sum += row.score;
				entry.terms.add(term);
			}
			found.set(row.fragmentId, entry);
		}
	}
	return { found, capped };
}

/** The candidates scored for choosing the events whose context is read. */
interface ScoredCandidates {
	/** Each candidate's row, its score counting its session facts. */
	scored: CandidateRow[];
	/** Each fragment's own score (by fragment id), without its session facts. */
	own: Map<number, number>;
	/** Per event key: the live terms (by index) whose own lists held one of its fragments. */
	listedOf: Map<string, Set<number>>;
}

/** Scores each candidate by its own bm25, less part of the weight of each term only its session names. */
function scoreCandidates(
	found: ReadonlyMap<number, Candidate>,
	{ live, weight }: RelaxedTerms,
	factor: (row: CandidateRow) => number,
): ScoredCandidates {
	const listedOf = new Map<string, Set<number>>();
	const own = new Map<number, number>();
	const factsOf = sessionFacts(live);
	const scored = [...found.values()].map(({ row, or, sum, terms }) => {
		const key = eventKey(row);
		listedOf.set(key, new Set([...(listedOf.get(key) ?? []), ...terms]));
		const score = (or ?? (terms.size > 0 ? sum : row.score)) * factor(row);
		own.set(row.fragmentId, score);
		// The events whose context is read are chosen with their session facts counted (free: on the row), so
		// an event that only its session names the topic of is not cut before its context is seen.
		const facts = [...factsOf(row)].filter((t) => !terms.has(live.indexOf(t)));
		return { ...row, score: score - CONTEXT_WEIGHT * facts.reduce((n, t) => n + weight(t), 0) };
	});
	return { scored, own, listedOf };
}

/** The first `count` events of the sorted candidates (coalesce.ts), none of them in `exclude`. */
function firstEvents(
	db: QueryDb,
	scored: CandidateRow[],
	tokens: string[][],
	otherIds: number,
	exclude: ReadonlySet<string>,
	count: number,
	openings: Openings,
): EventGroup[] {
	const seen = new Set(exclude);
	const events: EventGroup[] = [];
	for (const group of coalesce(db, scored, tokens, otherIds, openings)) {
		if (events.length >= count) break;
		const key = eventKey(group.best);
		if (seen.has(key)) continue;
		seen.add(key);
		events.push(group);
	}
	return events;
}

/**
 * Adds to `events` the events of the wanted kind in the best tasks (task-evidence.ts), and gives those already there
 * their task's share when it beats their own score (`own`, by fragment: updated).
 */
function liftByTasks(
	db: QueryDb,
	plan: SearchPlan,
	scored: readonly CandidateRow[],
	events: EventGroup[],
	own: Map<number, number>,
	exclude: ReadonlySet<string>,
): void {
	const lifted = liftedByTasks(db, plan, scored, exclude);
	const byKey = new Map(events.map((g) => [eventKey(g.best), g]));
	for (const row of lifted) {
		const group = byKey.get(eventKey(row));
		const byTask = row.taskRequestId ? { taskRequestId: row.taskRequestId } : {};
		if (group === undefined) events.push({ best: row, count: 1, others: [], ...byTask });
		else Object.assign(group, byTask);
		const id = group?.best.fragmentId ?? row.fragmentId;
		own.set(id, Math.min(own.get(id) ?? 0, row.score));
	}
}

/**
 * Pairs each event with the live terms its best fragment contains (presentTerms); the heads not among `openings`
 * are read in one statement.
 */
function withMatchedTerms(
	db: QueryDb,
	events: readonly EventGroup[],
	live: readonly SearchTerm[],
	listedOf: ReadonlyMap<string, Set<number>>,
	{ walks, openings }: { walks: PhraseWalks; openings: Openings },
): Array<{ group: EventGroup; matched: SearchTerm[] }> {
	const listed = events.map((group) => listedOf.get(eventKey(group.best)) ?? new Set<number>());
	const unread = events.filter((_, i) => live.some((_, t) => !listed[i].has(t))).map((g) => g.best.fragmentId);
	const heads = fragmentOpenings(db, unread, PRESENCE_SCAN_CHARS, openings);
	return events.map((group, i) => ({
		group,
		matched: presentTerms(db, group.best, live, listed[i], { head: heads.get(group.best.fragmentId) ?? "", walks }),
	}));
}

/**
 * Events that match only some of the plain terms, best coverage first, at most `need`, none of them in `exclude`
 * (event keys already shown). Empty when the query has nothing to relax.
 */
export function relaxedTiers(
	db: QueryDb,
	plan: SearchPlan,
	need: number,
	exclude: ReadonlySet<string>,
	otherIds: number,
	log?: (message: string) => void,
): RelaxedResult {
	const phrases = plan.terms.filter((t) => t.quoted);
	const plain = plan.terms.filter((t) => !t.quoted);
	const none: RelaxedResult = { groups: [], capped: false };
	if (need <= 0 || plain.length === 0 || (plain.length === 1 && phrases.length === 0)) return none;
	const terms = weighTerms(db, plain);
	const { live, weight } = terms;
	if (terms.indexed.length === 0 && phrases.length === 0) return none;

	const walks = new PhraseWalks();
	const { found, capped } = gatherCandidates(db, plan, candidateQueries(phrases, terms, walks), log);
	if (found.size === 0) return { groups: [], capped };
	const { scored, own, listedOf } = scoreCandidates(found, terms, intentFactor(plan.wants));
	const answerBonus = ANSWER_WEIGHT * Math.max(0, ...live.map(weight));
	const answering = sortWithAnswers(db, plan, scored, answerBonus);
	const tokens = [...phrases, ...live].map((t) => t.tokens);
	const openings: Openings = { chars: PRESENCE_SCAN_CHARS, texts: new Map() };
	const events = firstEvents(db, scored, tokens, otherIds, exclude, Math.max(need, CONTEXT_GROUPS), openings);
	liftByTasks(db, plan, scored, events, own, exclude);
	const best = withMatchedTerms(db, events, live, listedOf, { walks, openings });
	const adjusted = rerank(db, best, live, weight, own, (id) => (answering.has(id) ? answerBonus : 0));
	const sum = (list: readonly SearchTerm[]) => list.reduce((n, t) => n + weight(t), 0);
	const held = phrases.length * Math.max(0, ...plain.map(weight));
	const whole = held + sum(plain) || 1;
	const groups = adjusted.slice(0, need).map(({ group, matched }) => ({
		...group,
		matched,
		missing: plain.filter((t) => !matched.includes(t)),
		coverage: (held + sum(matched)) / whole,
	}));
	return { groups, capped };
}
