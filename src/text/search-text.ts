/**
 * The FTS body transform. SQLite's unicode61 tokenizer (remove_diacritics 2) already does what Latin text needs:
 * identifiers split on `_` and punctuation, whole alphanumeric runs are single tokens, accents and case fold.
 * It keeps a whole run of CJK characters as ONE token, though, so a word inside a longer run could never match.
 * `searchText` rewrites each CJK run into its overlapping bigrams plus its final character:
 *   "我们中文很好" → " 我们 们中 中文 文很 很好 好 "
 * A two-character word inside the run is then one bigram token, a longer word is the phrase of its bigrams, and a
 * single character matches as a prefix (every position starts some bigram or is the final character).
 * Why bigrams rather than Intl.Segmenter or a trigram side table: docs/store.md.
 */

/** Han, Hiragana, Katakana and Hangul letters (plus the prolonged-sound marks, which are Common script). */
const CJK_CLASS =
	"[[\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}\\u30FC\\uFF70\\uFF9E\\uFF9F]&&[\\p{L}\\p{Nl}]]";
// The v flag (set intersection) keeps CJK symbols and punctuation out of runs; built at run time because the
// TypeScript target predates it.
const CJK_TEST = new RegExp(CJK_CLASS, "v");
const CJK_RUN = new RegExp(`${CJK_CLASS}+`, "gv");

/** True when `text` contains at least one CJK letter. */
export function hasCjk(text: string): boolean {
	return CJK_TEST.test(text);
}

/** Every maximal CJK run in `text`, in order, with its UTF-16 start offset. */
export function cjkRuns(text: string): Array<{ index: number; run: string }> {
	const out: Array<{ index: number; run: string }> = [];
	for (const m of text.matchAll(CJK_RUN)) out.push({ index: m.index ?? 0, run: m[0] });
	return out;
}

/** The bigram expansion of one CJK run: overlapping bigrams, then the final character. */
export function cjkRunTokens(run: string): string[] {
	const chars = Array.from(run);
	const out: string[] = [];
	for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
	out.push(chars[chars.length - 1]);
	return out;
}

/** What goes into `fragments_fts.body` for a fragment's text. Non-CJK text is returned unchanged. */
export function searchText(text: string): string {
	if (!CJK_TEST.test(text)) return text;
	// Spaces around the expansion keep it from merging with adjacent Latin letters or digits.
	return text.replace(CJK_RUN, (run) => ` ${cjkRunTokens(run).join(" ")} `);
}
