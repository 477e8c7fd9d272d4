/**
 * The lifecycle manager the extension and the CLI use: open the shared store without scanning anything, sync
 * the caller's own file on the hot path, run whole-corpus catch-up in a worker thread (only in the process holding
 * the catch-up lock), report coverage, and release everything on close.
 */
import { Worker } from "node:worker_threads";
import { BACKGROUND_THREADS, type CatchUpThreads } from "../config/threads.js";
import type { CatchUpProgress, Coverage } from "../contract.js";
import { isStoreDamage } from "../store/db.js";
import { DriverLoadError, type SqliteDb } from "../store/driver.js";
import { heldByLiveProcess, lockHolderInfo } from "../store/lock-holder.js";
import { type OpenStoreResult, openStore, recoverCorruptStore, type Store } from "../store/open-store.js";
import { catchUpWanted, computeCoverage } from "../store/source-counts.js";
import { secretRedactionOn } from "../text/redact.js";
import type { CatchUpJob, CatchUpOutcome, PlannedPass } from "./catch-up-job.js";
import { emptyCatchUpResult, idleTrust, inWorkspaceOf, nothingDone, planUnlessIdle } from "./catch-up-plan.js";
import type { WorkerJob, WorkerMessage } from "./catch-up-worker.js";
import { DeferredCheckpoint } from "./deferred-checkpoint.js";
import { confinementOf, type DiscoveryRoot } from "./discover.js";
import {
	type ForgetCandidate,
	type ForgetSelection,
	forgetCandidates,
	tombstoneOf,
	tombstonesMatching,
} from "./forget.js";
import { Forgotten, type Tombstone } from "./forgotten.js";
import { IndexUnavailableError } from "./index-unavailable.js";
import { CATCH_UP_LOCK, REBUILD_LOCK } from "./lock-names.js";
import type { RebuildOutcome } from "./rebuild.js";
import { SourceSyncer, type SyncResult, unchangedResult } from "./sync-source.js";
import { announceWrite, writeDone } from "./write-intent.js";

export interface IndexManagerOptions {
	indexDir: string;
	roots: DiscoveryRoot[];
	/** Files indexed wherever they live (the current session file). */
	extraFiles?: string[];
	/** Directories holding the caller's workspace sessions; catch-up does them first. */
	workspaceDirs?: string[];
	/** Run catch-up in a worker thread (default) or in slices on this thread. */
	useWorker?: boolean;
	/** Threads of a catch-up or rebuild (catch-up-job.ts; default BACKGROUND_THREADS). */
	catchUpThreads?: CatchUpThreads;
	/** Lock staleness threshold in ms (tests only). */
	lockStaleMs?: number;
	/** The person's `excludeWorkspaces` globs (forgotten.ts). */
	excludeWorkspaces?: string[];
	/** How long a full check is trusted for idle files, in seconds (full-check.ts; default DEFAULT_IDLE_RECHECK_SECONDS). */
	idleRecheckSeconds?: number;
}

/** The error an index that cannot open throws: the driver's own when SQLite itself cannot load. */
function unavailable(failed: Extract<OpenStoreResult, { ok: false }>): Error {
	return failed.code === "driver"
		? new DriverLoadError(failed.error)
		: new IndexUnavailableError(failed.error, failed.sqliteCode);
}

/** How long `unforget` waits for the write lock to index a session again (a person waits for it). */
const FORGET_BUSY_WAIT_MS = 30_000;

/** Hot-path syncs commit in small batches and yield between them, so Pi's event loop never stalls long. */
const HOT_PATH_BATCH_BYTES = 256 << 10;
/**
 * The hot path's frame budget: the longest one attempt to take the write lock may block Pi's thread. Zero: it never
 * waits in SQLite's busy handler (which sleeps up to 100 ms between tries, blocking the event loop) but polls every
 * millisecond; a writer frozen inside a transaction (a `reindex` stopped with Ctrl-Z) then costs nothing blocked.
 */
