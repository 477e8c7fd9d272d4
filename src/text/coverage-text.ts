/**
 * The one wording of coverage, for the tools' text, `/event-index status` and the CLI: `coverage: ` + the note
 * computed with the counts (src/store/source-counts.ts), and when it is partial, what that means and roughly when
 * to try again. Pure.
 */
import type { CatchUpProgress, Coverage } from "../contract.js";

/**
 * Files a catch-up indexes per second when nothing better is known (another process is indexing, or this one has
 * not finished a file yet): the cold build of bench figure 1 did 10,000 sessions in 64 s; rounded down.
 */
const NOMINAL_FILES_PER_SECOND = 100;

/** Never promise less than this: a retry also pays a sync and a query. */
const MIN_RETRY_MS = 5_000;

/**
 * Roughly how long until the index covers what it is missing, or undefined when waiting will not help (only failed
 * files are missing, or nothing is indexing). `progress` is this process's running catch-up, when there is one.
 */
export function retryAfterMs(c: Coverage, progress?: CatchUpProgress): number | undefined {
	if (!c.partial) return undefined;
	const running = c.rebuilding || /running/.test(c.note ?? "") || progress !== undefined;
	if (!running) return undefined;
	let ms: number;
	if (progress && progress.done > 0 && progress.total > progress.done) {
		ms = (progress.elapsedMs / progress.done) * (progress.total - progress.done);
	} else {
		// A rebuild redoes every file; a catch-up only the pending ones.
		const files = c.rebuilding ? Math.max(c.known, c.pending) : c.pending;
		ms = (files / NOMINAL_FILES_PER_SECOND) * 1000;
	}
	return Math.max(MIN_RETRY_MS, Math.round(ms));
}

/** A duration as people say it: "a few seconds", "about 40 s", "about 3 min". */
export function roughDuration(ms: number): string {
	if (ms < 10_000) return "a few seconds";
	if (ms < 55_000) return `about ${Math.round(ms / 10_000) * 10} s`;
	return `about ${Math.round(ms / 60_000)} min`;
}

/** What a partial coverage means for the answer, and when to retry (one sentence). */
function partialConsequence(c: Coverage, progress?: CatchUpProgress): string {
	const wait = retryAfterMs(c, progress);
	if (wait !== undefined) return `results may be incomplete; try again in ${roughDuration(wait)}`;
	if (c.failed > 0 && c.pending === 0)
		return "results may be incomplete; some files cannot be indexed, so waiting will not change this";
	return "results may be incomplete; indexing is not running now (a reindex catches up)";
}

/** The coverage line: `coverage: complete: …`, or `coverage: partial: … (results may be incomplete; try again in …)`. */
export function coverageText(c: Coverage, progress?: CatchUpProgress): string {
	const note = c.note ?? `${c.indexed} of ${c.known} session files indexed`;
	const state = c.partial ? "partial" : "complete";
	const text = note.startsWith("partial") || note.startsWith("complete") ? note : `${state}: ${note}`;
	return c.partial ? `coverage: ${text} (${partialConsequence(c, progress)})` : `coverage: ${text}`;
}
