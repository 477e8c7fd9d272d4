/** Small string helpers for the projector (code-point aware, no allocation-heavy tricks). */
import { isHighSurrogate } from "../text/code-points.js";

/** Bound on any string attribute value, in code points. */
const MAX_ATTRIBUTE_CHARS = 200;

/** `text` cut to at most `max` code points (never splitting a surrogate pair), with "…" when cut. */
export function boundString(text: string, max = MAX_ATTRIBUTE_CHARS): string {
	if (text.length <= max) return text;
	let units = 0;
	let cut = 0;
	for (let cps = 0; cps < max; cps++) {
		if (units >= text.length) return text;
		if (cps === max - 1) cut = units;
		const c = text.charCodeAt(units);
		units += isHighSurrogate(c) && units + 1 < text.length ? 2 : 1;
	}
	if (units >= text.length) return text;
	return `${text.slice(0, cut)}…`;
}

/** True when `text` has nothing searchable (empty or whitespace only). */
export function isBlank(text: string): boolean {
	return text.length === 0 || text.trim().length === 0;
}

/**
 * The text of a message `content`: a string as is, or the `text` blocks of a block array joined with "\n".
 * Image and thinking blocks (and anything else) are ignored.
 */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content) {
		if (isRecord(block) && block.type === "text" && typeof block.text === "string") parts.push(block.text);
	}
	return parts.join("\n");
}

/** A plain (non-array, non-null) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
