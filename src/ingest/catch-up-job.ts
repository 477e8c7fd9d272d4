/**
 * One whole-corpus catch-up as a job: take the cross-process catch-up lock (or skip if another process holds it),
 * open the store, run the pass, release everything. Runs inside the worker thread, or in-process for the CLI.
 */

import type { CatchUpThreads } from "../config/threads.js";
import type { CatchUpProgress } from "../contract.js";
import { isBusyError, isStoreDamage, STORE_SCHEMAS, storeErrorText } from "../store/db.js";
import type { SqliteDb } from "../store/driver.js";
import { releaseFreePages } from "../store/free-pages.js";
import { FTS_DEFAULT_WRITE_SETTINGS, type FtsWriteSettings, setFtsWriteSettings } from "../store/fts-settings.js";
import { type LockHandle, takeLock } from "../store/lock.js";
import { heldByLiveProcess, lockHolderInfo } from "../store/lock-holder.js";
import { openStore, recoverCorruptStore } from "../store/open-store.js";
import { findStoreDamage } from "../store/store-check.js";
import { type CatchUpOptions, type CatchUpResult, catchUp } from "./catch-up.js";
import {
	idleTrust,
	inWorkspaceOf,
	nothingDone,
	type PassPlan,
	planIsEmpty,
	planPass,
	planUnlessIdle,
} from "./catch-up-plan.js";
import type { DiscoveryRoot } from "./discover.js";
import { Forgotten } from "./forgotten.js";
import { CATCH_UP_LOCK } from "./lock-names.js";
import type { SyncOptions } from "./sync-source.js";
import { writerWaiting, type YieldMemo, yieldToAnnouncedWriters } from "./write-intent.js";

/** Everything a catch-up needs, as plain data (it crosses the worker boundary). */
export interface CatchUpJob {
	indexDir: string;
	roots: DiscoveryRoot[];
	extraFiles: string[];
	/** Directory prefixes whose files are the caller's workspace (synced first). */
	workspaceDirs: string[];
	sync?: Omit<SyncOptions, "between" | "shouldStop">;
	/** Lock staleness threshold in ms (tests only; the default is the lock module's). */
	lockStaleMs?: number;
	/** 2: new files are parsed and projected in a second thread while this one writes (default 1). */
	threads?: CatchUpThreads;
	/** Check every page of the store before the pass (`reindex`: store-check.ts); damage found is recovered. */
	checkStore?: boolean;
	/** The person's `excludeWorkspaces` globs (forgotten.ts). */
	excludeWorkspaces?: string[];
	/** How long a full check is trusted for idle files, in seconds (full-check.ts). */
	idleRecheckSeconds?: number;
}

export type CatchUpOutcome =
	/** `recovered`: the store was found damaged, moved aside, and this pass rebuilt it from the session files. */
	| { kind: "done"; result: CatchUpResult; recovered?: true }
	| { kind: "skipped"; reason: "locked" | "read-only" }
	| { kind: "failed"; error: string };

/**
 * Settings for the connection that does bulk catch-up or a rebuild: a WAL checkpoint every 64 MiB instead of every
 * 4 MiB, for fewer fsyncs (durability is unchanged: synchronous stays NORMAL); a 2 MiB page cache per file, since a
 * bigger one only grows the process (a two-thread pass has one in each of two connections: docs/lifecycle.md,
 * "Memory"); no mmap (db.ts, QUERY_MMAP_BYTES): a bulk pass reads what it merges once, and mapped pages it touched
 * would count in its RSS. Figures: docs/benchmarks.md, "Figures behind the constants".
 */
export const BULK_WRITE_PRAGMAS = ["wal_autocheckpoint = 16384"];

/** BULK_WRITE_PRAGMAS that SQLite keeps per file: set for the store file and its full-text file alike. */
export const BULK_FILE_PRAGMAS = ["mmap_size = 0", "cache_size = -2000"];