const HOT_PATH_BUSY_TIMEOUT_MS = 0;
/**
 * How long after it began the hot path's sync keeps retrying a lock held elsewhere before answering from the index
 * as it is: its own newest lines then wait for the next sync. A bulk writer's commit can run FTS5's merge work for
 * longer than a tool call should wait, and so can one batch of a multi-MB line. The whole sync stays within the
 * 100 ms a tool call is allowed, with room for a retry timer that fires late on a busy machine.
 */
export const HOT_PATH_BUSY_WAIT_MS = 80;
/**
 * How long the last sync of a closing Pi session waits for a lock held elsewhere: nobody is waiting for an answer,
 * and lines written after the last turn would otherwise stay unindexed until the next catch-up.
 */
export const SHUTDOWN_BUSY_WAIT_MS = 5_000;
/**
 * The index worker's young generation, by the pass's threads. V8 sizes it for throughput (up to 3 × 16 MiB
 * semi-spaces), and a catch-up allocates fast: a smaller one keeps a one-thread pass's peak RSS down in the same time.
 * A two-thread pass (`reindex`) is the one whose time counts: 4 MiB there kept its peak lowest but cost 7–15 % of a
 * quiet machine's build in scavenges, 16 MiB costs nothing and still peaks under 200 MiB (docs/benchmarks.md,
 * "Figures behind the constants").
 */
const WORKER_YOUNG_GENERATION_MB: Record<CatchUpThreads, number> = { 1: 8, 2: 16 };
/**
 * The index worker's old generation at most. V8 starts a heap's first full collection late and derives that start
 * from this limit, which otherwise is the process's (gigabytes): a lower limit keeps the build's peak RSS down in the
 * same time. Headroom: an 8 MiB line (the longest one indexed) of one-byte, CJK or emoji text indexes within a
 * 40 MiB limit, and test/ingest/bulk-writes.test.ts pins it under this one.
 */
const WORKER_OLD_GENERATION_MB = 128;
const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/** The current generation as the outside sees it. */
export interface GenerationView {
	id: string;
	/** True when this process must not write (newer schema, unwritable directory, or asked to). */
	readOnly: boolean;
	readOnlyReason?: string;
	/** Opening found the generation damaged and moved it aside: the new one is empty until a catch-up fills it. */
	damagedAtOpen: boolean;
}

/** Rows of the current generation. */
export interface RowCounts {
	sources: number;
	events: number;
	fragments: number;
}

/** The hot path's checkpoint scheduler (none for a read-only store). */
function checkpointsFor(store: Store): DeferredCheckpoint | undefined {
	return store.readOnly ? undefined : new DeferredCheckpoint(store.db);
}

export class IndexManager {
	private current: Store;
	private syncer: SourceSyncer;
	private checkpoints: DeferredCheckpoint | undefined;
	private running: Promise<CatchUpOutcome> | undefined;
	/** Live worker threads (a rebuild may run beside a catch-up). */
	private readonly workers = new Set<Worker>();
	/**
	 * The workers that may be ended at once, losing nothing: still loading their modules, or planning a pass (reading
	 * only, no lock: catch-up-job.ts `runPlannedCatchUpJob`). Closing waits for the others to finish their open batch.
	 */
	private readonly endable = new Set<Worker>();
	private stopRequested = false;
	private lastProgress: CatchUpProgress | undefined;
	private readonly listeners = new Set<(p: CatchUpProgress) => void>();
	private closed = false;
	/** Set when recovery replaced the generation: a catch-up running meanwhile must run again. */
	private generationReplaced = false;
	/** Forgotten sessions, which no sync of this process indexes (forgotten.ts). */
	readonly forgotten: Forgotten;

	private constructor(
		private readonly options: IndexManagerOptions,
		store: Store,
	) {
		this.forgotten = new Forgotten(options.indexDir, options.excludeWorkspaces);
		this.current = store;
		this.syncer = this.syncerFor(store);
		this.checkpoints = checkpointsFor(store);
	}

