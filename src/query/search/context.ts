/**
 * Conversation context for the relaxed tier: a question's words are often spread over a conversation rather than
 * in the one turn that answers it ("what batch size did we pick for backfilling" → "Batches of 10k rows please",
 * said in reply to a turn about the backfill). A term the event lacks counts for part of its weight when the
 * conversation around it has it: the turns and tool calls just before and after, the session's opening request and
 * name, its workspace, or the month the event happened in ("what did Caroline paint in May"). Bounded: a few short
 * texts per event, for the best CONTEXT_GROUPS events only; presence is decided in JavaScript (term-presence.ts).
 */
import { codeSql, inCodesSql } from "../../store/column-codes.js";
import { decodeFragmentPrefix, type StoredFragmentText } from "../../store/fragment-text.js";
import { textDictionaryOf } from "../../store/text-dictionary.js";
import { STORED_HEAD_CHARS } from "../../text/stored-head.js";
import { containsAnyForm, indexTokens } from "../../text/term-presence.js";
import { all, type QueryDb } from "../db.js";
import type { CandidateRow } from "./candidates.js";
import { eventKey } from "./coalesce.js";
import type { SearchTerm } from "./terms.js";

/** Characters read of each context text (its stored head): a turn's opening says what it is about. */
const CONTEXT_CHARS = STORED_HEAD_CHARS;

/** Turns read on each side of the event. */
const NEIGHBOUR_TURNS = 1;

/**
 * What was said and what was run: a tool call names what the output next to it is (`read pnpm-workspace.yaml`,
 * `psql … revenue_daily`). A tool output next to an event is not what a question refers to.
 */
const TURN_KINDS = ["user_text", "assistant_text", "tool_call", "bash_command"];

const MONTHS = [
	["january", "jan"],
	["february", "feb"],
	["march", "mar"],
	["april", "apr"],
	["may"],
	["june", "jun"],
	["july", "jul"],
	["august", "aug"],
	["september", "sep", "sept"],
	["october", "oct"],
	["november", "nov"],
	["december", "dec"],
];

/** The month names (and abbreviations) of an ISO timestamp, as folded tokens. */
function monthTokens(timestamp: string): string[][] {
	const month = Number(timestamp.slice(5, 7));
	return (MONTHS[month - 1] ?? []).map((m) => [m]);
}

const MONTH_TOKENS = MONTHS.flat().map((m) => [m]);

/** True when the term names a month: the event's timestamp can hold it even when no text does. */
export function namesMonth(term: SearchTerm): boolean {
	return term.forms.some((f) => f.length === 1 && containsAnyForm(f, MONTH_TOKENS));
}

/** Which of `terms` hold in `tokens` (context text) or name the month of `timestamp`. */
function heldTerms(tokens: readonly string[], timestamp: string, terms: readonly SearchTerm[]): Set<SearchTerm> {
	const months = monthTokens(timestamp);
	return new Set(
		terms.filter(
			(t) => containsAnyForm(tokens, t.forms) || t.forms.some((f) => f.length === 1 && containsAnyForm(f, months)),
		),
	);
}

/**
 * Which of `terms` each row's session facts hold: its name, its workspace path and its month. They are on the row
 * already, so this costs no read and can rank every candidate, not only the best CONTEXT_GROUPS. Computed once per
 * session and month.
 */
export function sessionFacts(terms: readonly SearchTerm[]): (row: CandidateRow) => Set<SearchTerm> {
	const known = new Map<string, Set<SearchTerm>>();
	return (row) => {
		const key = `${row.sourceId}:${row.timestamp.slice(0, 7)}`;
		let held = known.get(key);
		if (held === undefined) {
			held = heldTerms(indexTokens(`${row.sessionName ?? ""}\n${row.cwd}`), row.timestamp, terms);
			known.set(key, held);
		}
		return held;
	};
}

/** Which of `terms` the context of each row's event holds, by event key. */
export function contextTerms(
	db: QueryDb,
	rows: readonly CandidateRow[],
	terms: readonly SearchTerm[],
): Map<string, Set<SearchTerm>> {
	const out = new Map<string, Set<SearchTerm>>();
	if (rows.length === 0 || terms.length === 0) return out;
	const texts = contextTexts(db, rows);
	for (const row of rows) {
		const tokens = indexTokens([...(texts.get(eventKey(row)) ?? []), row.sessionName ?? "", row.cwd].join("\n"));
		out.set(eventKey(row), heldTerms(tokens, row.timestamp, terms));
	}
	return out;
}

/** Texts around each row's event: neighbouring turns and the session's first user turn, keyed by event key. */
function contextTexts(db: QueryDb, rows: readonly CandidateRow[]): Map<string, string[]> {
	const wanted = rows.map((r) => [r.sourceId, r.seq]);
	const found = all<{ sourceId: number; seq: number; text: StoredFragmentText }>(
		db,
		`SELECT w.value ->> 0 AS sourceId, w.value ->> 1 AS seq, f.text AS text
		FROM json_each(?) w
		CROSS JOIN fragments f ON f.source_id = w.value ->> 0
			AND f.event_seq BETWEEN (w.value ->> 1) - ? AND (w.value ->> 1) + ?
			AND f.event_seq <> w.value ->> 1
		WHERE ${inCodesSql("kind", "f.kind", TURN_KINDS)}
		UNION ALL
		SELECT w.value ->> 0, w.value ->> 1, (SELECT f.text FROM fragments f
			WHERE f.source_id = w.value ->> 0 AND f.kind = ${codeSql("kind", "user_text")} ORDER BY f.event_seq LIMIT 1)
		FROM json_each(?) w`,
		[JSON.stringify(wanted), NEIGHBOUR_TURNS, NEIGHBOUR_TURNS, JSON.stringify(wanted)],
	);
	const texts = new Map<string, string[]>();
	for (const r of found) {
		if (r.text === null) continue;
		const key = eventKey({ sourceId: r.sourceId, seq: r.seq });
		texts.set(key, [...(texts.get(key) ?? []), decodeFragmentPrefix(r.text, CONTEXT_CHARS, textDictionaryOf(db))]);
	}
	return texts;
}
