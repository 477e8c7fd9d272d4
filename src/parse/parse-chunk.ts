/**
 * Incremental, tolerant parser of one Pi session file (JSONL). Pure: bytes and state in, entries, receipts and the
 * next state out. Feeding a file in any chunk split gives the same entries and receipts as feeding it whole.
 * The rules (what is skipped, how v1 ids are derived) are written down in docs/data-model.md, "Parser".
 */
import { SYSTEM_ROLE } from "./conversation.js";
import type { PiHeaderLine } from "./pi-lines.js";
import { SKIP_REASONS, type SkipReason } from "./skip-reasons.js";
import type { ParseChunkResult, ParsedEntry, ParseOptions, ParseState, SessionHeader, SkipReceipt } from "./types.js";

/** Default cap on one line's size; longer lines are skipped unparsed. */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** The bytes that end a JSONL line: `\n`, and a `\r` before it (which the line's text leaves out). */
export const NEWLINE = 0x0a;
export const CR = 0x0d;
const OPEN_BRACE = 0x7b;
// ignoreBOM keeps a U+FEFF that is not at file offset 0 (Pi's JSON.parse rejects such a line too).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
type Utf8View = { toString(encoding: "utf8", start: number, end: number): string };
// Node's (and Bun's) Buffer decodes several times faster than TextDecoder, with the same replacement characters:
// it is exactly what Pi's readFileSync(…, "utf8") does. TextDecoder is the fallback elsewhere.
const NodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBufferLike, off: number, len: number): Utf8View } }).Buffer;

function utf8View(bytes: Uint8Array): (start: number, end: number) => string {
	if (NodeBuffer) {
		const view = NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		return (start, end) => view.toString("utf8", start, end);
	}
	return (start, end) => decoder.decode(bytes.subarray(start, end));
}

/** `bytes` decoded as the parser decodes a line (so invalid UTF-8 gives the same replacement characters). */
export function decodeUtf8(bytes: Uint8Array): string {
	return utf8View(bytes)(0, bytes.length);
}

/** The head of a message line as Pi writes it (ids of Pi's own alphabet only, so latin-1 decoding is exact). */
const MESSAGE_HEAD = /^\{"type":"message","id":"([A-Za-z0-9_-]+)","parentId":(?:null|"([A-Za-z0-9_-]+)")[,}]/;
const V1_MESSAGE_HEAD = /^\{"type":"message",/;
/** The message's role as Pi writes it right after the entry's head and timestamp. */
const MESSAGE_ROLE_HEAD = /^"timestamp":"[^"\\]*","message":\{"role":"([A-Za-z]+)"/;
const HEAD_BYTES = 200;

interface EntryIds {
	id: string;
	parentId: string | null;
}

function timestampOf(raw: Record<string, unknown>): string {
	return typeof raw.timestamp === "string" ? raw.timestamp : "";
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
	return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
}

/** State before the first byte of a file. */
export function initialParseState(): ParseState {
	return { byteOffset: 0, lineCount: 0, entryCount: 0, v1Ordinal: 0, v1PrevId: null };
}

/**
 * Parse the complete lines of `bytes`, which start at file offset `state.byteOffset`. A trailing partial line is
 * left for the next call (the returned `byteOffset` stops before it), unless it is already longer than
 * `maxLineBytes`: then it is consumed as it comes and one "line too large" receipt is emitted at its `\n`.
 * To guarantee progress, pass at least `maxLineBytes + 1` bytes (or everything up to end of file).
 */
export function parseChunk(bytes: Uint8Array, state: ParseState, options: ParseOptions = {}): ParseChunkResult {
	const run = new ChunkRun(state, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, options.skeleton === true);
	run.parse(bytes);
	const result: ParseChunkResult = { entries: run.entries, receipts: run.receipts, state: run.state };
	if (run.header) result.header = run.header;
	return result;
}

/**
 * Parse one line given as text, which lies at [byteStart, byteEnd) of the file (its `\n` included) right after
 * `state.byteOffset`: a long line's skeleton (long-line.ts), the same rules as `parseChunk` applied to it.
 */
export function parseLine(text: string, state: ParseState, byteStart: number, byteEnd: number): ParseChunkResult {
	const run = new ChunkRun(state, DEFAULT_MAX_LINE_BYTES, false);
	run.state.lineCount++;
	run.lineText(text, byteStart, byteEnd);
	run.state.byteOffset = byteEnd;
	const result: ParseChunkResult = { entries: run.entries, receipts: run.receipts, state: run.state };
	if (run.header) result.header = run.header;
	return result;
}

