/**
 * Columns whose values come from a small known set are stored as small integers: the value's position in its list
 * below (SQLite stores 0 and 1 in no bytes and other small integers in one, against 6–18 bytes of text). The ONE
 * module that maps values to codes for inserts and bound parameters, and codes back to values in SQL (`decodedSql`),
 * so every query that selects such a column reads the same text it always did. Trade and numbers: docs/store.md,
 * "Coded columns".
 *
 * A value missing from its list (Pi may write an entry type or role this version does not know) is stored as its
 * text. The columns have INTEGER affinity, which would turn text that looks like a number into a number, that is into
 * another value's code, so such text is stored as a BLOB instead. The lists are part of the index format
 * (src/store/format.ts): reordering or removing a value needs a new format; appending one does too, since rows of the
 * old format hold that value as text.
 */
import { BRANCH_STATES, ENTRY_TYPES, MESSAGE_ROLES, SELECTION_STATES, SEMANTIC_KINDS } from "../contract.js";

/** The coded columns: the values of each, in code order. */
export const CODED_COLUMNS = {
	/** events.entry_type */
	entryType: ENTRY_TYPES,
	/** events.role */
	role: MESSAGE_ROLES,
	/** events.branch_state */
	branchState: BRANCH_STATES,
	/** events.selection_state */
	selectionState: SELECTION_STATES,
	/** fragments.kind */
	kind: SEMANTIC_KINDS,
} as const satisfies Record<string, readonly string[]>;

/** A coded column, by its row-field name. */
export type CodedColumn = keyof typeof CODED_COLUMNS;

/** A coded column's stored value: a code, unknown text, or unknown numeric-looking text as UTF-8 bytes. */
export type StoredCode = number | string | Uint8Array;

const codeMap = (values: readonly string[]) => new Map<string, number>(values.map((v, i) => [v, i]));
const CODE_OF: Record<CodedColumn, ReadonlyMap<string, number>> = {
	entryType: codeMap(CODED_COLUMNS.entryType),
	role: codeMap(CODED_COLUMNS.role),
	branchState: codeMap(CODED_COLUMNS.branchState),
	selectionState: codeMap(CODED_COLUMNS.selectionState),
	kind: codeMap(CODED_COLUMNS.kind),
};

/** True when SQLite's INTEGER affinity would store `text` as a number. */
function looksNumeric(text: string): boolean {
	return text.trim() !== "" && Number.isFinite(Number(text));
}

/** The value to store (or bind) for `value` of `column`. */
export function encodeCode(column: CodedColumn, value: string): StoredCode {
	const code = CODE_OF[column].get(value);
	if (code !== undefined) return code;
	return looksNumeric(value) ? Buffer.from(value, "utf8") : value;
}

/** encodeCode, keeping null. */
export function encodeNullableCode(column: CodedColumn, value: string | null | undefined): StoredCode | null {
	return value == null ? null : encodeCode(column, value);
}

/** The SQL literal of a known value's code, for conditions written into a statement (`e.role = ${codeSql(…)}`). */
export function codeSql(column: CodedColumn, value: (typeof CODED_COLUMNS)[CodedColumn][number]): string {
	const code = CODE_OF[column].get(value);
	if (code === undefined) throw new Error(`"${value}" has no code in ${column}`);
	return String(code);
}

/**
 * The SQL literal `value` of `column` is stored as: its code, or for a value without one (Pi 1.x's `system` role) its
 * text, quoted. Only for plain word values (letters, digits, `_`), which are stored as text.
 */
export function storedSql(column: CodedColumn, value: string): string {
	const code = CODE_OF[column].get(value);
	if (code !== undefined) return String(code);
	if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new Error(`"${value}" is no plain word of ${column}`);
	return `'${value}'`;
}

/** The text of a value stored in `column` (encodeCode's inverse; null stays null). */
export function decodeCode(column: CodedColumn, stored: StoredCode | null): string | null {
	if (stored === null || typeof stored === "string") return stored;
	if (typeof stored === "number") return CODED_COLUMNS[column][stored] ?? String(stored);
	return Buffer.from(stored).toString("utf8");
}

/** An SQL expression giving the text of the coded column `expr` (NULL stays NULL). */
export function decodedSql(column: CodedColumn, expr: string): string {
	const whens = CODED_COLUMNS[column].map((v, i) => `WHEN ${i} THEN '${v}'`).join(" ");
	return `CASE ${expr} ${whens} ELSE CAST(${expr} AS TEXT) END`;
}

/**
 * A column read through one JSON text (query/db.ts allViaJson): the SQL of its stored value and what makes that value
 * the row's. Decoding there instead of in a CASE per row saves about 0.7 µs a row of the candidate join.
 */
