/**
 * Catch-up of the whole corpus: discover every session file, sync the changed ones (caller's workspace first,
 * newest first) in small transactions, and drop the rows of files that are gone. Runs only in the process that
 * holds the catch-up lock (see catch-up-worker.ts); this module is the lock-free core.
 */
import type { CatchUpProgress } from "../contract.js";
import { collectGarbage } from "../runtime.js";
import type { SqliteDb } from "../store/driver.js";
import { repairTorn } from "../store/fts-ledger.js";
import { KNOWN_SOURCES_KEY } from "../store/source-counts.js";
import { type CatchUpResult, emptyCatchUpResult, type PassPlan, type PlanOptions, planPass } from "./catch-up-plan.js";
import { confinementOf, type DiscoveredFile } from "./discover.js";
import { FtsThread } from "./fts-thread.js";
import { GroupCommit } from "./group-commit.js";
import { Prefetch } from "./prefetch.js";
import { type ReadLimits, readLimits } from "./read-batch.js";
import { planTreeStates, type StatePlan } from "./state-plan.js";
import { BatchFailed, SourceSyncer, type SyncOptions, type SyncResult } from "./sync-source.js";
import { passDictionary } from "./text-sample.js";

export interface CatchUpOptions extends PlanOptions {
	sync?: SyncOptions;
	shouldStop?: () => boolean;
	onProgress?: (p: CatchUpProgress) => void;
	/** Called between files and batches; the default yields to the event loop. */
	between?: () => Promise<void>;
	/**
	 * Group files' batches into write transactions of about this many ms (see group-commit.ts); `between` then
	 * runs only when a group is committed. Absent: one transaction per batch.
	 */
	groupMs?: number;
	/** With `groupMs`: commit the open group at once (a hot-path writer is waiting). */
	commitNow?: () => boolean;
	/**
	 * Sync options for a file started while `commitNow()` is true: smaller batches, so a waiting hot-path writer
	 * waits for less (the write lock is held for one batch at a time then).
	 */
	contendedSync?: SyncOptions;
	/**
	 * New files of at least this many bytes in all get a prefetch thread (prefetch.ts) that parses and projects them
	 * beside the writer. Absent: none.
	 */
	prefetchMinBytes?: number;
	/** A full garbage collection after each file that brings the bytes read since the last one to this many. */
	collectEveryBytes?: number;
}

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * Progress is reported after a file at most this often, and always at the start and the end of a pass: one
 * report per file cost a 1 GB cold build 0.7 s of its writing thread (10,000 messages to the parent thread).
 */
export const PROGRESS_EVERY_MS = 100;

export type { CatchUpResult } from "./catch-up-plan.js";

/**
 * Catches the index up. `planned`: the plan the caller made of this store a moment ago, before it took the lock
 * (catch-up-plan.ts), so that discovery runs once; every file it names is checked again by its sync, and a file
 * changed since is the next pass's, as it would be had it changed just after discovery. A torn transaction repaired
 * here drops sources the plan took as synced: then the pass discovers again.
 */
export async function catchUp(db: SqliteDb, options: CatchUpOptions, planned?: PassPlan): Promise<CatchUpResult> {
	const started = Date.now();
	// A transaction a crash left in one of the store's two files is repaired first, so this pass syncs its sources again.
	const repaired = repairTorn(db);
	const pass = recordPass(db, planned !== undefined && repaired === undefined ? planned : planPass(db, options));
	const progress = emptyCatchUpResult(pass.work.length + pass.vanished.length);
	// Discovery is done: the meta row's count is current, so coverage now tells what is missing.
	options.onProgress?.({ ...progress });
	let sinceCollection = 0;
	let reportedAt = 0;
	const report = (force: boolean) => {
		progress.elapsedMs = Date.now() - started;
		if (!force && progress.elapsedMs - reportedAt < PROGRESS_EVERY_MS) return;
		reportedAt = progress.elapsedMs;
		options.onProgress?.({ ...progress });
	};
	const account = (path: string, r: SyncResult) => {
		addSync(progress, path, r);
		sinceCollection += r.bytesRead;
		if (options.collectEveryBytes !== undefined && sinceCollection >= options.collectEveryBytes) {
			sinceCollection = 0;
			collectGarbage();
		}
		report(false);
	};
	const writer = await PassWriter.open(db, options, pass);
	progress.fullTextThread = writer.fullTextThread;
	try {
		// New and changed files first (a moved file is re-keyed here before its old path is seen as gone), then the
		// stored paths discovery did not see.
		const steps: Array<{ path: string; file?: DiscoveredFile }> = [
			...pass.work.map((file) => ({ path: file.path, file })),
			...pass.vanished.map((path) => ({ path })),
		];
		for (const { path, file } of steps) {
			if (options.shouldStop?.()) {
				progress.stopped = true;
				break;
			}
			account(path, await writer.sync(path, file));
			await writer.pause();
		}
	} finally {
		progress.prefetchedBytes = await writer.close();
	}
	report(true);
	return progress;
}

/** Records what discovery found: the count of files (coverage counts them) and the confined sources that became the person's. */
function recordPass(db: SqliteDb, pass: PassPlan): PassPlan {
	db.transaction(() => {
		db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(
			KNOWN_SOURCES_KEY,
			String(pass.found),
		);
		const free = db.prepare("UPDATE sources SET confined_to = NULL WHERE path = ?");
		for (const path of pass.freed) free.run(path);
	});
	return pass;
}

