/**
 * The one way every renderer (the tools' text, their rows on Pi's screen, the CLI) prints what came from a session
 * file, so that stored text can never forge a line of the output (docs/security.md, "Forged output"):
 * - a value (an id, a name, a path, a state) never holds a control character or a line break: each is shown as an
 *   escape (`\n`, `\u001b`), and so are the Unicode line separators and the bidirectional overrides;
 * - text flattened onto one line (snippets, previews) shows its line breaks as ` ⏎ ` and escapes the rest;
 * - session text returned as lines is framed: every line starts with SESSION_TEXT_MARK, which no line the tools
 *   write themselves starts with. Pure.
 */

/** Start of every line of session text a tool returns (docs/tool-contract.md, "Session text is framed"). */
export const SESSION_TEXT_MARK = "│ ";

/** Line breaks as any reader (a terminal, a model's tokenizer, an editor) may take them. */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
/** Controls (C0, DEL, C1) and invisible direction overrides, which can reorder or hide what is shown. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same, minus the tab (kept inside framed text, where it is only indentation). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(ch: string): string {
	return SHORT_ESCAPES[ch] ?? `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;
}

/** A value on one line: every control character, line break and direction override shown as an escape. */
export function escapeValue(text: string): string {
	return text.replace(CONTROL, escapeChar);
}

/**
 * Text on one line of at most `max` code points (an ellipsis marks a cut): line breaks become ` ⏎ `, other
 * whitespace runs one space, and what controls remain are escaped.
 */
export function oneLine(text: string, max = Number.POSITIVE_INFINITY): string {
	const flat = escapeValue(
		text
			.replace(/[ \t]*(?:\r\n|[\n\r\v\f\u0085\u2028\u2029])\s*/g, " ⏎ ")
			.replace(/\s+/g, " ")
			.trim(),
	);
	const cps = Array.from(flat);
	return cps.length > max ? `${cps.slice(0, Math.max(0, max - 1)).join("")}…` : flat;
}

/** Text in double quotes on one line (oneLine): its own quotes and backslashes escaped, so it cannot end early. */
export function quoted(text: string, max?: number): string {
	return `"${oneLine(text.replace(/["\\]/g, "\\$&"), max)}"`;
}

/** Session text as lines, each one framed with SESSION_TEXT_MARK (controls but the tab escaped). */
export function framedLines(text: string): string[] {
	return text.split(LINE_BREAK).map((line) => `${SESSION_TEXT_MARK}${line.replace(CONTROL_BUT_TAB, escapeChar)}`);
}

/** {@link framedLines} joined with newlines. */
export function framedText(text: string): string {
	return framedLines(text).join("\n");
}

/** Session text for a screen that frames it itself: line breaks kept (normalized to `\n`), other controls escaped. */
export function screenText(text: string): string {
	return text
		.split(LINE_BREAK)
		.map((line) => line.replace(CONTROL_BUT_TAB, escapeChar))
		.join("\n");
}
