/**
 * Unicode code-point helpers. Public offsets and lengths (TextPreview ranges, read windows, char_count) count code
 * points, never UTF-16 units, so they stay stable for emoji and astral CJK. A lone surrogate counts as one.
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** True for a UTF-16 high (leading) surrogate: with the unit after it, it may be one code point. */
export function isHighSurrogate(unit: number): boolean {
	return unit >= 0xd800 && unit <= 0xdbff;
}

/** True for a UTF-16 low (trailing) surrogate. */
export function isLowSurrogate(unit: number): boolean {
	return unit >= 0xdc00 && unit <= 0xdfff;
}

/** UTF-16 units of the code point at unit `i` of `s`: 2 for a high surrogate followed by a low one, else 1. */
function unitsAt(s: string, i: number): 1 | 2 {
	return isHighSurrogate(s.charCodeAt(i)) && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1)) ? 2 : 1;
}

/** Number of Unicode code points in `s`. */
export function codePointLength(s: string): number {
	if (!SURROGATE.test(s)) return s.length;
	let n = 0;
	for (let i = 0; i < s.length; i += unitsAt(s, i)) n++;
	return n;
}

/**
 * The code points [start, end) of `s`, like `String.prototype.slice` but in code points. Indices are clamped to
 * [0, length]; `end` defaults to the end; `end <= start` gives "". Never splits a surrogate pair.
 */
export function sliceCodePoints(s: string, start: number, end?: number): string {
	if (!SURROGATE.test(s)) return s.slice(Math.max(0, start), end === undefined ? undefined : Math.max(0, end));
	const from = Math.max(0, Math.trunc(start) || 0);
	const to = end === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.trunc(end) || 0);
	if (to <= from) return "";
	let cp = 0;
	let startUnit = -1;
	let i = 0;
	for (; i < s.length; i += unitsAt(s, i)) {
		if (cp === from) startUnit = i;
		if (cp === to) break;
		cp++;
	}
	if (startUnit < 0) return "";
	return s.slice(startUnit, i);
}
