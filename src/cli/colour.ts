/**
 * Colour for the human output: on when stdout is a terminal, off when piped, with `--json`, or when NO_COLOR is set;
 * FORCE_COLOR forces it on (or off with 0/false), as Node's own rule has it. Pure: the decision takes the env and
 * the terminal flag; the styles are plain functions (identity when colour is off).
 */
import type { Env } from "../config/pi-paths.js";

/** The styles the formatters use. */
export interface Style {
	/** Whether the styles emit escapes at all. */
	readonly on: boolean;
	/** Ids and headings. */
	bold(text: string): string;
	/** Secondary facts (states, timestamps, hints). */
	dim(text: string): string;
	/** Error markers. */
	red(text: string): string;
	/** Session and entry ids. */
	cyan(text: string): string;
	/** A matched query term inside a snippet. */
	match(text: string): string;
}

/** Whether to colour: FORCE_COLOR wins (0/false: never), then NO_COLOR, then a terminal (not TERM=dumb). */
function colourWanted(env: Env, stdoutIsTTY: boolean): boolean {
	const force = env.FORCE_COLOR;
	if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
	return stdoutIsTTY && env.TERM !== "dumb";
}

const sgr = (open: number, close: number) => (text: string) =>
	text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`;

/** Styles that do nothing. */
export const NO_COLOUR: Style = {
	on: false,
	bold: (t) => t,
	dim: (t) => t,
	red: (t) => t,
	cyan: (t) => t,
	match: (t) => t,
};

/** ANSI styles. */
const ANSI: Style = {
	on: true,
	bold: sgr(1, 22),
	dim: sgr(2, 22),
	red: sgr(31, 39),
	cyan: sgr(36, 39),
	// Bold yellow: visible on dark and light themes alike.
	match: (t) => (t === "" ? t : `\x1b[1;33m${t}\x1b[22;39m`),
};

/** The styles for this run. */
export function styleFor(env: Env, stdoutIsTTY: boolean, json: boolean): Style {
	return !json && colourWanted(env, stdoutIsTTY) ? ANSI : NO_COLOUR;
}

function escapeRegExp(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `text` with every occurrence of the query's words marked (case-insensitive, at word starts, so a word found by its
 * prefix or stem is marked too). Only marks: it decides nothing about what matched.
 */
export function highlightTerms(text: string, words: readonly string[], style: Style): string {
	if (!style.on) return text;
	const terms = [...new Set(words.map((w) => w.trim()).filter((w) => w.length > 0))].sort(
		(a, b) => b.length - a.length,
	);
	if (terms.length === 0) return text;
	const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.map(escapeRegExp).join("|")})`, "giu");
	return text.replace(pattern, (m) => style.match(m));
}
