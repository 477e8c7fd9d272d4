/**
 * One extension instance's handle on the shared index: opens it in the background (no scan), starts catch-up,
 * syncs the caller's own file before each query, waits a bounded time on a cold index, and closes everything.
 * Never throws out of the lifecycle methods; queries get a public error when the index is unavailable.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CatchUpProgress, Coverage } from "../contract.js";
import { createLogger, errorFields, type LogLevel, type StoreLogger } from "../files/log.js";
import type { CallerContext, QueryDb, QueryOptions } from "../query/index.js";
import {
	type CatchUpOutcome,
	DriverLoadError,
	isStoreDamage,
	openWorkspaceIndex,
	type RebuildOutcome,
	SHUTDOWN_BUSY_WAIT_MS,
	type SyncStatus,
	type WorkspaceIndex,
} from "../workspace-index.js";
import { DAMAGED_MESSAGE, PublicError, publicReason } from "./public-errors.js";

/** Coverage note when the caller's own file could not be synced because another process holds the write lock. */
export const CALLER_BEHIND = "this session's newest entries are not indexed yet (another process is writing the index)";

/** How the runtime is opened. */
export interface IndexRuntimeOptions {
	cwd: string;
	/** The session file as Pi reports it (may be relative, may not exist yet, undefined with --no-session). */
	sessionFile?: string;
	/** Environment for Pi's paths and the index location (default process.env). */
	env?: NodeJS.ProcessEnv;
	/** Start background catch-up once open (still subject to the config's catchUp.enabled). */
	catchUp?: boolean;
	/** Called once with the configuration problems (file + key messages). */
	onProblems?: (problems: string[]) => void;
	/** Catch-up progress, for Pi's status line. */
	onProgress?: (p: CatchUpProgress | undefined) => void;
	/** Called once when the index cannot be opened (a path-free reason); the tools then answer with it. */
	onOpenFailed?: (reason: string) => void;
}

/** The per-call identity of the caller, taken from Pi's context inside `execute`. */
export interface CallIdentity {
	cwd: string;
	sessionFile?: string;
	sessionId?: string;
	cutoffEntryId?: string;
}

/** What a query callback receives. */
export interface QueryScope {
	/** The current generation's connection, for the query services. */
	db: QueryDb;
	index: WorkspaceIndex;
	caller: CallerContext;
	options: QueryOptions;
	coverage: Coverage;
}

/** Status as `/event-index status` shows it. */
export interface RuntimeStatus {
	open: boolean;
	error?: string;
	indexDir?: string;
	generation?: string;
	readOnly?: boolean;
	coverage?: Coverage;
	counts?: { sources: number; events: number; fragments: number };
	/** Session files forgotten (ingest/forgotten.ts). */
	forgotten?: number;
	catchUpRunning: boolean;
	progress?: CatchUpProgress;
	problems: string[];
	/** The workspace config's widening keys that were ignored (one line), if any. */
	refused?: string;
	logFile?: string;
}

/** Resolves Pi's session file against the cwd (Pi reports it relative when the session dir is relative). */
export function resolveSessionFile(cwd: string, file: string | undefined): string | undefined {
	return file ? resolve(cwd, file) : undefined;
}

/** How often a first call rechecks coverage while it waits for catch-up. */
const COLD_WAIT_POLL_MS = 50;

/**
 * How often a running Pi looks for an index that is partial while nobody catches up (another Pi's catch-up, for which
 * this one's was skipped, quit or died; the index directory was deleted), and the least time between two catch-ups
 * it starts so. A check is a stat of the pointer and of the lock and a few counts on partial indexes.
 */
const RESUME_CHECK_MS = 3_000;
/**
 * The longest wait between two such catch-ups while they end without making the index complete (one that fails, a
 * disk that is full): the wait doubles from RESUME_CHECK_MS up to this, and starts again once the index is complete.
 */
const RESUME_BACKOFF_MAX_MS = 300_000;

/** This process's catch-up runs and has not yet counted the session files (IndexManager.progress). */
function undiscovered(index: WorkspaceIndex): boolean {
	return index.manager.catchUpRunning && index.manager.progress === undefined;
}

