/** Shapes produced by the session-file parser (pure; no I/O). */

/** The first line of a session file. v1 headers have no `version`. */
export interface SessionHeader {
	id: string;
	/** 1 when the header has no version field. */
	version: number;
	timestamp: string;
	cwd: string;
	parentSession?: string;
	/** Legacy v1 fields, kept for metadata only. */
	branchedFrom?: string;
}

/** A JSON line that did not become an entry, with where it was. */
export interface SkipReceipt {
	/** 1-based line number in the file. */
	lineNo: number;
	byteStart: number;
	/** Exclusive, including the line's `\n`. */
	byteEnd: number;
	reason: string;
}

/**
 * One persisted entry (every non-header line that parsed), normalized so v1/v2/v3 look alike.
 * `raw` is the parsed JSON object; projection reads the typed fields below first.
 */
export interface ParsedEntry {
	/** Position among entries in file order, 0-based, header excluded. Stable across appends. */
	seq: number;
	lineNo: number;
	byteStart: number;
	byteEnd: number;
	/** Real id for v2/v3; derived (`v1-<ordinal>`) for v1 lines. */
	id: string;
	parentId: string | null;
	type: string;
	timestamp: string;
	raw: Record<string, unknown>;
	/** Set on a long line read without holding it whole: its long string values are markers in `raw` (LongValues). */
	longValues?: LongValues;
}

/**
 * State carried between chunks of one file, so a file can be parsed incrementally from a checkpoint.
 * Stored in the checkpoint as JSON.
 */
export interface ParseState {
	/** Byte offset of the next unparsed byte (just past the last complete line). */
	byteOffset: number;
	/** Number of lines consumed so far (blank and bad lines included). */
	lineCount: number;
	/** Number of entries emitted so far (the next entry's `seq`). */
	entryCount: number;
	/** Pi's entry ordinal for v1 (header = 0, every parsed JSON object counts). */
	v1Ordinal: number;
	/** v1: id of the previous entry, which is the next entry's parent. */
	v1PrevId: string | null;
	header?: SessionHeader;
	/**
	 * Version of the header once seen (1 when it has none). Enough on its own to resume without `header`
	 * (the store keeps the header in columns), so it is carried separately.
	 */
	sessionVersion?: number;
	/** The first JSON line was not a session header: the file is not a Pi session and yields no entries. */
	noHeader?: boolean;
	/** v1: ordinals of repeated session-header lines (the header is 0); `firstKeptEntryIndex` never resolves to them. */
	v1SessionOrdinals?: number[];
	/**
	 * Set while skipping an oversized line whose `\n` has not arrived yet: the line's start offset.
	 * `byteOffset` then lies inside that line, so a caller can feed fixed-size chunks without buffering it.
	 */
	skipLineStart?: number;
}

/** Options of `parseChunk`. */
export interface ParseOptions {
	/** Lines longer than this (bytes, without the `\n`) are skipped with a receipt, unparsed. Default 8 MiB. */
	maxLineBytes?: number;
	/**
	 * Only the tree skeleton is wanted (id, parentId, type): a message line whose head is exactly what Pi writes
	 * (v2+: `{"type":"message","id":…,"parentId":…`; v1: `{"type":"message",`, its id derived from its ordinal) is
	 * taken from that head, unparsed, with an empty `raw`.
	 * A damaged line with an intact head then counts as an entry; every other line is parsed in full.
	 */
	skeleton?: boolean;
}

export interface ParseChunkResult {
	entries: ParsedEntry[];
	receipts: SkipReceipt[];
	/** Header seen in this chunk (first header line only; repeated headers yield receipts). */
	header?: SessionHeader;
	state: ParseState;
}

/**
 * The long string values of a line read without holding it whole: in its parsed entry each is a marker string, and a
 * text holding markers is read part by part (ingest/long-values.ts).
 */
export interface LongValues {
	/** True when `text` holds a marker (a marker anywhere but in a fragment's text means: parse the line whole). */
	holds(text: string): boolean;
	/** The parts `text` joins into once each marker is its value, read again from the file on every call. */
	parts(text: string): Iterable<string>;
}
