/**
 * The model boundary for failures: a QueryError's message passes through as it is (it is written to be safe);
 * anything else becomes "event index unavailable: <short reason>" with paths and stacks removed. The full detail
 * goes to the local log only.
 */

import { clipText, MAX_ERROR_CHARS, QueryError } from "../query/errors.js";
import {
	DISK_FULL_REASON,
	DriverLoadError,
	isBusyCode,
	isDiskFull,
	isStoreDamage,
	sqliteErrorCode,
} from "../workspace-index.js";

/** Longest reason shown after "event index unavailable: ". */
const MAX_REASON_CHARS = 160;

/**
 * An absolute path: its directories may contain spaces (`/home/John Smith/private stuff/`), its last segment is
 * what is kept. A segment never ends in a space (so ` and /tmp` starts a new path); quotes and line ends bound it;
 * over-redacting prose that contains a slash is the accepted cost.
 */
const ABSOLUTE_PATH = /(?:[A-Za-z]:)?[\\/](?:[^\\/\n'"`]*[^\s\\/'"`][\\/])+[^\s\\/'"`:,;()[\]]*/g;

/** Longest text the path scan looks at (it runs before clipping; bounded so the scan stays linear-ish). */
const MAX_SCANNED_CHARS = 4000;

/** Replaces absolute paths (POSIX and Windows) with their last segment, so no location leaks. */
export function stripPaths(text: string): string {
	return text
		.slice(0, MAX_SCANNED_CHARS)
		.replace(/file:\/\/\S*/g, "<file>")
		.replace(ABSOLUTE_PATH, (m) => `…/${m.split(/[\\/]/).at(-1) ?? ""}`);
}

/** A short, path-free, single-line reason from any thrown value. */
export function shortReason(err: unknown): string {
	const raw = err instanceof Error ? err.message : typeof err === "string" ? err : "unknown error";
	const first = stripPaths(raw.split("\n")[0] ?? "").trim() || "unknown error";
	return first.length > MAX_REASON_CHARS ? `${first.slice(0, MAX_REASON_CHARS - 1)}…` : first;
}

/** The one sentence the model sees when the index was found damaged (the detail goes to the local log). */
const DAMAGED_REASON = "the index was found damaged and is being rebuilt from the session files; try again shortly";
export const DAMAGED_MESSAGE = `event index unavailable: ${DAMAGED_REASON}`;

/** An error already written for the model (thrown by this module's callers on purpose). */
export class PublicError extends Error {}

/** What a SQLite failure means to the model, by result code; SQLite's own text never crosses the boundary. */
function sqliteReason(code: string): string {
	if (isBusyCode(code)) return "the index is busy; try again shortly";
	if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_PERM") || code.startsWith("SQLITE_CANTOPEN")) {
		return "the index cannot be written or opened";
	}
	return "internal index error (details are in the index log)";
}

/**
 * Why the index is unavailable, fit for the model: damage and a full disk (SQLite's or the file system's) in the
 * store's words, other SQLite failures by meaning, anything else short and path-free.
 */
export function publicReason(err: unknown): string {
	// Whole (it says what to run), in one line, paths shortened like any other.
	if (err instanceof DriverLoadError) return stripPaths(err.message);
	if (isStoreDamage(err)) return DAMAGED_REASON;
	if (isDiskFull(err)) return DISK_FULL_REASON;
	const code = sqliteErrorCode(err);
	return code ? sqliteReason(code) : shortReason(err);
}

/** The Error a tool throws: public messages as they are (clipped), everything else generic. */
export function toPublicError(err: unknown): Error {
	if (err instanceof QueryError || err instanceof PublicError) return new Error(clipText(err.message, MAX_ERROR_CHARS));
	return new Error(`event index unavailable: ${publicReason(err)}`);
}
