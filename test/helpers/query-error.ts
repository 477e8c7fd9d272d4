/** The QueryError a call throws, for tests of the request checks. */
import { QueryError } from "../../src/query/errors.js";

/** The QueryError `fn` throws (a test failure when it throws none or another error). */
export function rejection(fn: () => unknown): QueryError {
	try {
		fn();
	} catch (err) {
		if (err instanceof QueryError) return err;
		throw err;
	}
	throw new Error("expected a QueryError");
}
