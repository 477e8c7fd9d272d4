/**
 * `reindex`: incremental catch-up of every root, in this process, under the same catch-up lock Pi uses; and
 * `reindex --full`: build a new generation beside the current one and publish it (readers switch without a restart).
 *
 * When another process (a running Pi) holds the catch-up lock, `reindex` waits for it and then runs its own pass
 * (which finds little left to do), so "reindex finished" always means "the index was caught up after I asked".
 * `--no-wait` fails at once instead.
 */

import { prepareIndexDir } from "../config/index-dir.js";
import type { Coverage } from "../contract.js";
import type { CatchUpResult } from "../ingest/catch-up.js";
import { CATCH_UP_LOCK } from "../ingest/catch-up-job.js";
import { IndexManager, IndexUnavailableError } from "../ingest/index-manager.js";
import { REBUILD_LOCK, rebuildStore } from "../ingest/rebuild.js";
import { type LockHolderInfo, lockHolderInfo } from "../store/lock.js";
import type { CliContext } from "./context.js";
import { CliError, EXIT, interruptedError } from "./errors.js";
import { formatBytes, formatDuration } from "./format.js";
import type { ProgressReporter } from "./progress.js";
import { coverageWithLocks, lockStates, openExistingStore } from "./status.js";

/** What `reindex` reports (`--json` prints exactly this). */
export interface ReindexReport {
	mode: "incremental" | "full";
	indexDir: string;
	/** The generation the index is at afterwards. */
	generation: string;
	/** Time spent waiting for another process's catch-up lock. */
	waitedMs: number;
	result: CatchUpResult;
	coverage: Coverage;
}

/** Options of the command. */
export interface ReindexOptions {
	full: boolean;
	noWait: boolean;
}

/** What the command needs from the boundary. */
export interface CommandHooks {
	progress: ProgressReporter;
	signal: AbortSignal;
}

const LOCK_POLL_MS = 250;

/** "pid 123 on host" or "another process". */
export function describeHolder(info: LockHolderInfo): string {
	return info.holder ? `pid ${info.holder.pid} on ${info.holder.hostname}` : "another process";
}

function interrupted(): CliError {
	return interruptedError("interrupted; the index keeps everything committed so far");
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		}
		signal.addEventListener("abort", done, { once: true });
	});
}

/**
 * Creates the index directory if needed; a clear error at once when it cannot hold an index. A read-only one is
 * usable: its store opens read-only, searches answer from it, and `reindex` says it is read-only.
 */
function usableIndexDir(ctx: CliContext): void {
	const check = prepareIndexDir(ctx.indexDir);
	if (!check.ok && check.code !== "not_writable")
		throw new CliError(`${check.reason}: ${ctx.indexDir}`, "index_dir_unusable", EXIT.failure, "--index-dir");
}

/** Open the manager for `ctx` (catch-up in this thread, so progress is ours to show). */
export async function openManager(ctx: CliContext): Promise<IndexManager> {
	usableIndexDir(ctx);
	try {
		return await IndexManager.open({
			indexDir: ctx.indexDir,
			roots: ctx.roots,
			extraFiles: ctx.extraFiles,
			workspaceDirs: ctx.workspaceDirs,
			useWorker: false,
		});
	} catch (err) {
		if (err instanceof IndexUnavailableError) throw new CliError(err.message, "index_unavailable");
		throw err;
	}
}

export async function reindexCommand(
	ctx: CliContext,
	opts: ReindexOptions,
	hooks: CommandHooks,
): Promise<ReindexReport> {
	if (opts.full) usableIndexDir(ctx);
	return opts.full ? rebuild(ctx, hooks) : incremental(ctx, opts, hooks);
}

