/**
 * A fragment's whole text in the query services. The index keeps the first STORED_HEAD_CHARS code points of each
 * fragment (store/fragment-text.ts); the rest of a longer one is read again from its session file
 * (session-file/event-line.ts, `wholeFragmentText`).
 */

import { type EventLine, type FragmentText, readFragmentTexts, wholeFragmentText } from "../session-file/event-line.js";
import { decodedSql } from "../store/column-codes.js";
import { decodeFragmentText, type StoredFragmentText } from "../store/fragment-text.js";
import { textDictionaryOf } from "../store/text-dictionary.js";
import { redactSecrets } from "../text/redact.js";
import { get, type QueryDb } from "./db.js";

/** What a stored fragment row carries about its text. */
export interface StoredText {
	id: number;
	text: StoredFragmentText;
	charCount: number;
}

const LINE_SQL = `SELECT s.path AS path, e.byte_start AS byteStart, e.byte_end AS byteEnd, e.line_hash AS lineHash,
		${decodedSql("entryType", "e.entry_type")} AS entryType, f.ord AS ord
	FROM fragments f
	JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
	JOIN sources s ON s.id = f.source_id
	WHERE f.id = ?`;

/**
 * The whole text of a stored fragment, read from its session file when the index holds only its head (`head`: the
 * stored value already decoded, when the caller has it).
 */
export function wholeText(
	db: QueryDb,
	row: StoredText,
	head = decodeFragmentText(row.text, textDictionaryOf(db)),
): FragmentText {
	const found = wholeFragmentText(head, row.charCount, () => {
		const line = get<EventLine & { ord: number }>(db, LINE_SQL, [row.id]);
		return line === undefined ? undefined : readFragmentTexts(line)?.[line.ord];
	});
	// Masked again on the way out: a no-op on text indexed with redaction on, and the mask for text indexed while the
	// person had it off and has since turned it back on (docs/security-secrets-and-forget.md).
	return { ...found, text: redactSecrets(found.text) };
}
