/**
 * The model boundary for failures: a QueryError's message passes through as it is (it is written to be safe);
 * anything else becomes "event index unavailable: <short reason>" with paths and stacks removed. The full detail
 * goes to the local log only.
 */
import { QueryError } from "../query/errors.js";

/** Longest reason shown after "event index unavailable: ". */
const MAX_REASON_CHARS = 160;

/** Replaces absolute paths (POSIX and Windows) with their last segment, so no location leaks. */
export function stripPaths(text: string): string {
	return text
		.replace(/(?:[A-Za-z]:)?(?:[\\/][^\s\\/'"`:,;()[\]]+)+[\\/]?/g, (m) => {
			const parts = m.split(/[\\/]/).filter(Boolean);
			return parts.length > 1 ? `…/${parts.at(-1)}` : m;
		})
		.replace(/file:\/\/\S*/g, "<file>");
}

/** A short, path-free, single-line reason from any thrown value. */
export function shortReason(err: unknown): string {
	const raw = err instanceof Error ? err.message : typeof err === "string" ? err : "unknown error";
	const first = stripPaths(raw.split("\n")[0] ?? "").trim() || "unknown error";
	return first.length > MAX_REASON_CHARS ? `${first.slice(0, MAX_REASON_CHARS - 1)}…` : first;
}

/** An error already written for the model (thrown by this module's callers on purpose). */
export class PublicError extends Error {}

/** The Error a tool throws: public messages as they are, everything else generic. */
export function toPublicError(err: unknown): Error {
	if (err instanceof QueryError || err instanceof PublicError) return new Error(err.message);
	return new Error(`event index unavailable: ${shortReason(err)}`);
}
