/**
 * The `catchUp.idleFilesRecheckSeconds` setting: how long a check of every session file that found nothing to do is
 * trusted for files idle an hour (src/ingest/full-check.ts; docs/lifecycle.md, "Idle files between full checks").
 */

/** A minute: an idle session appended to by a writer other than a Pi with this extension is in answers within it. */
export const DEFAULT_IDLE_RECHECK_SECONDS = 60;

/** At most ten minutes, so such an append is never missing for long. */
export const IDLE_RECHECK_MAX_SECONDS = 600;

/** True for a valid setting: whole seconds from 0 (every file before every answer) to IDLE_RECHECK_MAX_SECONDS. */
export function isIdleRecheckSeconds(value: unknown): value is number {
	return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= IDLE_RECHECK_MAX_SECONDS;
}
