/**
 * Stage 3: rank candidate fragments (proximity over a bounded prefix, rank.ts) and coalesce them into one group per
 * event, best first; then fold verbatim `--fork` copies into the event of the original session.
 */
import { decodeFragmentPrefix, type StoredFragmentText } from "../../store/fragment-text.js";
import { textDictionaryOf } from "../../store/text-dictionary.js";
import { all, type QueryDb } from "../db.js";
import { namesAsParent, shareParent } from "../forks.js";
import { proximityTargets, RERANK_FRAGMENT_CHARS, rankCandidates } from "../rank.js";
import { SOURCE_COLUMNS, type SourceLite } from "../rows.js";
import type { CandidateRow } from "./candidates.js";

/** The matching fragments of one event, best first. */
export interface EventGroup {
	best: CandidateRow;
	count: number;
	/** Ords of the other matching fragments of the event (bounded); hits.ts names them. */
	others: number[];
	/** The same event copied into forked sessions, folded into this one: the copies' best rows. */
	forkCopies?: CandidateRow[];
	/** Brought forward by its task's evidence (task-evidence.ts): the entry id of the task's request. */
	taskRequestId?: string;
}

/** The identity of an event across tiers: (source, seq). */
export function eventKey(row: Pick<CandidateRow, "sourceId" | "seq">): string {
	return `${row.sourceId}:${row.seq}`;
}

/** The events `groups` show: each group's own and the fork copies folded into it (no later tier shows them again). */
export function shownKeys(groups: readonly EventGroup[]): Set<string> {
	return new Set(groups.flatMap((g) => [g.best, ...(g.forkCopies ?? [])].map(eventKey)));
}

/** Openings already read in one search (the first `chars` characters of each, by fragment id): none is read twice. */
export interface Openings {
	chars: number;
	texts: Map<number, string>;
}

/**
 * The first `chars` characters of each fragment's text, by fragment id (a plain text is cut in SQL); those `known`
 * holds are not read again, and those read are added to it.
 */
export function fragmentOpenings(
	db: QueryDb,
	ids: readonly number[],
	chars: number,
	known?: Openings,
): Map<number, string> {
	const memo = known?.chars === chars ? known.texts : new Map<number, string>();
	const missing = ids.filter((id) => !memo.has(id));
	if (missing.length > 0) {
		const rows = all<{ id: number; text: StoredFragmentText }>(
			db,
			`SELECT id, CASE WHEN typeof(text) = 'text' THEN substr(text, 1, ?) ELSE text END AS text
			FROM fragments WHERE id IN (SELECT value FROM json_each(?))`,
			[chars, JSON.stringify(missing)],
		);
		const dictionary = textDictionaryOf(db);
		for (const r of rows) memo.set(r.id, decodeFragmentPrefix(r.text, chars, dictionary));
	}
	const out = new Map<number, string>();
	for (const id of ids) {
		const text = memo.get(id);
		if (text !== undefined) out.set(id, text);
	}
	return out;
}

/**
 * Rank `rows` for the query's phrases and group them per event; `otherIds` bounds the other fragment ids kept. The
 * openings read for proximity are kept in `openings`, when given.
 */
export function coalesce(
	db: QueryDb,
	rows: CandidateRow[],
	phrases: string[][],
	otherIds: number,
	openings?: Openings,
): EventGroup[] {
	// Proximity needs text: read it for a bounded prefix of the candidates only.
	const targets = proximityTargets(rows, phrases.length);
	const texts =
		targets.length > 0 ? fragmentOpenings(db, targets, RERANK_FRAGMENT_CHARS, openings) : new Map<number, string>();
	const groups = new Map<string, EventGroup>();
	for (const row of rankCandidates(rows, phrases, texts)) {
		const key = eventKey(row);
		const group = groups.get(key);
		if (group === undefined) groups.set(key, { best: row, count: 1, others: [] });
		else {
			group.count++;
			if (group.others.length < otherIds) group.others.push(row.ord);
		}
	}
	return [...groups.values()];
}

/**
 * Fold fork copies: Pi's `--fork` copies entries verbatim (same entry id, same text) into a child session whose
 * header names the parent. When both copies matched, the child's is dropped from the list and named in the
 * original's `forkCopies` (it stays readable by its own identity). Two forks of one parent (the parent deleted or
 * not visible) fold into the earlier fork the same way. Different sessions sharing an entry id by
 * chance (v1 ids) are left alone: the child must name the other as an ancestor and the matched text must agree.
 * Only the first `window` groups are compared.
 */
export function foldForkCopies<G extends EventGroup>(db: QueryDb, ranked: G[], window: number): G[] {
	// Only the groups that can reach the page are compared (bounded work); copies rank next to their original.
	const groups = ranked.slice(0, window);
	const rest = ranked.slice(window);
	const byEntry = new Map<string, G[]>();
	for (const g of groups) byEntry.set(g.best.entryId, [...(byEntry.get(g.best.entryId) ?? []), g]);
	const shared = [...byEntry.values()].filter((gs) => new Set(gs.map((g) => g.best.sourceId)).size > 1);
	if (shared.length === 0) return ranked;
	const ids = [...new Set(shared.flat().map((g) => g.best.sourceId))];
	const sources = new Map(
		all<SourceLite>(db, `SELECT ${SOURCE_COLUMNS} FROM sources s WHERE s.id IN (SELECT value FROM json_each(?))`, [
			JSON.stringify(ids),
		]).map((s) => [s.id, s]),
	);
	/** The source `child` names as its parent, if it is among the sources at hand (its recorded file first). */
	const parentOf = (child: SourceLite) => {
		const named = [...sources.values()].filter((s) => s.id !== child.id && namesAsParent(child, s));
		return named.find((s) => s.path === child.parentSessionPath) ?? named[0];
	};
	/** Two forks of one parent (that may itself be gone): the earlier session holds the copy. */
	const earlierSibling = (a: SourceLite, b: SourceLite) =>
		shareParent(a, b) &&
		((a.headerTimestamp ?? "") < (b.headerTimestamp ?? "") || (a.headerTimestamp === b.headerTimestamp && a.id < b.id));
	const isAncestor = (a: SourceLite, b: SourceLite) => {
		let cur: SourceLite | undefined = b;
		for (let depth = 0; cur && depth < 16; depth++) {
			cur = parentOf(cur);
			if (cur?.id === a.id) return true;
		}
		return false;
	};
	const sameText = (a: CandidateRow, b: CandidateRow) =>
		a.score === b.score &&
		all<{ same: number }>(
			db,
			"SELECT (SELECT text FROM fragments WHERE id = ?) = (SELECT text FROM fragments WHERE id = ?) AS same",
			[a.fragmentId, b.fragmentId],
		)[0]?.same === 1;
	const dropped = new Set<G>();
	for (const gs of shared) {
		for (const original of gs) {
			if (dropped.has(original)) continue;
			const o = sources.get(original.best.sourceId);
			if (!o) continue;
			for (const copy of gs) {
				const c = sources.get(copy.best.sourceId);
				if (copy === original || dropped.has(copy) || !c || !(isAncestor(o, c) || earlierSibling(o, c))) continue;
				if (!sameText(original.best, copy.best)) continue;
				dropped.add(copy);
				// A copy that had folded copies of its own hands them on.
				original.forkCopies = [...(original.forkCopies ?? []), copy.best, ...(copy.forkCopies ?? [])];
			}
		}
	}
	return [...groups.filter((g) => !dropped.has(g)), ...rest];
}