/**
 * Ends a bulk pass: gives the pages FTS5's merges left free back to the file system (free-pages.ts), copies the WAL
 * into the database and truncates it to zero bytes, so a settled index directory is the database alone (a cold build
 * used to leave a 64 MiB+ WAL behind while any other connection stayed open). Best effort: a reader still holding an
 * old snapshot only defers the truncation to a later checkpoint, a busy writer the release to the next pass.
 */
export function settlePass(db: Pick<SqliteDb, "pragma" | "exec">): void {
	try {
		for (const schema of STORE_SCHEMAS) releaseFreePages(db, schema);
	} catch (err) {
		// Busy: the pages stay free in the file (SQLite reuses them) until a later pass.
		if (!isBusyError(err)) throw err;
	}
	try {
		db.pragma("wal_checkpoint(TRUNCATE)");
	} catch {
		// Busy or read-only: the next checkpoint (journal_size_limit) bounds the WAL instead.
	}
}

/**
 * How FTS5 writes during a bulk pass, by its threads (docs/store.md, "FTS5's merges"). Two threads gather several MiB
 * of terms per group commit: at FTS5's defaults most segments were cut mid-transaction and merged again and again, so
 * a larger pending hash and wider merges save CPU. One thread, Pi's background catch-up, keeps the defaults: memory
 * counts more there, and its hot-path waits were measured with them. Figures: docs/benchmarks.md, "Figures behind
 * the constants".
 */
const BULK_FTS_SETTINGS: Record<CatchUpThreads, FtsWriteSettings> = {
	1: FTS_DEFAULT_WRITE_SETTINGS,
	2: { hashsize: 4 << 20, automerge: 8 },
};

/**
 * A bulk pass's full garbage collections, by its threads: one after every 32 MiB read on one thread (Pi's background
 * catch-up, where memory counts more than seconds), none on two (`reindex`, where the seconds count). V8 lets the
 * writing thread's heap and its garbage array buffers grow far past what is live before it collects on its own.
 * Figures: docs/benchmarks.md, "Figures behind the constants".
 */
const BULK_COLLECT_BYTES: Record<CatchUpThreads, number | undefined> = { 1: 32 << 20, 2: undefined };

/** Applies BULK_WRITE_PRAGMAS to a connection used only for bulk writes, and BULK_FTS_SETTINGS for `threads`. */
export function tuneForBulkWrites(db: SqliteDb, threads: CatchUpThreads = 1): void {
	for (const p of BULK_WRITE_PRAGMAS) db.pragma(p);
	for (const schema of STORE_SCHEMAS) for (const p of BULK_FILE_PRAGMAS) db.pragma(`${schema}.${p}`);
	setFtsWriteSettings(db, BULK_FTS_SETTINGS[threads]);
}

/**
 * Bulk passes group files into write transactions of about this long (group-commit.ts), by their threads. A group
 * ends early whenever a hot-path writer waits, so this bounds no tool call's wait; it is what a crash loses, and how
 * often the store and its full-text file commit. Two threads (`reindex`) commit less often, which saves CPU; one
 * thread (Pi's background catch-up) commits every 250 ms, with which the hot-path waits were measured.
 */
const BULK_GROUP_MS: Record<CatchUpThreads, number> = { 1: 250, 2: 1_000 };

/** After a hot-path writer stepped in, bulk passes commit every batch for this long (no grouping). */
const WRITER_ACTIVE_MS = 2_000;

/**
 * Input bytes per batch (and per read) in a bulk pass. A batch is the unit between two looks at a waiting hot-path
 * writer, so it bounds that writer's wait; inside a group a batch is a savepoint, so small batches cost no commits.
 */
const BULK_BATCH_BYTES = 256 << 10;

/**
 * Read (and parse) size within a bulk batch. A waiting hot-path writer ends the batch after the current chunk, so it
 * waits for at most this much work instead of a whole batch.
 */
const BULK_CHUNK_BYTES = 64 << 10;

/** Batch (and read) size of a bulk pass while hot-path writers are active: the longest a tool call waits. */
const CONTENDED_BATCH_BYTES = 16 << 10;

