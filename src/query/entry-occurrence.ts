/**
 * Entries that share an id in one session file. Pi's SessionManager indexes entries by id, the last one of an id
 * winning (for the tree, for a parent link, for navigation), while every one of them stays in the file and in the
 * index. So the plain id names the entry Pi resolves, the last of its id, and each earlier one is named by its
 * occurrence: `<id>~<n>`, n counting from 1 in file order. A hit, a read's metadata, a neighbour and a trace node all
 * name an entry this way, and read and trace resolve both forms, so every entry that shares an id is addressable.
 * A literal id that equals another entry's occurrence name is found as itself (an exact id always wins).
 */
import { get, type QueryDb } from "./db.js";

/** Separates an entry id from its occurrence number in the name of an entry another of its id shadows. */
const OCCURRENCE_MARK = "~";

/** An entry as it is named: the plain id (`n` undefined) or the n-th of its id in file order. */
export interface EntryName {
	entryId: string;
	n?: number;
}

/** The name the caller gave, split: `a1b2~2` is the second entry with id `a1b2`; anything else is a plain id. */
export function parseEntryName(name: string): EntryName {
	const mark = name.lastIndexOf(OCCURRENCE_MARK);
	if (mark <= 0) return { entryId: name };
	const digits = name.slice(mark + 1);
	const n = /^[1-9][0-9]{0,8}$/.test(digits) ? Number(digits) : undefined;
	return n === undefined ? { entryId: name } : { entryId: name.slice(0, mark), n };
}

/** The public name of the event at `seq` with `entryId`: its id, qualified when a later entry of its id shadows it. */
export function entryName(db: QueryDb, e: { sourceId: number; seq: number; entryId: string }): string {
	const row = get<{ before: number; later: number }>(
		db,
		`SELECT (SELECT count(*) FROM events INDEXED BY events_entry WHERE source_id = ? AND entry_id = ? AND seq < ?) AS before,
			EXISTS (SELECT 1 FROM events INDEXED BY events_entry WHERE source_id = ? AND entry_id = ? AND seq > ?) AS later`,
		[e.sourceId, e.entryId, e.seq, e.sourceId, e.entryId, e.seq],
	);
	return row?.later ? `${e.entryId}${OCCURRENCE_MARK}${row.before + 1}` : e.entryId;
}

/** True when a later entry of the same source has this entry's id: Pi's tree has that one, and none of its children. */
export function isShadowed(db: QueryDb, e: { sourceId: number; seq: number; entryId: string }): boolean {
	return entryName(db, e) !== e.entryId;
}

/**
 * The seq of the event `name` names in a source: an exact id is the last entry of that id (Pi's); `<id>~<n>` the
 * n-th of that id in file order. Undefined when there is none.
 */
export function entrySeq(db: QueryDb, sourceId: number, name: string): number | undefined {
	const last = get<{ seq: number }>(
		db,
		"SELECT seq FROM events INDEXED BY events_entry WHERE source_id = ? AND entry_id = ? ORDER BY seq DESC LIMIT 1",
		[sourceId, name],
	);
	if (last !== undefined) return last.seq;
	const parsed = parseEntryName(name);
	if (parsed.n === undefined) return undefined;
	return get<{ seq: number }>(
		db,
		"SELECT seq FROM events INDEXED BY events_entry WHERE source_id = ? AND entry_id = ? ORDER BY seq LIMIT 1 OFFSET ?",
		[sourceId, parsed.entryId, parsed.n - 1],
	)?.seq;
}
