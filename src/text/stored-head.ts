/** How much of a fragment's text the index keeps (store/fragment-text.ts stores it; the projector cuts long lines to it). */
import { sliceCodePoints } from "./code-points.js";

/**
 * Code points of a fragment's text kept in the index. Proximity ranking and search context read no more than this
 * (rank.ts RERANK_FRAGMENT_CHARS, context.ts, answer-type.ts): measured on the ranking and natural-question sets,
 * proximity over the first 1,000 code points ranks exactly as over the first 2,000 and 32,000 (docs/store.md).
 */
export const STORED_HEAD_CHARS = 1_000;

/** The part of `text` the index keeps: the whole text, or its first STORED_HEAD_CHARS code points. */
export function storedPart(text: string): string {
	return text.length <= STORED_HEAD_CHARS ? text : sliceCodePoints(text, 0, STORED_HEAD_CHARS);
}