export class IndexRuntime {
	private index: WorkspaceIndex | undefined;
	private openError: string | undefined;
	private readonly opening: Promise<WorkspaceIndex | undefined>;
	private logger: StoreLogger | undefined;
	private closed = false;
	/** Shutdown has begun: an index that opens now only takes the session's last lines (no catch-up to cut off). */
	private finishing = false;
	private coldWaitDone = false;
	private unsubscribe: (() => void) | undefined;
	private catchUpPromise: Promise<CatchUpOutcome> | undefined;
	/** Looks for a partial index nobody catches up (RESUME_CHECK_MS). */
	private resumeTimer: NodeJS.Timeout | undefined;
	private resumeChecking = false;
	/** No catch-up is resumed before this time; `resumeGap` is the next wait (it doubles, see RESUME_BACKOFF_MAX_MS). */
	private resumeAt = 0;
	private resumeGap = RESUME_CHECK_MS;
	private readonly sessionFile: string | undefined;
	/** Syncs under way: close waits for them, so a turn_end sync is never cut off by a shutdown's close. */
	private readonly syncing = new Set<Promise<unknown>>();

	private constructor(private readonly options: IndexRuntimeOptions) {
		this.sessionFile = resolveSessionFile(options.cwd, options.sessionFile);
		this.opening = this.open();
	}

	/** Starts opening the index in the background; never throws. */
	static start(options: IndexRuntimeOptions): IndexRuntime {
		return new IndexRuntime(options);
	}

	private async open(): Promise<WorkspaceIndex | undefined> {
		try {
			// Off the critical path: opening starts after the first tick. (Not a dynamic import of the store code:
			// in Pi's compiled Bun binary a dynamic import bypasses Pi's loader and cannot resolve packages.)
			await new Promise((r) => setImmediate(r));
			if (this.closed) return undefined;
			const index = await openWorkspaceIndex({
				cwd: this.options.cwd,
				env: this.options.env,
				sessionFile: this.sessionFile,
			});
			this.logger = createLogger(index.config.indexDir);
			if (index.refused) this.log("warn", "config_refused", { notice: index.refused });
			if (index.problems.length > 0) {
				for (const problem of index.problems) this.log("warn", "config_problem", { problem });
				this.options.onProblems?.(index.problems);
			}
			if (this.closed) {
				await index.manager.close();
				return undefined;
			}
			this.index = index;
			this.unsubscribe = index.manager.onProgress((p) => this.options.onProgress?.(p));
			if (this.options.catchUp !== false && index.config.catchUp.enabled && !this.finishing) {
				this.startCatchUp();
				this.resumeTimer = setInterval(() => void this.resumeIfIdle(), RESUME_CHECK_MS);
				// The timer must not keep Pi alive on its own.
				this.resumeTimer.unref();
			}
			return index;
		} catch (err) {
			this.openError = publicReason(err);
			this.log("error", "open_failed", errorFields(err));
			// The person is shown where to run the fix; the model gets it with paths shortened.
			if (!this.closed) this.options.onOpenFailed?.(err instanceof DriverLoadError ? err.message : this.openError);
			return undefined;
		}
	}

	/** This process's running catch-up or rebuild, if any (a partial coverage says when to retry from its pace). */
	get progress(): CatchUpProgress | undefined {
		return this.index?.manager.catchUpRunning ? this.index.manager.progress : undefined;
	}

	/** Appends to the index's local log (a no-op until the index dir is known). */
	log(level: LogLevel, event: string, fields?: Record<string, unknown>): void {
		this.logger?.log(level, event, fields);
	}

	/** The open index, or a public error saying why there is none. */
	async ready(): Promise<WorkspaceIndex> {
		const index = await this.opening;
		if (this.closed) throw new PublicError("event index unavailable: the session is shutting down");
		if (!index) throw new PublicError(`event index unavailable: ${this.openError ?? "not open"}`);
		return index;
	}

	/** Runs background catch-up now (or joins the running one); resolves with its outcome. */
	startCatchUp(): Promise<CatchUpOutcome> {
		const index = this.index;
		if (!index || this.closed) return Promise.resolve({ kind: "failed", error: "the index is not open" });
		if (!this.catchUpPromise) {
			this.catchUpPromise = index.manager.startCatchUp().then((outcome) => {
				this.catchUpPromise = undefined;
				// A run that ends after close (its worker ended then) reports to no one: Pi's context may be stale.
				if (!this.closed) this.options.onProgress?.(undefined);
				if (outcome.kind === "failed") this.log("warn", "catch_up_failed", { error: outcome.error });
				else if (outcome.kind === "skipped")
					this.log("info", "catch_up", { outcome: outcome.kind, reason: outcome.reason });
				else {
					const { total, indexed, removed, failed, stopped } = outcome.result;
					this.log("info", "catch_up", { outcome: outcome.kind, total, indexed, removed, failed, stopped });
				}
				return outcome;
			});
		}
		return this.catchUpPromise;
	}

