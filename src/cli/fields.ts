/**
 * Which flag or argument of the command line sets each request field, so a service error that names a field (as
 * data: QueryError.field) is reported with what the user typed. Search fields come from the filter declarations.
 */
import { SEARCH_FILTERS } from "../query/search/filters.js";

/** Fields of the read and trace requests, and the query, by the argument or flag that sets them. */
const REQUEST_FIELDS: Record<string, string> = {
	query: "QUERY",
	sessionId: "SESSION",
	entryId: "ENTRY",
	matchingFragmentId: "--fragment",
	offset: "--offset",
	before: "--before",
	after: "--after",
	order: "--order",
	depth: "--depth",
};

function searchFields(): Map<string, string> {
	const out = new Map<string, string>();
	for (const f of SEARCH_FILTERS) {
		const keyed: string[] = [];
		for (const flag of f.flags) {
			const field = flag.key === undefined ? f.field : `${f.field}.${flag.key}`;
			// The first flag of a field is its name (--from, not its alias --since).
			if (!out.has(field)) {
				out.set(field, `--${flag.flag}`);
				if (flag.key !== undefined) keyed.push(`--${flag.flag}`);
			}
		}
		// An object field as a whole (time) is named by the flags of its keys (--from/--to).
		if (keyed.length > 0) out.set(f.field, keyed.join("/"));
	}
	return out;
}

/**
 * The flag or argument of `command` for a request field (search: "kinds" → "--kind", "time.from" → "--from",
 * "sessionId" → "--session"; read and trace: "sessionId" → "SESSION"), if any.
 */
export function flagOfField(field: string, command: string | undefined): string | undefined {
	const search = command === "search" || command === "sessions" ? searchFields().get(field) : undefined;
	return search ?? REQUEST_FIELDS[field];
}
