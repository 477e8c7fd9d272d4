/**
 * The index format: what the parser, projector and tokenizer derive from a JSONL line. Bump it whenever a code
 * change would index the same bytes differently (new fragment kinds, search-text transform, tree-state rules).
 *
 * The format is part of the pointer file name (`current-f<FORMAT>.json`) and of every generation file name, so two
 * versions of the extension with different formats each keep their own index side by side in one directory and
 * never rebuild each other's index back and forth. A store whose `meta.format` disagrees with the pointer it was
 * found under is rebuilt as a new generation.
 *
 * 2: fragments_fts carries rank columns and filter tags (search), every event row its line's xxHash64
 * (`line_hash`, compared by `verify`), and long fragment text is stored compressed (fragment-text.ts).
 * 3: leaner rows (migration 0006): the FTS tags in column 0, and a tool result's tool name and call id only on its
 * event.
 * 4: two FTS columns (migration 0007): all text in column 0, the tags in column 1; a fragment's rank weight class is
 * its id modulo ID_STRIDE (fragment-ids.ts) instead of the column its text is in.
 * 5: coded columns and events without rowid (migration 0008): entry types, roles, tree states and fragment kinds
 * stored as small integers, timestamps as epoch ms (column-codes.ts).
 * 6: attribute objects shared by many events stored once (migration 0009, attribute-sets.ts); stored heads of 1,000
 * code points instead of 2,000 (fragment-text.ts).
 * 7: no entry-type or role tags (the kind implies them: KIND_ORIGINS), one tag for the pair of tree states, and no
 * call-id indexes (migration 0010; traces walk the session).
 * 8: stored texts packed against a dictionary sampled from the corpus (lz-dict.ts, text-dictionary.ts) instead of
 * brotli for long texts only.
 * 9: a long text is several fragments of at most `PIECE_UNITS` UTF-16 units each (text-pieces.ts).
 * 10: the full-text index in a file of its own beside the store file (migration 0012, db.ts FTS_FILE_SUFFIX), so a
 * two-thread pass writes it from a third thread.
 * 11: Pi 1.x sessions (parse/conversation.ts): system messages are never indexed, an attempt a `context_edit`
 * omits is `not-selected`, system messages a compaction keeps are `summarized`; `context_edit` and `usage` have codes.
 * 12: path tags (fragment-tags.ts `pathTags`) for the `paths` search filter, a tool call's own paths on its fragment
 * (migration 0013) and a tool result's files taken from its call; secrets masked in fragment texts and attributes
 * (text/redact.ts), so an index that holds them is rebuilt.
 * 13: the parts of camelCase identifiers appended to a fragment's search text, except raw tool and bash output
 * (search-text.ts identifierParts).
 */
export const INDEX_FORMAT = 13;

/** Pointer file naming the current generation of format `format`. */
export function pointerFileName(format: number = INDEX_FORMAT): string {
	return `current-f${format}.json`;
}

/**
 * Name of the heavy-work lock `base` (catch-up, rebuild) for index format `format`. Each format fills its own
 * generation, so neither may wait for, or skip its work because of, another format's: an older install of the
 * package still running beside this one (which names its lock `base` alone, as every format before 10 did) would
 * otherwise starve this format's catch-up for as long as it runs.
 */
export function formatLockName(base: string, format: number = INDEX_FORMAT): string {
	return `${base}-f${format}`;
}

/** Generation file name for `generation` of format `format`. */
export function generationFileName(generation: string, format: number = INDEX_FORMAT): string {
	return `index-f${format}-${generation}.sqlite`;
}

/** Matches generation files of `format`, capturing the generation id. */
export function generationFilePattern(format: number = INDEX_FORMAT): RegExp {
	return new RegExp(`^index-f${format}-([0-9a-z-]+)\\.sqlite$`);
}