/** One call's worth of parsing; `state` is a private copy, so the caller's state is never mutated. */
class ChunkRun {
	readonly entries: ParsedEntry[] = [];
	readonly receipts: SkipReceipt[] = [];
	header: SessionHeader | undefined;
	readonly state: ParseState;

	constructor(
		state: ParseState,
		private readonly maxLineBytes: number,
		private readonly skeleton: boolean,
	) {
		this.state = { ...state };
		if (state.v1SessionOrdinals) this.state.v1SessionOrdinals = [...state.v1SessionOrdinals];
	}

	parse(bytes: Uint8Array): void {
		const st = this.state;
		const base = st.byteOffset;
		let pos = 0;
		const decode = utf8View(bytes);
		if (st.skipLineStart !== undefined) {
			const nl = bytes.indexOf(NEWLINE);
			if (nl < 0) {
				st.byteOffset = base + bytes.length;
				return;
			}
			st.lineCount++;
			this.tooLarge(st.skipLineStart, base + nl + 1);
			delete st.skipLineStart;
			pos = nl + 1;
		}
		while (pos < bytes.length) {
			const nl = bytes.indexOf(NEWLINE, pos);
			if (nl < 0) {
				// A partial line already over the cap will be skipped anyway: consume it now so the caller need not buffer it.
				if (bytes.length - pos > this.maxLineBytes) {
					st.skipLineStart = base + pos;
					pos = bytes.length;
				}
				break;
			}
			st.lineCount++;
			const byteStart = base + pos;
			const byteEnd = base + nl + 1;
			if (nl - pos > this.maxLineBytes) {
				this.tooLarge(byteStart, byteEnd);
			} else {
				let start = pos;
				let end = nl;
				if (end > start && bytes[end - 1] === CR) end--;
				if (byteStart === 0 && end - start >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
					start += 3;
				}
				this.line(bytes, decode, start, end, byteStart, byteEnd);
			}
			pos = nl + 1;
		}
		st.byteOffset = base + pos;
	}

	private receipt(byteStart: number, byteEnd: number, reason: SkipReason): void {
		this.receipts.push({ lineNo: this.state.lineCount, byteStart, byteEnd, reason });
	}

	private tooLarge(byteStart: number, byteEnd: number): void {
		// Unparsed, so assume it was an entry: in a v1 file it takes an ordinal, as it would in Pi.
		if (this.state.sessionVersion !== undefined && this.state.sessionVersion < 2 && !this.state.noHeader) {
			this.state.v1Ordinal++;
		}
		this.receipt(byteStart, byteEnd, SKIP_REASONS.lineTooLarge);
	}

	private line(
		bytes: Uint8Array,
		decode: (start: number, end: number) => string,
		start: number,
		end: number,
		byteStart: number,
		byteEnd: number,
	): void {
		const st = this.state;
		if (start === end) return;
		const ids = this.skeleton && st.sessionVersion !== undefined && !st.noHeader && this.skeletonIds(bytes, start, end);
		if (ids) {
			this.push({ byteStart, byteEnd, type: "message", timestamp: "", raw: {} }, ids);
			return;
		}
		this.lineText(decode(start, end), byteStart, byteEnd);
	}

