/**
 * Term proximity for ranking: how close together a fragment holds one occurrence of every query term or phrase.
 * Pure and approximate on purpose: positions come from `indexOf` on the case- and accent-folded text (with token
 * boundaries checked the way unicode61 splits), not from the FTS index, so the cost is a few native string scans
 * per candidate. It only orders candidates FTS5 already matched; it never decides what matches.
 */
import { isLowSurrogate } from "../text/code-points.js";
import { foldLikeUnicode61 } from "../text/fold.js";
import { isUnicode61Separator } from "../text/query-compiler.js";
import { hasCjk } from "../text/search-text.js";
import { WORD_RUN } from "../text/word-classes.js";

/** Occurrences considered per phrase: bounds the work on a very repetitive text. */
const MAX_OCCURRENCES_PER_PHRASE = 2000;
/** A window wider than this many UTF-16 units is never "close", so its tokens are not counted. */
const MAX_WINDOW_UNITS = 2000;

function separatorAt(s: string, i: number): boolean {
	if (i < 0 || i >= s.length) return true;
	const cp = s.codePointAt(i) ?? 0;
	// Step back onto the lead unit when `i` points at a low surrogate.
	if (isLowSurrogate(cp) && i > 0) return isUnicode61Separator(s.codePointAt(i - 1) ?? 0);
	return isUnicode61Separator(cp);
}

/** Start offsets (UTF-16, in `folded`) of whole-token occurrences of `needle` (CJK bigrams need no boundary). */
export function occurrences(folded: string, needle: string, max = MAX_OCCURRENCES_PER_PHRASE): number[] {
	const out: number[] = [];
	if (needle === "") return out;
	const bounded = !hasCjk(needle);
	let at = folded.indexOf(needle);
	while (at >= 0 && out.length < max) {
		if (!bounded || (separatorAt(folded, at - 1) && separatorAt(folded, at + needle.length))) out.push(at);
		at = folded.indexOf(needle, at + 1);
	}
	return out;
}

/** Tokens (letter/number runs) in `s`: the window's width in words. */
function tokenCount(s: string): number {
	let n = 0;
	for (const _ of s.matchAll(WORD_RUN.in(s))) n++;
	return n;
}

/**
 * Extra tokens between the query's phrases in the tightest window that holds one occurrence of each (0 = the
 * phrases are adjacent), or undefined when there are fewer than two phrases, one is missing from `text`, or the
 * tightest window is too wide to be "close". `phrases` are the compiled query's normalized token lists.
 */
export function proximitySlack(text: string, phrases: readonly (readonly string[])[]): number | undefined {
	if (phrases.length < 2) return undefined;
	const folded = foldLikeUnicode61(text);
	// A phrase is located by its first token; its own length is subtracted below.
	const needles = phrases.map((p) => p[0] ?? "");
	const distinct = [...new Set(needles)];
	if (distinct.length < 2) return undefined;
	const marks: Array<{ at: number; which: number; end: number }> = [];
	for (let k = 0; k < distinct.length; k++) {
		const hits = occurrences(folded, distinct[k]);
		if (hits.length === 0) return undefined;
		for (const at of hits) marks.push({ at, which: k, end: at + distinct[k].length });
	}
	marks.sort((a, b) => a.at - b.at || a.which - b.which);
	// Sliding window over the merged occurrences: the narrowest span covering every distinct needle.
	const counts = new Array<number>(distinct.length).fill(0);
	let covered = 0;
	let best: { start: number; end: number } | undefined;
	let lo = 0;
	for (let hi = 0; hi < marks.length; hi++) {
		if (counts[marks[hi].which]++ === 0) covered++;
		// Occurrences are whole tokens, so none starting earlier can end after the newest one.
		while (covered === distinct.length) {
			const start = marks[lo].at;
			if (best === undefined || marks[hi].end - start < best.end - best.start) best = { start, end: marks[hi].end };
			if (--counts[marks[lo].which] === 0) covered--;
			lo++;
		}
	}
	if (best === undefined || best.end - best.start > MAX_WINDOW_UNITS) return undefined;
	const phraseTokens = phrases.reduce((n, p) => n + p.length, 0);
	const firstTokens = distinct.length + (phraseTokens - phrases.length);
	return Math.max(0, tokenCount(folded.slice(best.start, best.end)) - firstTokens);
}
