/** The only error type query services throw for bad input or unreadable targets. */
import { NOT_FOUND_MESSAGE } from "../contract.js";
import { previewText } from "../text/preview.js";

/** Longest error message the model can receive, in code points (a 1 MB input must not make a 2 MB error). */
export const MAX_ERROR_CHARS = 400;

/** Longest piece of caller input an error message echoes back, in code points. */
const MAX_ECHO_CHARS = 80;

/** `text` within `budget` code points: head and tail kept, the middle elided. */
export function clipText(text: string, budget: number): string {
	return previewText(text, budget).text.replace(/\n…\n/, "…");
}

/** Caller input as an error message quotes it: clipped to MAX_ECHO_CHARS. */
export function echo(input: string): string {
	return clipText(input, MAX_ECHO_CHARS);
}

/** Machine-readable reason of a QueryError. */
export type QueryErrorCode = "not_found" | "invalid_request";

/** A failure whose `message` is safe to show the model: no paths, no stack, no SQL. */
export class QueryError extends Error {
	readonly code: QueryErrorCode;
	/**
	 * The request field at fault (e.g. "kinds", "time.from"), as data for callers that name it their own way (the
	 * CLI shows its flag). When set, the message starts with the field in quotes.
	 */
	readonly field?: string;

	constructor(code: QueryErrorCode, message: string, field?: string) {
		super(clipText(message, MAX_ERROR_CHARS));
		this.name = "QueryError";
		this.code = code;
		if (field !== undefined) this.field = field;
	}
}

/** The one public failure for missing and unauthorized targets alike. */
export function notFound(): QueryError {
	return new QueryError("not_found", NOT_FOUND_MESSAGE);
}

/** A request the caller can fix; the message says what is wrong. */
export function invalid(message: string): QueryError {
	return new QueryError("invalid_request", message);
}

/** A request field the caller can fix: `"field" reason` for the model, the field as data for the CLI. */
export function invalidField(field: string, reason: string): QueryError {
	return new QueryError("invalid_request", `"${field}" ${reason}`, field);
}
