/**
 * Words of the natural-question set: a unicode61-like tokenizer, the English function and question words both the
 * set's checks and the bm25-OR baseline drop, and a crude stem used only to check that a question is answerable.
 * Independent of src/text on purpose: the evaluation must not move when the code under test does.
 */

/** Function words, question words and auxiliaries: never content. Declared once; the baseline drops them too. */
export const STOPWORDS: ReadonlySet<string> = new Set(
	(
		"a about above after again all also am an and any are as at be been before being both but by can could did do " +
		"does doing done during each else ever few for from further get got had has have having he her here hers him his " +
		"how i if in into is it its itself just let me mine more most much my myself no nor not now of off on once only " +
		"or other our ours out over own same she should so some such than that the their theirs them then there these they " +
		"this those through to too under until up us very was we were what whatever when where which while who whom whose " +
		"why will with would you your yours ever again anything something did didn t s ve ll re d m does doesn don isn " +
		"wasn weren one ones may might must shall ourselves yourself yourselves himself herself themselves onto since " +
		"between through without within because per via whether though although aren can couldn won wouldn shouldn " +
		"haven hasn hadn every many already yet still even really actually cannot everything nothing below others gets getting"
	).split(" "),
);

/** Lowercased, accent-folded tokens split at every non-letter, non-digit (as SQLite's unicode61 does for ASCII). */
export function tokens(text: string): string[] {
	return text
		.normalize("NFD")
		.replace(/\p{Mn}/gu, "")
		.toLowerCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter((t) => t !== "");
}

/** The distinct tokens of `text` that are not stopwords, in order of first appearance. */
export function contentWords(text: string): string[] {
	return [...new Set(tokens(text).filter((t) => !STOPWORDS.has(t)))];
}

/**
 * A deliberately crude English stem (strip -ing/-ed/-es/-s/-ies/-ly, undouble a final consonant): enough to see
 * that `painted` and `painting`, `migrations` and `migrated` share a root. Used only by the set's checks.
 */
export function crudeStem(word: string): string {
	let w = word;
	if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
	else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
	else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
	else if (w.length > 4 && w.endsWith("es")) w = w.slice(0, -2);
	else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
	else if (w.length > 4 && w.endsWith("ly")) w = w.slice(0, -2);
	if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
	if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
	if (w.length > 4 && w.endsWith("ion")) w = w.slice(0, -3);
	if (w.length > 4 && w.endsWith("at")) w = w.slice(0, -2);
	return w;
}