	/** A line's text (without its line break) that lies at [byteStart, byteEnd) of the file. */
	lineText(text: string, byteStart: number, byteEnd: number): void {
		const st = this.state;
		if (text.charCodeAt(0) !== OPEN_BRACE && text.trim() === "") return;
		if (st.noHeader) {
			this.receipt(byteStart, byteEnd, SKIP_REASONS.noHeader);
			return;
		}
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			this.receipt(byteStart, byteEnd, SKIP_REASONS.malformedJson);
			return;
		}
		if (st.sessionVersion === undefined) {
			this.firstValue(value, byteStart, byteEnd);
			return;
		}
		if (typeof value !== "object" || value === null) {
			this.receipt(byteStart, byteEnd, SKIP_REASONS.notAnObject);
			return;
		}
		const v1 = st.sessionVersion < 2;
		// Pi's v1 ordinal is the index into every parsed line (header = 0); arrays get an id in Pi's migration too.
		const ordinal = st.v1Ordinal;
		if (v1) st.v1Ordinal++;
		if (Array.isArray(value)) {
			this.receipt(byteStart, byteEnd, SKIP_REASONS.notAnObject);
			return;
		}
		const raw = value as Record<string, unknown>;
		const type = raw.type;
		if (type === "session") {
			if (v1) st.v1SessionOrdinals = [...(st.v1SessionOrdinals ?? []), ordinal];
			this.receipt(byteStart, byteEnd, SKIP_REASONS.repeatedHeader);
			return;
		}
		if (typeof type !== "string" || type === "") {
			this.receipt(byteStart, byteEnd, SKIP_REASONS.missingType);
			return;
		}
		if (v1) {
			if (type === "compaction") this.resolveFirstKept(raw, ordinal);
			this.push({ byteStart, byteEnd, type, timestamp: timestampOf(raw), raw }, this.v1Ids(ordinal));
			return;
		}
		if (typeof raw.id !== "string" || raw.id === "") {
			this.receipt(byteStart, byteEnd, SKIP_REASONS.missingId);
			return;
		}
		const parentId = typeof raw.parentId === "string" && raw.parentId !== "" ? raw.parentId : null;
		this.push({ byteStart, byteEnd, type, timestamp: timestampOf(raw), raw }, { id: raw.id, parentId });
	}

	private push(entry: Omit<ParsedEntry, "seq" | "lineNo" | "id" | "parentId">, ids: EntryIds): void {
		this.entries.push({ seq: this.state.entryCount++, lineNo: this.state.lineCount, ...ids, ...entry });
	}

	/** A v1 entry's id is derived from its ordinal; its parent is the entry before it. */
	private v1Ids(ordinal: number): EntryIds {
		const ids = { id: `v1-${ordinal}`, parentId: this.state.v1PrevId };
		this.state.v1PrevId = ids.id;
		return ids;
	}

	/**
	 * With `skeleton`: the ids of a message line whose head is what Pi writes, known without parsing it; undefined for
	 * any other line. A v1 line takes an ordinal, as a parsed one would.
	 */
	private skeletonIds(bytes: Uint8Array, start: number, end: number): EntryIds | undefined {
		const head = latin1(bytes, start, Math.min(end, start + HEAD_BYTES));
		if ((this.state.sessionVersion as number) < 2) {
			return V1_MESSAGE_HEAD.test(head) ? this.v1Ids(this.state.v1Ordinal++) : undefined;
		}
		const m = MESSAGE_HEAD.exec(head);
		// Tree states look at one role (a system message's: tree-states.ts), so the role must be seen and be another.
		const role = m && MESSAGE_ROLE_HEAD.exec(head.slice(m[0].length));
		return role && role[1] !== SYSTEM_ROLE ? { id: m[1] as string, parentId: m[2] ?? null } : undefined;
	}

	/** The first JSON value of the file must be the header, as in Pi's `loadEntriesFromFile`. */
	private firstValue(value: unknown, byteStart: number, byteEnd: number): void {
		const st = this.state;
		const raw = value as PiHeaderLine | null;
		if (
			typeof value !== "object" ||
			raw === null ||
			Array.isArray(value) ||
			raw.type !== "session" ||
			typeof raw.id !== "string"
		) {
			st.noHeader = true;
			this.receipt(byteStart, byteEnd, SKIP_REASONS.noHeader);
			return;
		}
		const header: SessionHeader = {
			id: raw.id,
			version: typeof raw.version === "number" && Number.isFinite(raw.version) ? raw.version : 1,
			timestamp: typeof raw.timestamp === "string" ? raw.timestamp : "",
			cwd: typeof raw.cwd === "string" ? raw.cwd : "",
		};
		if (typeof raw.parentSession === "string") header.parentSession = raw.parentSession;
		if (typeof raw.branchedFrom === "string") header.branchedFrom = raw.branchedFrom;
		this.header = header;
		st.header = header;
		st.sessionVersion = header.version;
		st.v1Ordinal = 1;
	}

	/** v1 `firstKeptEntryIndex` n → `firstKeptEntryId` "v1-n", unless n is a header line or not before this entry. */
	private resolveFirstKept(raw: Record<string, unknown>, ordinal: number): void {
		const n = raw.firstKeptEntryIndex;
		if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n >= ordinal) return;
		if (this.state.v1SessionOrdinals?.includes(n)) return;
		raw.firstKeptEntryId = `v1-${n}`;
	}
}