	/**
	 * Starts a catch-up when the index is partial and nobody catches up (IndexManager.needsCatchUp): every
	 * RESUME_CHECK_MS and before every tool call, so a catch-up skipped because another Pi held the lock is resumed
	 * once that Pi quits or dies, and a deleted index directory is refilled. Never throws; does not wait for the run.
	 */
	private async resumeIfIdle(): Promise<void> {
		const index = this.index;
		if (!index || this.closed || this.finishing || this.catchUpPromise || this.resumeChecking) return;
		if (Date.now() < this.resumeAt || this.options.catchUp === false || !index.config.catchUp.enabled) return;
		this.resumeChecking = true;
		try {
			if (!(await index.manager.needsCatchUp())) {
				this.resumeGap = RESUME_CHECK_MS;
				return;
			}
			if (this.closed || this.catchUpPromise) return;
			this.log("info", "catch_up_resumed");
			void this.startCatchUp().then((outcome) => {
				// Another process took the lock first: it catches up, and the next check sees whether it still does.
				if (outcome.kind === "skipped") return;
				this.resumeAt = Date.now() + this.resumeGap;
				this.resumeGap = Math.min(this.resumeGap * 2, RESUME_BACKOFF_MAX_MS);
			});
		} catch (err) {
			if (!(await this.recover(index, err))) this.log("warn", "resume_check_failed", errorFields(err));
		} finally {
			this.resumeChecking = false;
		}
	}

	/** Rebuilds the whole index into a new generation (under the rebuild lock), then follows it. */
	async rebuild(): Promise<RebuildOutcome> {
		const index = await this.ready();
		// Runs in the index worker thread, like catch-up: a rebuild of a large corpus must not stall Pi.
		const outcome = await index.manager.startRebuild(this.sessionFile ? [this.sessionFile] : []);
		if (!this.closed) this.options.onProgress?.(undefined);
		this.log(outcome.kind === "failed" ? "warn" : "info", "rebuild", { outcome: outcome.kind });
		return outcome;
	}

	/**
	 * Syncs the caller's file, waits once on a cold index, then runs `fn` against the current store. A damaged store
	 * (found here, in a query, a sync or coverage) is moved aside and rebuilt; the caller gets one generic sentence.
	 */
	async query<T>(who: CallIdentity, fn: (scope: QueryScope) => T): Promise<T> {
		const index = await this.ready();
		try {
			return await this.answer(index, who, fn);
		} catch (err) {
			if (await this.recover(index, err)) throw new PublicError(DAMAGED_MESSAGE);
			throw err;
		}
	}

	/** Moves a damaged generation aside and starts refilling a fresh one; false when `err` is not damage. */
	private async recover(index: WorkspaceIndex, err: unknown): Promise<boolean> {
		if (!isStoreDamage(err)) return false;
		this.log("error", "store_damaged", errorFields(err));
		if (this.closed || !(await index.manager.recoverFromDamage(err))) return true;
		this.coldWaitDone = false;
		if (this.options.catchUp !== false && index.config.catchUp.enabled) void this.startCatchUp();
		return true;
	}

	private async answer<T>(index: WorkspaceIndex, who: CallIdentity, fn: (scope: QueryScope) => T): Promise<T> {
		const sessionFile = resolveSessionFile(who.cwd, who.sessionFile);
		// The caller's own file failing to sync must not hide the rest of the corpus: it is logged, not thrown.
		const synced = await this.syncSessionFile(who.cwd, who.sessionFile);
		await this.resumeIfIdle();
		let coverage = await index.manager.coverage();
		if (!this.coldWaitDone && (coverage.partial || undiscovered(index))) {
			this.coldWaitDone = true;
			coverage = await this.waitWhileCold(index, coverage);
		}
		// Answered from the index as it is: say that this session's newest entries may be missing.
		if (synced === "busy") coverage = { ...coverage, note: `${coverage.note}; ${CALLER_BEHIND}` };
		// A repository that tried to widen what this caller sees is told so in every answer.
		if (index.refused) coverage = { ...coverage, note: `${coverage.note}; ${index.refused}` };
		const caller = index.caller({
			cwd: who.cwd,
			sessionFile,
			sessionId: who.sessionId,
			cutoffEntryId: who.cutoffEntryId,
		});
		const options: QueryOptions = {
			coverage: () => coverage,
			log: (message) => this.log("info", "query", { message }),
		};
		return fn({ db: index.manager.queryDb, index, caller, options, coverage });
	}

