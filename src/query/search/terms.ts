/**
 * The query as the search pipeline sees it: a list of terms, each an FTS5 expression that matches when any of its
 * forms occurs, plus the normalized tokens ranking and snippets look for. Quoted phrases are required in every
 * tier; plain terms can be relaxed (tiers.ts). Tokenisation is the query compiler's (unicode61 boundaries, CJK
 * bigrams, every token quoted), so no expression built here can be an FTS5 syntax error.
 */
import {
	MAX_QUERY_TOKENS,
	normalizeToken,
	type QueryToken,
	segmentTokens,
	splitQuery,
} from "../../text/query-compiler.js";
import { looksLikeTag } from "../../text/fragment-tags.js";
import { invalid } from "../errors.js";
import { textColumns } from "../rank.js";

/** One term or quoted phrase of the query. */
export interface SearchTerm {
	/** As typed (normalized), for matchedTerms/missingTerms and the text the model reads. */
	label: string;
	/** FTS5 expression over the text columns' tokens: the forms of the term OR-ed. */
	match: string;
	/** Normalized token sequence of the exact form, for proximity and snippets. */
	tokens: string[];
	/** A quoted phrase: never relaxed. */
	quoted: boolean;
}

function quoteToken(t: QueryToken): string {
	return `"${t.text.replaceAll('"', '""')}"${t.prefix ? "*" : ""}`;
}

/** The FTS5 expression of one token sequence (a phrase when it has several tokens). */
export function sequenceMatch(tokens: readonly QueryToken[]): string {
	return tokens.map(quoteToken).join(" + ");
}

/** Terms and phrases of a raw query; throws QueryError (invalid_request) for an empty or oversized query. */
export function searchTerms(query: string): SearchTerm[] {
	const out: SearchTerm[] = [];
	let tokenCount = 0;
	for (const segment of splitQuery(query)) {
		const tokens = segmentTokens(segment.text);
		if (tokens.length === 0) continue;
		tokenCount += tokens.length;
		if (tokenCount > MAX_QUERY_TOKENS) {
			throw invalid(`The search query is too long: at most ${MAX_QUERY_TOKENS} words. Use fewer, more specific terms.`);
		}
		const normalized = tokens.map((t) => normalizeToken(t.text));
		const match = `(${sequenceMatch(tokens)})`;
		out.push({
			label: segment.quoted ? `"${normalized.join(" ")}"` : normalized.join(" "),
			// A word shaped like a tag token must not match the tags column.
			match: tokens.some((t) => looksLikeTag(t.text, t.prefix)) ? textColumns(match) : match,
			tokens: normalized,
			quoted: segment.quoted,
		});
	}
	if (out.length === 0) {
		throw invalid(
			query.trim() === ""
				? "The search query is empty. Give one or more words, or a phrase in double quotes."
				: "The search query has no searchable words (only punctuation or symbols). Give one or more words, or a phrase in double quotes.",
		);
	}
	// The same word typed twice is one term.
	const seen = new Set<string>();
	return out.filter((t) => !seen.has(t.match) && seen.add(t.match) !== undefined);
}
