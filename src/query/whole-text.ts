/**
 * A fragment's whole text. The index keeps the first STORED_HEAD_CHARS code points of each fragment
 * (store/fragment-text.ts); the rest of a longer one is read again from its session file, and used only when the
 * line's hash and the fragment's length and head are what was indexed.
 */
import { readFragmentTexts } from "../store/event-line.js";
import { decodeFragmentText, isWholeText, type StoredFragmentText } from "../store/fragment-text.js";
import { codePointLength } from "../text/code-points.js";
import { get, type QueryDb } from "./db.js";

/** A fragment's text as far as it can be had: `whole` false means only the stored head could be read. */
export interface FragmentText {
	text: string;
	whole: boolean;
}

/** What a stored fragment row carries about its text. */
export interface StoredText {
	id: number;
	text: StoredFragmentText;
	charCount: number;
}

const LINE_SQL = `SELECT s.path AS path, e.byte_start AS byteStart, e.byte_end AS byteEnd, e.line_hash AS lineHash,
		e.entry_type AS entryType, f.ord AS ord
	FROM fragments f
	JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
	JOIN sources s ON s.id = f.source_id
	WHERE f.id = ?`;

/** The whole text of a stored fragment, read from its session file when the index holds only its head. */
export function wholeText(db: QueryDb, row: StoredText): FragmentText {
	const head = decodeFragmentText(row.text);
	if (isWholeText(head, row.charCount)) return { text: head, whole: true };
	const line = get<{
		path: string;
		byteStart: number;
		byteEnd: number;
		lineHash: Uint8Array | null;
		entryType: string;
		ord: number;
	}>(db, LINE_SQL, [row.id]);
	const text = line === undefined ? undefined : readFragmentTexts(line)?.[line.ord];
	if (text?.startsWith(head) && codePointLength(text) === row.charCount) {
		return { text, whole: true };
	}
	return { text: head, whole: false };
}