	/** The hot path's syncer for `store`: a new source is confined as discovery would confine it (discover.ts). */
	private syncerFor(store: Store): SourceSyncer {
		return new SourceSyncer(store.db, {
			confine: (path) => confinementOf(path, this.options.roots),
			forgotten: this.forgotten,
		});
	}

	/** Opens (and if needed migrates) the shared store. Reads no session file. */
	static async open(options: IndexManagerOptions): Promise<IndexManager> {
		const opened = await openStore({ dir: options.indexDir, lockStaleMs: options.lockStaleMs });
		if (!opened.ok) throw unavailable(opened);
		try {
			return new IndexManager(options, opened.store);
		} catch (err) {
			// Preparing the sync statements found the schema damaged (e.g. a table gone): replace the generation once.
			if (!isStoreDamage(err) || opened.store.readOnly) {
				opened.store.close();
				throw err;
			}
			const fresh = await recoverCorruptStore(opened.store, err, { lockStaleMs: options.lockStaleMs });
			if (!fresh.ok) throw unavailable(fresh);
			return new IndexManager(options, fresh.store);
		}
	}

	/** The store as last opened; call `refresh()` first to follow a newly published generation. */
	get store(): Store {
		return this.current;
	}

	/** The current generation's connection, as the query services take it (the callers never see the store). */
	get queryDb(): SqliteDb {
		return this.current.db;
	}

	/** What the CLI and `/event-index status` report of the current generation. */
	get generation(): GenerationView {
		const s = this.current;
		return {
			id: s.generation,
			readOnly: s.readOnly,
			readOnlyReason: s.readOnlyReason,
			damagedAtOpen: s.fresh === "corrupt",
		};
	}

	/** Row counts of the current generation (after following a newly published one). */
	async rowCounts(): Promise<RowCounts> {
		const { db } = await this.refresh();
		const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
		return { sources: count("sources"), events: count("events"), fragments: count("fragments") };
	}

	/** Switches to a newly published generation (after a rebuild or recovery) without a restart. */
	async refresh(): Promise<Store> {
		if (this.closed || this.current.isCurrent()) return this.current;
		const opened = await openStore({ dir: this.options.indexDir, lockStaleMs: this.options.lockStaleMs });
		if (opened.ok) {
			const old = this.current;
			this.current = opened.store;
			this.syncer = this.syncerFor(opened.store);
			this.checkpoints?.cancel();
			this.checkpoints = checkpointsFor(opened.store);
			old.close();
		}
		return this.current;
	}

	/**
	 * Handles an error thrown by anything that used this store. Damage (corruption, a table gone) moves the generation
	 * aside and opens a fresh one, as a corrupt file found at open does; the caller then starts a catch-up to refill
	 * it. Returns true when it recovered, false when the error was not damage (or the store is read-only).
	 */
	async recoverFromDamage(err: unknown): Promise<boolean> {
		if (this.closed || !isStoreDamage(err) || this.current.readOnly) return false;
		const damaged = this.current;
		this.generationReplaced = true;
		// Another process may have recovered already: then following its new generation is all there is to do.
		if (!damaged.isCurrent()) {
			await this.refresh();
			return true;
		}
		const reopened = await recoverCorruptStore(damaged, err, { lockStaleMs: this.options.lockStaleMs });
		if (!reopened.ok) return false;
		this.current = reopened.store;
		this.syncer = this.syncerFor(reopened.store);
		return true;
	}