/**
 * A pass whose new files hold at least this many bytes parses and projects them in a second thread beside the
 * writer (prefetch.ts): starting the thread costs tens of ms, which a few MiB of input repay.
 */
export const PREFETCH_MIN_BYTES = 8 << 20;

/** Hooks a caller of a job may pass. */
export interface JobHooks {
	shouldStop?: () => boolean;
	onProgress?: (p: CatchUpProgress) => void;
	/**
	 * Told true while the job only plans (reads, holds no lock: it may be ended at once without losing anything),
	 * false when that is over.
	 */
	planning?: (reading: boolean) => void;
}

/** Catch-up options for a job; it stops as soon as any of `locks` is compromised or the caller asks. */
export function catchUpOptions(job: CatchUpJob, hooks: JobHooks, locks: LockHandle[]): CatchUpOptions {
	const yielded: YieldMemo = { handled: 0 };
	// While hot-path writers are active (one stepped in within WRITER_ACTIVE_MS), commit after every batch.
	const commitNow = () => Date.now() - yielded.handled < WRITER_ACTIVE_MS || writerWaiting(job.indexDir, yielded);
	const forgotten = new Forgotten(job.indexDir, job.excludeWorkspaces);
	return {
		roots: job.roots,
		extraFiles: job.extraFiles,
		inWorkspace: inWorkspaceOf(job.workspaceDirs),
		forgotten,
		// A batch reads in chunks and ends after the chunk during which a hot-path writer announced itself.
		sync: {
			batchBytes: BULK_BATCH_BYTES,
			chunkBytes: BULK_CHUNK_BYTES,
			endBatchEarly: commitNow,
			forgotten,
			...job.sync,
		},
		groupMs: BULK_GROUP_MS[job.threads ?? 1],
		commitNow,
		contendedSync: { batchBytes: CONTENDED_BATCH_BYTES, chunkBytes: CONTENDED_BATCH_BYTES },
		prefetchMinBytes: job.threads === 2 ? PREFETCH_MIN_BYTES : undefined,
		collectEveryBytes: BULK_COLLECT_BYTES[job.threads ?? 1],
		// Yield to the event loop (lock refresh) and to hot-path writers of any process that announced a write.
		between: async () => {
			await new Promise<void>((r) => setImmediate(r));
			await yieldToAnnouncedWriters(job.indexDir, yielded);
		},
		shouldStop: () => locks.some((l) => l.compromised) || (hooks.shouldStop?.() ?? false),
		onProgress: hooks.onProgress,
	};
}

/** A pass that found nothing to do: it reports so once (done 0 of 0) and is done. */
function reportedIdle(hooks: JobHooks): CatchUpOutcome {
	const idle = nothingDone();
	hooks.onProgress?.(idle.result);
	return idle;
}

/** A plan of the pass made before the lock (catch-up-plan.ts), on the generation it names. */
export interface PlannedPass {
	generation: string;
	plan: PassPlan;
}

