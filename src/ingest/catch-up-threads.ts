/**
 * How many threads a catch-up uses, declared apart from the catch-up itself so that reading the configuration (every
 * command, every Pi start) does not load the ingest modules.
 */

/**
 * Threads of a bulk pass: 1 (one thread reads and writes) or 2 (a prefetch thread reads, parses, projects and
 * compresses new files while the first writes: prefetch.ts). Two make a cold build about a third faster and its
 * process about 30 MiB larger while it runs (docs/benchmarks.md, "Where the time goes").
 */
export type CatchUpThreads = 1 | 2;

/** True for a valid `catchUp.threads` value. */
export function isCatchUpThreads(value: unknown): value is CatchUpThreads {
	return value === 1 || value === 2;
}

/**
 * Pi's background catch-up runs beside the user's session on a machine that may have two cores: one thread, the
 * smaller footprint (configurable: docs/configuration.md, `catchUp.threads`).
 */
export const BACKGROUND_THREADS: CatchUpThreads = 1;
