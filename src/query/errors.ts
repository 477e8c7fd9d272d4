/** The only error type query services throw for bad input or unreadable targets. */
import { NOT_FOUND_MESSAGE } from "../contract.js";

/** Machine-readable reason of a QueryError. */
export type QueryErrorCode = "not_found" | "invalid_request";

/** A failure whose `message` is safe to show the model: no paths, no stack, no SQL. */
export class QueryError extends Error {
	readonly code: QueryErrorCode;

	constructor(code: QueryErrorCode, message: string) {
		super(message);
		this.name = "QueryError";
		this.code = code;
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
