/**
 * Bounded views of long text: a head/tail preview and a movable fixed-size window.
 * All positions are Unicode code points (never UTF-16 units), so they stay stable for emoji, CJK and combining marks.
 */
import type { TextPreview, TextWindow } from "../contract.js";

export type { TextWindow };

/** Shown between the head and the tail of a truncated preview; counts against the budget. */
export const PREVIEW_GAP_MARKER = "\n…\n";

/** Splits a string into code points (surrogate pairs stay whole). */
function codePoints(text: string): string[] {
	return Array.from(text);
}

/**
 * Head + tail preview of `text` in at most `budget` code points (marker included).
 * `shownRanges`/`omittedRanges` are exact half-open code-point ranges of the original text.
 */
export function previewText(text: string, budget: number): TextPreview {
	const cps = codePoints(text);
	const total = cps.length;
	const cap = Math.max(0, Math.floor(budget));
	if (total <= cap) {
		return {
			text,
			totalChars: total,
			shownRanges: total > 0 ? [{ start: 0, end: total }] : [],
			omittedRanges: [],
			truncated: false,
		};
	}
	const markerLen = codePoints(PREVIEW_GAP_MARKER).length;
	// Too small for head + marker + tail: show the head only.
	if (cap < markerLen + 2) {
		return {
			text: cps.slice(0, cap).join(""),
			totalChars: total,
			shownRanges: cap > 0 ? [{ start: 0, end: cap }] : [],
			omittedRanges: [{ start: cap, end: total }],
			truncated: true,
		};
	}
	const shown = cap - markerLen;
	const headLen = Math.ceil(shown / 2);
	const tailLen = shown - headLen;
	const tailStart = total - tailLen;
	return {
		text: cps.slice(0, headLen).join("") + PREVIEW_GAP_MARKER + cps.slice(tailStart).join(""),
		totalChars: total,
		shownRanges: [
			{ start: 0, end: headLen },
			{ start: tailStart, end: total },
		],
		omittedRanges: [{ start: headLen, end: tailStart }],
		truncated: true,
	};
}

/**
 * A contiguous window of at most `size` code points starting at `offset`. The offset is clamped into the text
 * (an offset past the end shows the last `size` code points); the size is never raised by moving the offset.
 */
export function windowText(text: string, offset: number, size: number): TextWindow {
	const cps = codePoints(text);
	const total = cps.length;
	const width = Math.max(0, Math.floor(size));
	const requested = Number.isFinite(offset) ? Math.max(0, Math.floor(offset)) : 0;
	const start = Math.min(requested, Math.max(0, total - width));
	const end = Math.min(total, start + width);
	return {
		offset: start,
		text: cps.slice(start, end).join(""),
		totalChars: total,
		range: { start, end },
		hasBefore: start > 0,
		hasAfter: end < total,
	};
}