	/** Brings one file up to date (the hot path before every tool call); `busyWaitMs` bounds the wait for the lock. */
	async syncFile(path: string, busyWaitMs = HOT_PATH_BUSY_WAIT_MS): Promise<SyncResult> {
		const store = await this.refresh();
		if (store.readOnly || this.syncer.unchanged(path)) return unchangedResult();
		// Tell a catch-up in any process to let this write in between its batches.
		announceWrite(this.options.indexDir);
		try {
			return await this.syncer.sync(path, {
				batchBytes: HOT_PATH_BATCH_BYTES,
				between: yieldToLoop,
				busyTimeoutMs: HOT_PATH_BUSY_TIMEOUT_MS,
				busyWaitMs,
			});
		} finally {
			writeDone(this.options.indexDir);
			this.checkpoints?.schedule();
		}
	}

	/**
	 * The indexed sessions `sel` names; with `act`, each is tombstoned and dropped from the index in one write
	 * transaction, so every process's next answer is without it and no later sync brings it back. Throws ForgetError
	 * for a selection that names no session or several by one prefix.
	 */
	async forget(sel: ForgetSelection, act: boolean): Promise<ForgetCandidate[]> {
		const store = await this.writable();
		const found = forgetCandidates(store.db, sel);
		if (act && found.length > 0) {
			const now = new Date();
			this.syncer.removeSources(
				found.map((c) => c.sourceId),
				() => this.forgotten.record(...found.map((c) => tombstoneOf(c, now))),
			);
		}
		return found;
	}

	/** Takes back the tombstones of session `id` (or a unique prefix) and indexes their files again; returns them. */
	async unforget(id: string): Promise<Tombstone[]> {
		await this.writable();
		const matched = tombstonesMatching(this.options.indexDir, id);
		if (matched.length === 0) return [];
		this.syncer.removeSources([], () => this.forgotten.drop(matched.map((t) => t.path)));
		for (const t of matched) await this.syncFile(t.path, FORGET_BUSY_WAIT_MS);
		return matched;
	}

	private async writable(): Promise<Store> {
		const store = await this.refresh();
		if (store.readOnly)
			throw new IndexUnavailableError(`the index cannot be written: ${store.readOnlyReason ?? "read-only"}`);
		return store;
	}

	/**
	 * Starts background catch-up unless one is already running here (which it then joins); resolves when it ends.
	 * `checkStore`: check every page of the store first (`reindex`; catch-up-job.ts).
	 */
	startCatchUp(options: { checkStore?: boolean } = {}): Promise<CatchUpOutcome> {
		if (this.closed) return Promise.resolve({ kind: "skipped", reason: "locked" });
		this.running ??= this.runCatchUpUntilCurrent(options.checkStore === true).finally(() => {
			this.running = undefined;
		});
		return this.running;
	}

	get catchUpRunning(): boolean {
		return this.running !== undefined;
	}

	/**
	 * The running (or last) catch-up's progress. A run reports once its discovery is done (done 0), so while one
	 * runs, undefined means it has not yet counted the files: coverage still holds the previous discovery's count.
	 */
	get progress(): CatchUpProgress | undefined {
		return this.lastProgress;
	}