/** Counts one file's sync into the pass's result. */
function addSync(progress: CatchUpResult, path: string, r: SyncResult): void {
	progress.done++;
	progress.bytesRead += r.bytesRead;
	progress.entriesAdded += r.entriesAdded;
	progress.statesChanged += r.statesChanged;
	if (r.status === "failed") {
		progress.failed++;
		if (progress.errors.length < 100) progress.errors.push({ path, error: r.error ?? "unknown error" });
	} else if (r.status === "removed") progress.removed++;
	else if (r.status === "indexed" || r.status === "reindexed") progress.indexed++;
}

/** The writing side of a pass: its group commits, its syncer, its prefetch thread. */
class PassWriter {
	private constructor(
		private readonly options: CatchUpOptions,
		private readonly pass: PassPlan,
		private readonly group: GroupCommit | undefined,
		private readonly syncer: SourceSyncer,
		private readonly prefetch: Prefetch | undefined,
		private readonly ftsThread: FtsThread | undefined,
		/** Yields between files and batches (inside a group, only once the group is due). */
		readonly pause: () => Promise<void>,
	) {}

	static async open(db: SqliteDb, options: CatchUpOptions, pass: PassPlan): Promise<PassWriter> {
		const fresh = pass.work.filter((f) => !pass.stored.has(f.path));
		const read = readLimits(options.sync ?? {});
		// Before any row: every text of the pass is packed against the generation's dictionary, in both threads.
		const dictionary = passDictionary(db, fresh, read);
		const between = options.between ?? yieldToLoop;
		// Assigned below, before the group ever opens (its `between` is the group's pause).
		let syncer: SourceSyncer;
		const hooks = {
			begun: () => syncer.beginWrite(),
			committing: () => syncer.sealWrite(),
			rolledBack: () => syncer.abandonWrite(),
		};
		const group =
			options.groupMs === undefined ? undefined : new GroupCommit(db, options.groupMs, options.commitNow, hooks);
		// Inside a group, yielding waits until the group is due: the write lock is released before any wait, and the
		// next group opens before the next batch (batches inside a group run in its transaction).
		const pause = group
			? async () => {
					if (!group.due()) return;
					group.commit();
					await between();
					group.enter();
				}
			: between;
		const prefetch = await startPrefetch(fresh, options.prefetchMinBytes, read, dictionary);
		// A pass worth a prefetch thread writes its full-text rows from a thread of its own as well (fts-thread.ts).
		const ftsThread = prefetch && (await FtsThread.start(db));
		syncer = new SourceSyncer(
			db,
			{
				...options.sync,
				prepared: prefetch,
				between: pause,
				shouldStop: options.shouldStop,
				confine: (path) => confinementOf(path, options.roots),
			},
			ftsThread,
		);
		return new PassWriter(options, pass, group, syncer, prefetch, ftsThread, pause);
	}

	/** Syncs one file of the pass (`file` when discovery found it: a new one may get its tree states planned first). */
	async sync(path: string, file?: DiscoveredFile): Promise<SyncResult> {
		const { group, syncer, options } = this;
		// A file started while hot-path writers are active reads in small batches itself: a prepared chunk would hold the
		// lock for a whole chunk, and a faster pass loads the hot path more (lifecycle.md, "Two threads"). The prefetch
		// thread waits meanwhile, since its chunks of this file would be dropped.
		const contended = group !== undefined && options.contendedSync !== undefined && (options.commitNow?.() ?? false);
		this.prefetch?.pause(contended);
		const statePlan = file && this.planFor(file);
		if (!group) return syncer.sync(path, { statePlan });
		group.join(path);
		const small = contended ? { ...options.contendedSync, prepared: undefined } : {};
		try {
			return await syncer.sync(path, { ...small, inTransaction: true, statePlan });
		} catch (err) {
			if (!(err instanceof BatchFailed)) throw err;
			// Redo the group's files with a transaction per batch: the failing one records its own failure.
			let result: SyncResult | undefined;
			for (const member of group.rollback()) {
				const r = await syncer.sync(member);
				if (member === path) result = r;
			}
			return result ?? syncer.sync(path);
		}
	}

	/**
	 * A new file longer than one batch gets its final tree states planned first (state-plan.ts), outside the write
	 * transaction: by the prefetch thread, or here once the open group is committed, so the parse never holds the lock.
	 */
	private planFor(file: { path: string; size: number }): StatePlan | undefined {
		if (this.pass.stored.has(file.path) || file.size <= readLimits(this.options.sync ?? {}).batchBytes) {
			return undefined;
		}
		const prefetched = this.prefetch?.plan(file.path);
		if (prefetched) return prefetched.plan;
		this.group?.commit();
		try {
			return planTreeStates(file.path, this.options.sync?.maxLineBytes);
		} catch {
			return undefined; // unreadable now: the sync itself meets the error and records it
		}
	}

	/** True when the pass's full-text rows go to a thread of their own. */
	get fullTextThread(): boolean {
		return this.ftsThread !== undefined;
	}

	/**
	 * Commits the open group and stops the pass's threads (the connection has its full-text file attached again);
	 * returns the input bytes the prefetch thread prepared.
	 */
	async close(): Promise<number> {
		try {
			// Every batch in the group is complete (savepoints released or rolled back): committing keeps them.
			this.group?.commit();
		} finally {
			await this.prefetch?.close();
			await this.ftsThread?.close();
		}
		return this.prefetch?.stats.bytes ?? 0;
	}
}

/** A prefetch thread for the pass's new files when they are worth one (`prefetchMinBytes`). */
async function startPrefetch(
	fresh: ReadonlyArray<{ path: string; size: number }>,
	min: number | undefined,
	read: ReadLimits,
	dictionary: Uint8Array | undefined,
): Promise<Prefetch | undefined> {
	if (min === undefined || fresh.length === 0 || fresh.reduce((n, f) => n + f.size, 0) < min) return undefined;
	return Prefetch.start(
		fresh.map((f) => f.path),
		read,
		dictionary,
	);
}