/** Runs the job; `planned` is used when the store it opens is still that plan's generation (catch-up.ts, `catchUp`). */
export async function runCatchUpJob(
	job: CatchUpJob,
	hooks: JobHooks = {},
	planned?: PlannedPass,
): Promise<CatchUpOutcome> {
	const attempt = await takeLock(job.indexDir, CATCH_UP_LOCK, { stale: job.lockStaleMs });
	if (!attempt.ok) {
		// A lock that cannot be created is a read-only index directory, not a busy one: waiting would never end.
		if (attempt.reason === "unwritable") return { kind: "skipped", reason: "read-only" };
		if (attempt.reason === "error") return { kind: "failed", error: attempt.error };
		return { kind: "skipped", reason: "locked" };
	}
	const lock = attempt.handle;
	try {
		let opened = await openStore({ dir: job.indexDir, lockStaleMs: job.lockStaleMs });
		if (!opened.ok) return { kind: "failed", error: opened.error };
		if (opened.store.readOnly) {
			opened.store.close();
			return { kind: "skipped", reason: "read-only" };
		}
		// A damaged store found by the check or during the pass is moved aside once and the pass runs again on a fresh
		// generation.
		for (let attempt = 0; ; attempt++) {
			const store = opened.store;
			try {
				// Tuned first: the check then reads the pages through a 4 MiB cache, not mapped into this process.
				tuneForBulkWrites(store.db, job.threads);
				const damage = job.checkStore && attempt === 0 ? findStoreDamage(store.db) : undefined;
				if (damage) throw damage;
				// A compromised lock means another process may have taken over: stop writing at once.
				const options = catchUpOptions(job, hooks, [lock]);
				const plan = attempt === 0 && planned?.generation === store.generation ? planned.plan : undefined;
				// A pass that would change nothing writes nothing (no count, no settling): Pi's at every session start.
				const fresh = plan ?? (job.checkStore ? undefined : planPass(store.db, options));
				if (plan === undefined && fresh !== undefined && store.fresh !== "corrupt" && planIsEmpty(store.db, fresh)) {
					store.close();
					return reportedIdle(hooks);
				}
				const result = await catchUp(store.db, options, fresh);
				settlePass(store.db);
				store.close();
				// Damage found here, or by the open that moved the damaged generation aside before this pass.
				const recovered = attempt > 0 || store.fresh === "corrupt";
				return recovered ? { kind: "done", result, recovered } : { kind: "done", result };
			} catch (err) {
				if (attempt > 0 || !isStoreDamage(err)) {
					store.close();
					throw err;
				}
				opened = await recoverCorruptStore(store, err, { lockStaleMs: job.lockStaleMs });
				if (!opened.ok) return { kind: "failed", error: opened.error };
			}
		}
	} catch (err) {
		return { kind: "failed", error: storeErrorText(err) };
	} finally {
		await lock.release();
	}
}

/**
 * A catch-up that plans its pass before taking the lock, as the CLI's does (IndexManager's `plan`): a pass that would
 * change nothing ends there, having taken no lock and written nothing, and while it plans (`hooks.planning`) the job
 * may be ended at once. Pi's catch-up worker runs this at every session start, and Pi's print mode closes before the
 * plan of a large corpus is done (docs/lifecycle.md, "Discovery and catch-up"). A check of the store (`reindex`), a
 * read-only or a damaged store go straight to runCatchUpJob, which decides them under the lock.
 */
export async function runPlannedCatchUpJob(job: CatchUpJob, hooks: JobHooks = {}): Promise<CatchUpOutcome> {
	if (job.checkStore) return runCatchUpJob(job, hooks);
	// Another live process catching up would make the plan wasted work: skipped at once, as under the lock.
	if (heldByLiveProcess(await lockHolderInfo(job.indexDir, CATCH_UP_LOCK)))
		return { kind: "skipped", reason: "locked" };
	const opened = await openStore({ dir: job.indexDir, lockStaleMs: job.lockStaleMs });
	if (!opened.ok || opened.store.readOnly || opened.store.fresh === "corrupt") {
		if (opened.ok) opened.store.close();
		return runCatchUpJob(job, hooks);
	}
	const store = opened.store;
	let planned: PlannedPass | undefined;
	try {
		hooks.planning?.(true);
		// The options the pass under the lock plans with (no lock yet to watch).
		const plan = planUnlessIdle(store.db, catchUpOptions(job, hooks, []), idleTrust(job, store.generation));
		if (!plan) return reportedIdle(hooks);
		planned = { generation: store.generation, plan };
	} catch {
		// Damage or a failure while planning: the pass under the lock meets it too and handles it.
	} finally {
		hooks.planning?.(false);
		store.close();
	}
	// A stop that came while it planned (close() ending a planning worker posts one first) is seen before the lock.
	await new Promise<void>((r) => setImmediate(r));
	if (hooks.shouldStop?.()) return nothingDone(true);
	return runCatchUpJob(job, hooks, planned);
}