	/**
	 * A first call waits up to coldWaitMs for catch-up: while coverage is partial (catch-up here or in another
	 * process), and until this process's own catch-up has discovered the files. Coverage counts files against the
	 * last discovery, so a session written since then (by a Pi without this extension, say) is not missing from it
	 * until then: "complete" before that would be a guess.
	 */
	private async waitWhileCold(index: WorkspaceIndex, coverage: Coverage): Promise<Coverage> {
		const deadline = Date.now() + index.config.budgets.coldWaitMs;
		let current = coverage;
		while ((current.partial || undiscovered(index)) && Date.now() < deadline && !this.closed) {
			const left = deadline - Date.now();
			if (index.manager.catchUpRunning) await index.manager.waitForCatchUp(Math.min(left, COLD_WAIT_POLL_MS));
			else if (current.note?.includes("running")) await new Promise((r) => setTimeout(r, Math.min(left, 100)));
			else break;
			current = await index.manager.coverage();
		}
		return current;
	}

	/** Brings the current session file up to date (turn_end, shutdown); never throws. */
	syncSessionFile(cwd: string, file: string | undefined, busyWaitMs?: number): Promise<SyncStatus | undefined> {
		const path = resolveSessionFile(cwd, file);
		if (!path || !this.index || this.closed || !existsSync(path)) return Promise.resolve(undefined);
		const sync = this.syncPath(this.index, path, busyWaitMs);
		this.syncing.add(sync);
		return sync.finally(() => this.syncing.delete(sync));
	}

	private async syncPath(index: WorkspaceIndex, path: string, busyWaitMs?: number): Promise<SyncStatus> {
		try {
			const result = await index.manager.syncFile(path, busyWaitMs);
			if (result.status === "busy") this.log("info", "sync_busy", { file: path });
			else if (result.status === "failed") this.log("warn", "sync_failed", { file: path, error: result.error });
			else if (result.status !== "unchanged") {
				this.log("debug", "sync", { file: path, status: result.status, bytesRead: result.bytesRead });
			}
			return result.status;
		} catch (err) {
			if (!(await this.recover(index, err))) this.log("warn", "sync_failed", { file: path, ...errorFields(err) });
			return "failed";
		}
	}

	/** Everything `/event-index status` shows. */
	async status(): Promise<RuntimeStatus> {
		const index = await this.opening;
		if (!index) {
			return { open: false, error: this.openError ?? "closed", catchUpRunning: false, problems: [] };
		}
		const counts = await index.manager.rowCounts();
		const generation = index.manager.generation;
		return {
			open: true,
			indexDir: index.config.indexDir,
			generation: generation.id,
			readOnly: generation.readOnly,
			coverage: await index.manager.coverage(),
			counts,
			forgotten: index.manager.forgotten.count(),
			catchUpRunning: index.manager.catchUpRunning,
			progress: index.manager.progress,
			problems: index.problems,
			...(index.refused ? { refused: index.refused } : {}),
			logFile: this.logger?.file,
		};
	}

	/** The session is ending: its file's last lines go in (waiting up to SHUTDOWN_BUSY_WAIT_MS for the lock), then close. */
	async finish(cwd: string, file: string | undefined): Promise<void> {
		// A short run can end before the index finished opening; its lines still go in.
		this.finishing = true;
		await this.opening;
		await this.syncSessionFile(cwd, file, SHUTDOWN_BUSY_WAIT_MS);
		await this.close();
	}

	/** Stops catch-up, releases locks and closes the store. Safe to call twice. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		clearInterval(this.resumeTimer);
		this.unsubscribe?.();
		await Promise.allSettled([...this.syncing]);
		const index = await this.opening;
		if (index) {
			try {
				await index.manager.close();
			} catch (err) {
				this.log("warn", "close_failed", errorFields(err));
			}
		}
		this.index = undefined;
	}
}
