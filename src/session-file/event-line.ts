/**
 * Reading an indexed event's line again from its session file: where the index keeps only the head of a long
 * fragment (fragment-text.ts STORED_HEAD_CHARS), the rest is here. The JSONL is the truth; the bytes are used only
 * if their xxHash64 is the `line_hash` recorded when the line was indexed, so a rewritten or truncated file gives
 * "unavailable", never another text.
 */
import { closeSync, openSync } from "node:fs";
import { lineHash } from "../files/hash.js";
import { readRange } from "../files/read-range.js";
import { CR, decodeUtf8, NEWLINE } from "../parse/parse-chunk.js";
import { projectEntry } from "../project/project-entry.js";
import { isWholeText } from "../store/fragment-text.js";
import { codePointLength } from "../text/code-points.js";

/** Where an indexed event's line lies, as the index recorded it. */
export interface EventLine {
	/** The session file (sources.path). */
	path: string;
	byteStart: number;
	byteEnd: number;
	/** events.line_hash; null on rows indexed before it existed, which are then not read. */
	lineHash: Uint8Array | null;
	entryType: string;
}

/** The bytes of the line, or undefined when the file no longer holds exactly the indexed line. */
function readLine(line: EventLine): Uint8Array | undefined {
	if (line.lineHash === null || line.byteEnd <= line.byteStart) return undefined;
	let fd: number;
	try {
		fd = openSync(line.path, "r");
	} catch {
		return undefined;
	}
	try {
		const bytes = readRange(fd, line.byteStart, line.byteEnd);
		if (bytes.length !== line.byteEnd - line.byteStart) return undefined;
		return Buffer.compare(lineHash(bytes), line.lineHash) === 0 ? bytes : undefined;
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

/** Without the line break (and a CR before it), as the parser reads a line. */
function lineText(bytes: Uint8Array): string {
	let end = bytes.length;
	if (end > 0 && bytes[end - 1] === NEWLINE) end--;
	if (end > 0 && bytes[end - 1] === CR) end--;
	return decodeUtf8(bytes.subarray(0, end));
}

/**
 * The whole texts of the event's fragments, by ord, projected again from its line; undefined when the line cannot
 * be read as indexed (file gone, rewritten, truncated, unreadable).
 */
export function readFragmentTexts(line: EventLine): string[] | undefined {
	const bytes = readLine(line);
	if (bytes === undefined) return undefined;
	let raw: unknown;
	try {
		raw = JSON.parse(lineText(bytes));
	} catch {
		return undefined;
	}
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
	const event = projectEntry({
		seq: 0,
		lineNo: 0,
		byteStart: line.byteStart,
		byteEnd: line.byteEnd,
		id: "",
		parentId: null,
		type: line.entryType,
		timestamp: "",
		raw: raw as Record<string, unknown>,
	});
	const texts: string[] = [];
	for (const f of event.fragments) texts[f.ord] = f.text;
	return texts;
}

/** A fragment's text as far as it can be had: `whole` false means only the stored head could be read. */
export interface FragmentText {
	text: string;
	whole: boolean;
}

/**
 * The whole text of a fragment whose decoded stored value is `head`: the head itself when it is whole, otherwise what
 * `readWhole()` gives (asked only then: the fragment's text in readFragmentTexts of its event's line), used only when
 * it is the fragment that was indexed (the stored length, starting with the stored head).
 */
export function wholeFragmentText(head: string, charCount: number, readWhole: () => string | undefined): FragmentText {
	if (isWholeText(head, charCount)) return { text: head, whole: true };
	const text = readWhole();
	if (text?.startsWith(head) && codePointLength(text) === charCount) return { text, whole: true };
	return { text: head, whole: false };
}
