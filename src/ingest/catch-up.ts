/**
 * Catch-up of the whole corpus: discover every session file, sync the changed ones (caller's workspace first,
 * newest first) in small transactions, and drop the rows of files that are gone. Runs only in the process that
 * holds the catch-up lock (see catch-up-worker.ts); this module is the lock-free core.
 */
import { DEFAULT_MAX_LINE_BYTES } from "../parse/parse-chunk.js";
import type { SqliteDb } from "../store/db.js";
import { KNOWN_SOURCES_KEY } from "../store/source-counts.js";
import { type DiscoveryRoot, discoverFiles, orderForCatchUp } from "./discover.js";
import { type CheckpointFacts, matchesCheckpoint } from "./file-facts.js";
import { GroupCommit } from "./group-commit.js";
import { Prefetch } from "./prefetch.js";
import { chunkBytesOf, DEFAULT_BATCH_BYTES } from "./read-batch.js";
import { planTreeStates, type StatePlan } from "./state-plan.js";
import { BatchFailed, SourceSyncer, type SyncOptions, type SyncResult } from "./sync-source.js";

/** Progress of one catch-up pass, reported after every file. */
export interface CatchUpProgress {
	total: number;
	done: number;
	indexed: number;
	failed: number;
	removed: number;
	bytesRead: number;
	entriesAdded: number;
	/** Older events whose tree states changed (their FTS rows were tokenized again). */
	statesChanged: number;
	elapsedMs: number;
}

export interface CatchUpOptions {
	roots: DiscoveryRoot[];
	/** Files to include wherever they live (e.g. the current session file). */
	extraFiles?: string[];
	/** Files in the caller's workspace are synced first. */
	inWorkspace?: (path: string) => boolean;
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
}

export interface CatchUpResult extends CatchUpProgress {
	stopped: boolean;
	/** Input bytes the writer took parsed and projected from the prefetch thread. */
	prefetchedBytes: number;
	errors: Array<{ path: string; error: string }>;
}

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

interface StoredFacts extends CheckpointFacts {
	path: string;
}

export async function catchUp(db: SqliteDb, options: CatchUpOptions): Promise<CatchUpResult> {
	const started = Date.now();
	const between = options.between ?? yieldToLoop;
	const files = discoverFiles(options.roots, options.extraFiles ?? []);
	const ordered = orderForCatchUp(files, options.inWorkspace ?? (() => false));
	const stored = new Map(
		(
			db
				.prepare(
					"SELECT path, dev, ino, size, mtime_ms AS mtimeMs, synced_at AS syncedAt, last_error AS lastError FROM sources",
				)
				.all() as StoredFacts[]
		).map((r) => [r.path, r]),
	);
	db.transaction(() =>
		db
			.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
			.run(KNOWN_SOURCES_KEY, String(files.length)),
	);

	const discovered = new Set(files.map((f) => f.path));
	// Rows whose files were not discovered: gone files are removed, files outside these roots are kept.
	const vanished = [...stored.keys()].filter((p) => !discovered.has(p));
	// The sync's own unchanged rule (identity included), checked here without opening a transaction.
	const work = ordered.filter((f) => {
		const row = stored.get(f.path);
		return !row || !matchesCheckpoint(row, f);
	});
	const progress: CatchUpResult = {
		total: work.length + vanished.length,
		done: 0,
		indexed: 0,
		failed: 0,
		removed: 0,
		bytesRead: 0,
		entriesAdded: 0,
		statesChanged: 0,
		elapsedMs: 0,
		stopped: false,
		prefetchedBytes: 0,
		errors: [],
	};
	// Discovery is done: the meta row's count is current, so coverage now tells what is missing.
	options.onProgress?.({ ...progress });
	const group = options.groupMs === undefined ? undefined : new GroupCommit(db, options.groupMs, options.commitNow);
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
	const prefetch = await startPrefetch(
		work.filter((f) => !stored.has(f.path)),
		options,
	);
	const syncer = new SourceSyncer(db, {
		...options.sync,
		prepared: prefetch,
		between: pause,
		shouldStop: options.shouldStop,
	});
	// A new file longer than one batch gets its final tree states planned first (state-plan.ts), outside the write
	// transaction: by the prefetch thread, or here once the open group is committed, so the parse never holds the lock.
	const planBytes = options.sync?.batchBytes ?? DEFAULT_BATCH_BYTES;
	const planFor = (file: { path: string; size: number }): StatePlan | undefined => {
		if (stored.has(file.path) || file.size <= planBytes) return undefined;
		const prefetched = prefetch?.plan(file.path);
		if (prefetched) return prefetched.plan;
		group?.commit();
		try {
			return planTreeStates(file.path, options.sync?.maxLineBytes);
		} catch {
			return undefined; // unreadable now: the sync itself meets the error and records it
		}
	};
	const syncOne = async (path: string, statePlan?: StatePlan): Promise<SyncResult> => {
		if (!group) return syncer.sync(path, { statePlan });
		group.join(path);
		const contended = options.contendedSync !== undefined && (options.commitNow?.() ?? false);
		// A contended file reads in small batches itself: a prepared chunk would hold the lock for a whole chunk.
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
	};
	const account = (path: string, r: SyncResult) => {
		progress.done++;
		progress.bytesRead += r.bytesRead;
		progress.entriesAdded += r.entriesAdded;
		progress.statesChanged += r.statesChanged;
		if (r.status === "failed") {
			progress.failed++;
			if (progress.errors.length < 100) progress.errors.push({ path, error: r.error ?? "unknown error" });
		} else if (r.status === "removed") progress.removed++;
		else if (r.status === "indexed" || r.status === "reindexed") progress.indexed++;
		progress.elapsedMs = Date.now() - started;
		options.onProgress?.({ ...progress });
	};

	try {
		// New and changed files first (a moved file is re-keyed here before its old path is seen as gone).
		for (const file of work) {
			if (options.shouldStop?.()) {
				progress.stopped = true;
				return progress;
			}
			account(file.path, await syncOne(file.path, planFor(file)));
			await pause();
		}
		for (const path of vanished) {
			if (options.shouldStop?.()) {
				progress.stopped = true;
				return progress;
			}
			account(path, await syncOne(path));
			await pause();
		}
	} finally {
		// Every batch in the group is complete (savepoints released or rolled back): committing keeps them.
		group?.commit();
		progress.prefetchedBytes = prefetch?.stats.bytes ?? 0;
		await prefetch?.close();
	}
	progress.elapsedMs = Date.now() - started;
	return progress;
}

/** A prefetch thread for the pass's new files when they are worth one (`prefetchMinBytes`). */
async function startPrefetch(
	fresh: ReadonlyArray<{ path: string; size: number }>,
	options: CatchUpOptions,
): Promise<Prefetch | undefined> {
	const min = options.prefetchMinBytes;
	if (min === undefined || fresh.length === 0 || fresh.reduce((n, f) => n + f.size, 0) < min) return undefined;
	const sync = options.sync ?? {};
	return Prefetch.start(
		fresh.map((f) => f.path),
		{
			batchBytes: sync.batchBytes ?? DEFAULT_BATCH_BYTES,
			chunkBytes: chunkBytesOf(sync),
			maxLineBytes: sync.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
		},
	);
}