	onProgress(listener: (p: CatchUpProgress) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private job(): CatchUpJob {
		return {
			indexDir: this.options.indexDir,
			roots: this.options.roots,
			extraFiles: this.options.extraFiles ?? [],
			workspaceDirs: this.options.workspaceDirs ?? [],
			lockStaleMs: this.options.lockStaleMs,
			threads: this.options.catchUpThreads ?? BACKGROUND_THREADS,
			excludeWorkspaces: this.options.excludeWorkspaces,
			idleRecheckSeconds: this.options.idleRecheckSeconds,
		};
	}

	private emit(p: CatchUpProgress): void {
		this.lastProgress = p;
		for (const l of this.listeners) l(p);
	}

	/** Runs catch-up again when the generation was replaced while it ran (it filled the damaged one). */
	private async runCatchUpUntilCurrent(checkStore: boolean): Promise<CatchUpOutcome> {
		for (;;) {
			this.generationReplaced = false;
			const outcome = await this.runCatchUp(checkStore);
			if (!this.generationReplaced || this.closed) return outcome;
		}
	}

	private runCatchUp(checkStore: boolean): Promise<CatchUpOutcome> {
		this.stopRequested = false;
		// Until this run reports, it has not discovered the files (see `progress`).
		this.lastProgress = undefined;
		const hooks = { shouldStop: () => this.stopRequested, onProgress: (p: CatchUpProgress) => this.emit(p) };
		const job = { ...this.job(), ...(checkStore ? { checkStore } : {}) };
		return this.runJob({ ...job, mode: "catch-up" }, async () => {
			const planned = checkStore ? undefined : await this.plan();
			if (planned?.idle) return planned.idle;
			return (await import("./catch-up-job.js")).runCatchUpJob(job, hooks, planned?.pass);
		});
	}

	/**
	 * A catch-up run in this thread (its caller waits for it: the CLI before an answer) first plans the pass without
	 * the catch-up lock, a second connection or the writer's modules (catch-up-plan.ts); an empty plan is done, any
	 * other is handed to the pass, which then does not discover again. Files in use and folders are compared every
	 * time; idle files when the last full check is older than the trust window (full-check.ts). Pi's catch-up plans in
	 * its worker, as the pass there does.
	 */
	private async plan(): Promise<{ idle?: CatchUpOutcome; pass?: PlannedPass } | undefined> {
		const started = Date.now();
		const store = await this.refresh();
		if (store.readOnly) return undefined;
		const { roots, extraFiles, workspaceDirs } = this.options;
		try {
			const inWorkspace = inWorkspaceOf(workspaceDirs ?? []);
			const options = { roots, extraFiles, inWorkspace, forgotten: this.forgotten };
			const trust = idleTrust(this.job(), store.generation);
			const plan = planUnlessIdle(store.db, options, trust);
			if (plan) return { pass: { generation: store.generation, plan } };
		} catch {
			// Damage or a failure while planning: the pass meets it too and handles it (a damaged store is rebuilt).
			return undefined;
		}
		const result = { ...emptyCatchUpResult(0), elapsedMs: Date.now() - started };
		this.emit(result);
		return { idle: { kind: "done", result } };
	}

	/**
	 * Rebuilds the whole index into a new generation off this thread (readers keep the current one until the swap),
	 * then follows it. `extraFiles` adds files found since open (e.g. a session file that now exists).
	 */
	async startRebuild(extraFiles: string[] = []): Promise<RebuildOutcome> {
		if (this.closed) return { kind: "skipped", reason: "locked" };
		this.stopRequested = false;
		const job = { ...this.job(), extraFiles: [...new Set([...this.job().extraFiles, ...extraFiles])] };
		const hooks = { shouldStop: () => this.stopRequested, onProgress: (p: CatchUpProgress) => this.emit(p) };
		const outcome = await this.runJob<RebuildOutcome>({ ...job, mode: "rebuild" }, async () =>
			(await import("./rebuild.js")).rebuildStore(job, { ...hooks, lockStaleMs: job.lockStaleMs }),
		);
		await this.refresh();
		return outcome;
	}

	/** Runs a job in a worker thread, or with `inThread` when workers are off or the worker cannot load. */
	private runJob<T extends CatchUpOutcome | RebuildOutcome>(job: WorkerJob, inThread: () => Promise<T>): Promise<T> {
		if (this.options.useWorker === false) return inThread();
		return new Promise<T>((resolvePromise) => {
			let settled = false;
			const settle = (o: T) => {
				if (!settled) {
					settled = true;
					resolvePromise(o);
				}
			};
			const failed = (error: string) => settle({ kind: "failed", error } as T);
			let worker: Worker;
			try {
				worker = new Worker(new URL("./worker-bootstrap.mjs", import.meta.url), {
					workerData: { ...job, redactSecrets: secretRedactionOn() } satisfies WorkerJob,
					resourceLimits: {
						maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB[job.threads ?? BACKGROUND_THREADS],
						maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB,
					},
				});
			} catch (err) {
				failed(`could not start the index worker: ${(err as Error).message}`);
				return;
			}
			this.workers.add(worker);
			this.endable.add(worker);
			// The worker must not keep Pi (or a CLI) alive on its own.
			worker.unref();
			let ready = false;
			let fellBack = false;
			worker.on("message", (m: WorkerMessage) => {
				if (m.type === "ready") {
					ready = true;
					this.endable.delete(worker);
				} else if (m.type === "planning") {
					if (m.reading) this.endable.add(worker);
					else this.endable.delete(worker);
				} else if (m.type === "progress") this.emit(m.progress);
				else if (m.type === "outcome") settle(m.outcome as T);
			});
			worker.on("error", (err) => {
				if (ready || settled) {
					failed(err.message);
					return;
				}
				// The worker could not even load its modules. Pi's compiled (Bun) binary resolves packages in a
				// worker without reading package.json, so e.g. proper-lockfile's require("graceful-fs") fails
				// there, while this thread loads them through Pi's loader: run the job here, in slices.
				fellBack = true;
				this.workers.delete(worker);
				inThread().then(settle, (e: unknown) => failed(e instanceof Error ? e.message : String(e)));
			});
			worker.on("exit", () => {
				this.workers.delete(worker);
				this.endable.delete(worker);
				if (fellBack) return;
				// Ended by close() while it only loaded or planned: a catch-up stopped, not a failure.
				if (this.stopRequested && job.mode === "catch-up") settle(nothingDone(true) as T);
				else failed("the index worker exited early");
			});
		});
	}

	/** Waits up to `ms` for the running catch-up; true when none is running at the end. */
	async waitForCatchUp(ms: number): Promise<boolean> {
		const running = this.running;
		if (!running) return true;
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<false>((r) => {
			timer = setTimeout(() => r(false), ms);
		});
		const done = await Promise.race([running.then(() => true as const), timeout]);
		clearTimeout(timer);
		return done;
	}

	/**
	 * True when the index lacks files a catch-up would add (catchUpWanted) and nobody is adding them: no catch-up
	 * runs here, none is held by a live process (a holder that quit released its lock, a killed one's goes stale),
	 * and the store is writable. Follows a newly published generation first, so an index directory deleted under
	 * this process comes back here as a fresh generation that wants a catch-up.
	 */
	async needsCatchUp(): Promise<boolean> {
		if (this.closed || this.running) return false;
		const store = await this.refresh();
		if (store.readOnly || !catchUpWanted(store.db)) return false;
		return !heldByLiveProcess(await lockHolderInfo(this.options.indexDir, CATCH_UP_LOCK));
	}

	/** Coverage of the index as every process sees it (counts from the store, lock states from the index dir). */
	async coverage(): Promise<Coverage> {
		const db = (await this.refresh()).db;
		const rebuilding = heldByLiveProcess(await lockHolderInfo(this.options.indexDir, REBUILD_LOCK));
		const catchingUp =
			this.catchUpRunning || heldByLiveProcess(await lockHolderInfo(this.options.indexDir, CATCH_UP_LOCK));
		const readOnlyReason = this.current.readOnly ? (this.current.readOnlyReason ?? "not writable") : undefined;
		return computeCoverage(db, { rebuilding, catchingUp, readOnlyReason });
	}

	/** Stops the worker (finishing its open batch), releases locks and closes handles. Safe to call twice. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.stopRequested = true;
		this.checkpoints?.cancel();
		for (const w of this.workers) w.postMessage({ type: "stop" });
		const running = this.running;
		// A worker that only loads or plans has nothing to finish: Pi's print mode ends before a large corpus's plan.
		const writing = [...this.workers].some((w) => !this.endable.has(w));
		if (running && writing) await this.waitForCatchUp(5_000);
		// A worker that did not finish its open batch in time is ended; its transaction rolls back.
		await Promise.all([...this.workers].map((w) => w.terminate()));
		this.closed = true;
		this.current.close();
	}
}
