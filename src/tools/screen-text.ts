/**
 * Shared pieces of the tools' rows on Pi's screen, for people (the model reads render-text.ts instead): a call line with the query as
 * typed and every filter, a collapsed result that says what was found, and an expanded view laid out for the
 * terminal. Every builder takes the width and returns lines that fit it; paths are shortened from the left so the
 * project name stays. Pure: colours come in through `Paint`.
 */
import type { Coverage } from "../contract.js";
import { escapeValue, oneLine, screenText } from "../text/safe-text.js";
import { tuiWidth } from "./tui-width.js";

/** The three tool names. */
export type EventToolName = "event_search" | "event_read" | "event_trace";

/** Colours of the screen text (Pi's theme supplies them; UNPAINTED adds none). */
export interface Paint {
	title(text: string): string;
	accent(text: string): string;
	muted(text: string): string;
	dim(text: string): string;
	success(text: string): string;
	warning(text: string): string;
	error(text: string): string;
}

const same = (text: string) => text;
/** No colours. */
export const UNPAINTED: Paint = {
	title: same,
	accent: same,
	muted: same,
	dim: same,
	success: same,
	warning: same,
	error: same,
};

/** Hits listed in a collapsed search row. */
export const COLLAPSED_HITS = 3;
/** Most lines of an expanded row (a long window is paged with event_read, not scrolled past). */
const EXPANDED_MAX_LINES = 80;
/** Most lines of one snippet in an expanded row. */
export const BODY_LINES = 3;
/** Most lines of a read window in an expanded row. */
export const WINDOW_LINES = 40;
/** Most lines of one fragment preview in an expanded row. */
export const FRAGMENT_LINES = 12;
/** Characters of a session id shown: a UUIDv7's whole millisecond timestamp, a prefix the tools accept. */
const SESSION_CHARS = 13;

/** Every line cut to `width` columns (ANSI-aware). */
export function fitWidth(lines: string[], width: number): string[] {
	const w = Math.max(1, width);
	return lines.map((line) => (tuiWidth().visibleWidth(line) <= w ? line : tuiWidth().truncateToWidth(line, w, "…")));
}

/** Text on one line, as every renderer flattens it (safe-text.ts `oneLine`: line breaks as ⏎, controls escaped). */
export function flat(text: string): string {
	return oneLine(text);
}

/** A value from the index (an id, a state, a kind) with its control characters escaped (safe-text.ts). */
export const safe = escapeValue;

/** A path within `max` columns, cut from the left at a separator when possible: `…/projects/amber-north`. */
export function shortenPathLeft(path: string, max: number): string {
	const p = escapeValue(path);
	if (tuiWidth().visibleWidth(p) <= max) return p;
	const parts = p.split(/(?=[\\/])/);
	let kept = "";
	for (let i = parts.length - 1; i >= 0; i--) {
		const next = parts[i] + kept;
		if (tuiWidth().visibleWidth(`…${next}`) > max) break;
		kept = next;
	}
	if (kept !== "") return `…${kept}`;
	const chars = Array.from(p);
	return `…${chars.slice(chars.length - Math.max(1, max - 1)).join("")}`;
}

/** An ISO time as `2026-12-02 14:18` (UTC, as stored). */
export function shortTime(iso: string | undefined): string {
	if (!iso) return "";
	const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
	return m ? `${m[1]} ${m[2]}` : escapeValue(iso);
}

/** The first characters of a session id (a prefix event_read and event_trace accept). */
export function shortSession(sessionId: string): string {
	const id = escapeValue(sessionId);
	return Array.from(id).length <= SESSION_CHARS ? id : `${Array.from(id).slice(0, SESSION_CHARS).join("")}…`;
}

/** `session/entry` as people carry it: the session prefix without the ellipsis. */
export function eventRef(sessionId: string, entryId: string): string {
	return escapeValue(`${Array.from(sessionId).slice(0, SESSION_CHARS).join("")}/${entryId}`);
}

/** Words packed into lines of `width` columns; a continuation starts with `indent`; a too-long word is cut. */
export function wrapWords(words: string[], width: number, indent = "  "): string[] {
	const lines: string[] = [];
	let line = "";
	for (const word of words.filter((w) => w !== "")) {
		const candidate = line === "" ? word : `${line} ${word}`;
		if (line === "" || tuiWidth().visibleWidth(candidate) <= width) line = candidate;
		else {
			lines.push(line);
			line = `${indent}${word}`;
		}
	}
	if (line !== "") lines.push(line);
	return fitWidth(lines, width);
}

/** `text` wrapped to `width` with `indent`, at most `max` lines (the last says how much is left). */
export function block(text: string, width: number, indent: string, max: number, paint = same): string[] {
	const inner = Math.max(8, width - tuiWidth().visibleWidth(indent));
	const wrapped = screenText(text)
		.split("\n")
		.flatMap((l) => (l === "" ? [""] : tuiWidth().wrapTextWithAnsi(l, inner)));
	const shown = wrapped.slice(0, max).map((l) => `${indent}${paint(l)}`);
	if (wrapped.length > max) shown.push(`${indent}… ${wrapped.length - max} more lines`);
	return shown;
}

/** The kind column of an event: `tool_result bash error`. */
export function kindOf(kind: string, toolName?: string, isError?: boolean): string {
	return escapeValue([kind, toolName, isError ? "error" : ""].filter(Boolean).join(" "));
}

/** `· partial coverage`, when it is. */
export function partialMark(c: Coverage | undefined, paint: Paint): string {
	return c?.partial ? paint.warning(" · partial coverage") : "";
}

/** At most EXPANDED_MAX_LINES lines, the last saying how many were left out. */
export function cap(lines: string[], width: number, paint: Paint): string[] {
	if (lines.length <= EXPANDED_MAX_LINES) return lines;
	const left = lines.length - (EXPANDED_MAX_LINES - 1);
	return [...lines.slice(0, EXPANDED_MAX_LINES - 1), ...fitWidth([paint.muted(`… ${left} more lines`)], width)];
}
