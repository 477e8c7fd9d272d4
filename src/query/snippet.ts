/**
 * Search snippets: a bounded excerpt of a fragment centred on the first place a query term matches. Matching here
 * mirrors the index loosely (case and diacritics folded) — it only chooses where to centre, never what matches.
 */

/** Folds one code point the way the tokenizer does (lower case, diacritics removed). */
function fold(cp: string): string {
	return cp.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Code-point position of the earliest occurrence of any needle in `cps` (folded), or -1. */
export function firstMatchPosition(cps: readonly string[], needles: readonly string[]): number {
	let folded = "";
	// folded-string UTF-16 index → code-point index of the original
	const starts: number[] = [];
	for (let i = 0; i < cps.length; i++) {
		const f = fold(cps[i]);
		for (let k = 0; k < f.length; k++) starts.push(i);
		folded += f;
	}
	let best = -1;
	for (const needle of needles) {
		const n = needle.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();
		if (n === "") continue;
		const at = folded.indexOf(n);
		if (at >= 0) {
			const cp = starts[at] ?? 0;
			if (best < 0 || cp < best) best = cp;
		}
	}
	return best;
}

/**
 * At most `maxChars` code points of `text` around the first matched needle (whitespace runs collapsed), with "…"
 * marking cut ends. Without a match the snippet is the head of the text.
 */
export function makeSnippet(text: string, needles: readonly string[], maxChars: number): string {
	const cps = Array.from(text);
	const cap = Math.max(1, Math.floor(maxChars));
	if (cps.length <= cap) return collapse(text);
	const at = Math.max(0, firstMatchPosition(cps, needles));
	const inner = cap - 2; // room for both ellipses
	let start = Math.max(0, at - Math.floor(inner / 2));
	start = Math.min(start, cps.length - inner);
	const end = start + inner;
	const head = start > 0 ? "…" : "";
	const tail = end < cps.length ? "…" : "";
	return collapse(head + cps.slice(start, end).join("") + tail);
}

function collapse(s: string): string {
	return s.replace(/\s+/g, " ").trim();
}