async function incremental(ctx: CliContext, opts: ReindexOptions, hooks: CommandHooks): Promise<ReindexReport> {
	const manager = await openManager(ctx);
	const stopOnAbort = () => void manager.close();
	hooks.signal.addEventListener("abort", stopOnAbort, { once: true });
	try {
		const unsubscribe = manager.onProgress((p) => hooks.progress.update(p));
		const started = Date.now();
		let waitedMs = 0;
		let announced = false;
		for (;;) {
			if (hooks.signal.aborted) throw interrupted();
			const outcome = await manager.startCatchUp();
			if (hooks.signal.aborted) throw interrupted();
			if (outcome.kind === "failed") throw new CliError(`reindex failed: ${outcome.error}`, "reindex_failed");
			if (outcome.kind === "done") {
				unsubscribe();
				hooks.progress.end();
				if (outcome.result.stopped) throw interrupted();
				return {
					mode: "incremental",
					indexDir: ctx.indexDir,
					generation: manager.store.generation,
					waitedMs,
					result: outcome.result,
					coverage: await manager.coverage(),
				};
			}
			if (outcome.reason === "read-only") {
				throw new CliError(
					`the index in ${ctx.indexDir} is read-only (${manager.store.readOnlyReason ?? "not writable"}); nothing was indexed`,
					"read_only",
				);
			}
			const holder = describeHolder(await lockHolderInfo(ctx.indexDir, CATCH_UP_LOCK));
			if (opts.noWait) {
				throw new CliError(
					`${holder} is catching up the index in ${ctx.indexDir}; try again later, or run reindex without --no-wait to wait for it`,
					"lock_held",
				);
			}
			if (!announced) {
				hooks.progress.note(`waiting for ${holder}, which holds the catch-up lock…`);
				announced = true;
			}
			await sleep(LOCK_POLL_MS, hooks.signal);
			waitedMs = Date.now() - started;
		}
	} finally {
		hooks.signal.removeEventListener("abort", stopOnAbort);
		hooks.progress.end();
		await manager.close();
	}
}

async function rebuild(ctx: CliContext, hooks: CommandHooks): Promise<ReindexReport> {
	const started = Date.now();
	const before = await lockStates(ctx.indexDir);
	const busy = before[REBUILD_LOCK]?.locked ? before[REBUILD_LOCK] : before[CATCH_UP_LOCK];
	if (busy?.locked) hooks.progress.note(`waiting for ${describeHolder(busy)}, which holds an index lock…`);
	const outcome = await rebuildStore(
		{ indexDir: ctx.indexDir, roots: ctx.roots, extraFiles: ctx.extraFiles, workspaceDirs: ctx.workspaceDirs },
		{ shouldStop: () => hooks.signal.aborted, onProgress: (p) => hooks.progress.update(p) },
	);
	hooks.progress.end();
	if (hooks.signal.aborted) {
		throw interruptedError("interrupted; the rebuild was abandoned and the current index is unchanged");
	}
	if (outcome.kind === "failed") throw new CliError(`rebuild failed: ${outcome.error}`, "reindex_failed");
	if (outcome.kind === "skipped") {
		const locks = await lockStates(ctx.indexDir);
		const holder = locks[REBUILD_LOCK]?.locked ? locks[REBUILD_LOCK] : locks[CATCH_UP_LOCK];
		throw new CliError(
			`${holder ? describeHolder(holder) : "another process"} holds the index lock in ${ctx.indexDir} (another rebuild or a long catch-up); try again later`,
			"lock_held",
		);
	}
	const store = await openExistingStore(ctx.indexDir);
	try {
		const coverage = coverageWithLocks(store, await lockStates(ctx.indexDir));
		return {
			mode: "full",
			indexDir: ctx.indexDir,
			generation: store.generation,
			waitedMs: busy?.locked ? Math.max(0, Date.now() - started - outcome.result.elapsedMs) : 0,
			result: outcome.result,
			coverage,
		};
	} finally {
		store.close();
	}
}

/** Human view: what was done, then coverage and where the index is. */
export function formatReindex(r: ReindexReport): string {
	const x = r.result;
	const what = r.mode === "full" ? "rebuilt the index" : "caught up the index";
	const unchanged = r.mode === "incremental" && x.indexed === 0 && x.removed === 0 && x.failed === 0;
	const out = [
		unchanged
			? `index up to date: ${r.coverage.known} file${r.coverage.known === 1 ? "" : "s"}, none changed (checked in ${formatDuration(x.elapsedMs)})`
			: `${what}: ${x.done} files synced (${x.indexed} indexed, ${x.removed} removed, ${x.failed} failed), ${x.entriesAdded} entries from ${formatBytes(x.bytesRead)} in ${formatDuration(x.elapsedMs)}`,
	];
	if (r.waitedMs >= 1000) out.push(`waited ${formatDuration(r.waitedMs)} for another process's lock`);
	for (const e of x.errors) out.push(`  failed: ${e.path}: ${e.error}`);
	out.push(`coverage: ${r.coverage.note}`);
	out.push(`index: ${r.indexDir} (generation ${r.generation})`);
	return out.join("\n");
}
