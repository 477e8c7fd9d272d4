/**
 * Which query forms a text contains, decided in JavaScript the way the FTS index would: the text goes through the
 * same search-text transform (CJK bigrams, identifier parts) and unicode61 tokenisation, tokens are folded
 * (diacritics removed, lowercased like unicode61) and a form matches where its tokens stand next to each other. Used to name the
 * matched and missing terms of a relaxed hit without one FTS query per (term, fragment): with a MATCH, a rowid
 * lookup seeks in every segment of the term's doclist (≈ 0.3 ms on 1 GB).
 */
import { foldLikeUnicode61 } from "./fold.js";
import { unicode61Tokens } from "./query-compiler.js";
import { searchText } from "./search-text.js";

/** The folded tokens of `text`, as the index sees it (for a fragment, of its `kind`: search-text.ts). */
export function indexTokens(text: string, kind?: string): string[] {
	return unicode61Tokens(searchText(text, kind)).map(foldLikeUnicode61);
}

/** True when some form (a token sequence) occurs in `tokens` as adjacent tokens. */
export function containsAnyForm(tokens: readonly string[], forms: ReadonlyArray<readonly string[]>): boolean {
	for (const form of forms) {
		if (form.length === 0) continue;
		for (let i = 0; i + form.length <= tokens.length; i++) {
			let j = 0;
			while (j < form.length && tokens[i + j] === form[j]) j++;
			if (j === form.length) return true;
		}
	}
	return false;
}