export interface JsonColumn {
	sql: string;
	decode(value: unknown): unknown;
}

/** A stored value JSON can carry: a blob (numeric-looking text kept as bytes) read as its text. */
function jsonSafeSql(expr: string): string {
	return `iif(typeof(${expr}) = 'blob', CAST(${expr} AS TEXT), ${expr})`;
}

/** The coded column `expr` read as JSON: decodedSql's text, decoded from the code by decodeCode. */
export function codedJsonColumn(column: CodedColumn, expr: string): JsonColumn {
	// JSON carries a code, a text (bytes were cast to it) or null: each a value decodeCode takes.
	return { sql: jsonSafeSql(expr), decode: (value) => decodeCode(column, value as number | string | null) };
}

/** An SQL condition: `expr` holds one of `values` (those this version has codes for; none known gives false). */
export function inCodesSql(column: CodedColumn, expr: string, values: readonly string[]): string {
	const codes = values.flatMap((v) => {
		const code = CODE_OF[column].get(v);
		return code === undefined ? [] : [code];
	});
	return codes.length === 0 ? "0" : `${expr} IN (${codes.join(", ")})`;
}

/** The one timestamp form stored as a number: Date#toISOString's for years 0000–9999 (what Pi writes). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The value to store for an entry's timestamp (events.timestamp, INTEGER affinity): epoch milliseconds when `text` is
 * exactly what toISOString gives for them (6 bytes instead of 24), otherwise the text as it was (bytes when it looks
 * numeric, as for codes).
 */
export function encodeTimestamp(text: string): StoredCode {
	const ms = isoInstantMs(text);
	if (ms !== undefined) return ms;
	return looksNumeric(text) ? Buffer.from(text, "utf8") : text;
}

/** The last day isoInstantMs met (`YYYY-MM-DD`) and its first instant, NaN when it is no calendar day. */
let lastDay = "";
let lastDayMs = Number.NaN;

/**
 * Epoch ms of `text` when toISOString gives exactly `text` for them, else undefined. A session's events share a few
 * days, so a day is checked through Date once and each instant is its day plus the time of day: a Date per event
 * (parse, then format to compare) was 3 % of a two-thread build's prefetch thread.
 */
function isoInstantMs(text: string): number | undefined {
	if (!ISO_INSTANT.test(text)) return undefined;
	const day = text.slice(0, 10);
	if (day !== lastDay) {
		lastDay = day;
		const ms = Date.parse(`${day}T00:00:00.000Z`);
		// A day past its month's end parses into the next month, or not at all.
		lastDayMs = !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(day) ? ms : Number.NaN;
	}
	if (Number.isNaN(lastDayMs)) return undefined;
	const hours = digits(text, 11, 2);
	const minutes = digits(text, 14, 2);
	const seconds = digits(text, 17, 2);
	if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
	return lastDayMs + ((hours * 60 + minutes) * 60 + seconds) * 1000 + digits(text, 20, 3);
}

/** The decimal number of `count` ASCII digits at `at` (ISO_INSTANT has checked they are digits). */
function digits(text: string, at: number, count: number): number {
	let n = 0;
	for (let i = at; i < at + count; i++) n = n * 10 + text.charCodeAt(i) - 48;
	return n;
}

/** An SQL expression giving the timestamp text of `expr` (strftime writes toISOString's form for years 0000–9999). */
export function decodedTimestampSql(expr: string): string {
	return `CASE WHEN typeof(${expr}) = 'integer' THEN strftime('%Y-%m-%dT%H:%M:%fZ', ${expr} / 1000.0, 'unixepoch')
		ELSE CAST(${expr} AS TEXT) END`;
}

/**
 * The timestamp `expr` read as JSON: decodedTimestampSql's text. A stored number is epoch ms that encodeTimestamp took
 * from exactly toISOString's text, so toISOString gives that text back.
 */
export function timestampJsonColumn(expr: string): JsonColumn {
	return {
		sql: jsonSafeSql(expr),
		decode: (value) => (typeof value === "number" ? new Date(value).toISOString() : value),
	};
}

/**
 * An SQL condition: the timestamp `expr` is at or after (`>=`) or at or before (`<=`) the ISO instant `iso`, compared
 * as instants for stored numbers and as text for timestamps kept as text (as they always were).
 */
export function timestampBoundSql(
	expr: string,
	op: ">=" | "<=",
	iso: string,
): { sql: string; params: [number, string] } {
	return {
		sql: `(CASE WHEN typeof(${expr}) = 'integer' THEN ${expr} ${op} ? ELSE ${expr} ${op} ? END)`,
		params: [Date.parse(iso), iso],
	};
}
