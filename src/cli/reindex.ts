/**
 * `reindex`: incremental catch-up of every root, in this process, under the same catch-up lock Pi uses; and
 * `reindex --full`: build a new generation beside the current one and publish it (readers switch without a restart).
 *
 * When another process (a running Pi) holds the catch-up lock, `reindex` waits for it and then runs its own pass
 * (which finds little left to do), so "reindex finished" always means "the index was caught up after I asked".
 * `--no-wait` fails at once instead.
 */

import type { Coverage } from "../contract.js";
import { type CatchUpResult, catchUpHolder, indexLocks, type LockHolderInfo, rebuildBlocker } from "../index-admin.js";
import { coverageText } from "../text/coverage-text.js";
import { IndexDirError, IndexUnavailableError, openWorkspaceIndex, type WorkspaceIndex } from "../workspace-index.js";
import type { CliContext } from "./context.js";
import { CliError, interruptedError } from "./errors.js";
import { formatBytes, formatDuration } from "./format.js";
import type { ProgressReporter } from "./progress.js";

/** What `reindex` reports (`--json` prints exactly this). */
export interface ReindexReport {
	mode: "incremental" | "full";
	indexDir: string;
	/** The generation the index is at afterwards. */
	generation: string;
	/** Time spent waiting for another process's catch-up lock. */
	waitedMs: number;
	/** The index was found damaged (by the store check before the pass, or while opening or indexing): it was moved aside and rebuilt from the session files. */
	recoveredFromDamage: boolean;
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
function describeHolder(info: LockHolderInfo | undefined): string {
	return info?.holder ? `pid ${info.holder.pid} on ${info.holder.hostname}` : "another process";
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
 * Open the index for `ctx` through the extension's entry point. An index dir that cannot hold an index, or a store
 * that cannot be opened, is a clear CliError at once. A read-only index dir is usable (its store opens read-only).
 */
export async function openIndex(ctx: CliContext): Promise<WorkspaceIndex> {
	try {
		return await openWorkspaceIndex(ctx.open);
	} catch (err) {
		if (err instanceof IndexDirError) {
			throw new CliError(`${err.message}: ${ctx.indexDir}`, "index_dir_unusable", undefined, "--index-dir");
		}
		if (err instanceof IndexUnavailableError) throw new CliError(err.message, "index_unavailable");
		throw err;
	}
}

export async function reindexCommand(
	ctx: CliContext,
	opts: ReindexOptions,
	hooks: CommandHooks,
): Promise<ReindexReport> {
	// The pass runs where Pi runs its own: in the index worker, whose heap limits (index-manager.ts) bound what a bulk
	// pass holds. On this thread V8 sizes the heap for throughput (a young generation of up to 32 MiB, an old one of
	// gigabytes): a cold build of 1 GB peaked 30–50 MiB higher here, if 7–15 % faster (docs/benchmarks.md, "Where the
	// time goes"). A query's catch-up stays on its thread: it is small, and the worker costs ~0.1 s of CPU to start.
	const index = await openIndex({ ...ctx, open: { ...ctx.open, useWorker: true } });
	const stopOnAbort = () => void index.manager.close();
	hooks.signal.addEventListener("abort", stopOnAbort, { once: true });
	const unsubscribe = index.manager.onProgress((p) => hooks.progress.update(p));
	// Opening may already have moved a damaged generation aside (a fresh one then gets the whole pass).
	const damagedAtOpen = index.manager.generation.damagedAtOpen;
	try {
		const report = await (opts.full ? rebuild(ctx, index, hooks) : incremental(ctx, index, opts, hooks));
		return { ...report, recoveredFromDamage: report.recoveredFromDamage || damagedAtOpen };
	} finally {
		unsubscribe();
		hooks.signal.removeEventListener("abort", stopOnAbort);
		hooks.progress.end();
		await index.manager.close();
	}
}

function readOnlyError(ctx: CliContext, index: WorkspaceIndex): CliError {
	const why = index.manager.generation.readOnlyReason ?? "not writable";
	return new CliError(`the index in ${ctx.indexDir} is read-only (${why}); nothing was indexed`, "read_only");
}

async function incremental(
	ctx: CliContext,
	index: WorkspaceIndex,
	opts: ReindexOptions,
	hooks: CommandHooks,
): Promise<ReindexReport> {
	const manager = index.manager;
	const started = Date.now();
	let waitedMs = 0;
	let announced = false;
	for (;;) {
		if (hooks.signal.aborted) throw interrupted();
		// A person asked for this pass: it checks every page first, so damage no search touched is found too.
		const outcome = await manager.startCatchUp({ checkStore: true });
		if (hooks.signal.aborted) throw interrupted();
		if (outcome.kind === "failed") throw new CliError(`reindex failed: ${outcome.error}`, "reindex_failed");
		if (outcome.kind === "done") {
			hooks.progress.end();
			if (outcome.result.stopped) throw interrupted();
			const coverage = await manager.coverage();
			const generation = manager.generation.id;
			const { result, recovered } = outcome;
			const report = { indexDir: ctx.indexDir, generation, waitedMs, recoveredFromDamage: recovered === true };
			return { mode: "incremental", ...report, result, coverage };
		}
		if (outcome.reason === "read-only") throw readOnlyError(ctx, index);
		const holder = describeHolder(await catchUpHolder(ctx.indexDir));
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
}

async function rebuild(ctx: CliContext, index: WorkspaceIndex, hooks: CommandHooks): Promise<ReindexReport> {
	const manager = index.manager;
	if (manager.generation.readOnly) throw readOnlyError(ctx, index);
	const started = Date.now();
	const busy = rebuildBlocker(await indexLocks(ctx.indexDir));
	if (busy) hooks.progress.note(`waiting for ${describeHolder(busy)}, which holds an index lock…`);
	const outcome = await manager.startRebuild();
	hooks.progress.end();
	if (hooks.signal.aborted) {
		throw interruptedError("interrupted; the rebuild was abandoned and the current index is unchanged");
	}
	if (outcome.kind === "failed") throw new CliError(`rebuild failed: ${outcome.error}`, "reindex_failed");
	if (outcome.kind === "skipped") {
		const holder = rebuildBlocker(await indexLocks(ctx.indexDir));
		throw new CliError(
			`${describeHolder(holder)} holds the index lock in ${ctx.indexDir} (another rebuild or a long catch-up); try again later`,
			"lock_held",
		);
	}
	return {
		mode: "full",
		indexDir: ctx.indexDir,
		generation: manager.generation.id,
		waitedMs: busy ? Math.max(0, Date.now() - started - outcome.result.elapsedMs) : 0,
		recoveredFromDamage: false,
		result: outcome.result,
		coverage: await manager.coverage(),
	};
}

/** The one line a command prints when it found the index damaged and rebuilt it. */
export const DAMAGE_RECOVERED = "the index was damaged: moved it aside and rebuilt it from the session files";

/** Human view: what was done, then coverage and where the index is. */
export function formatReindex(r: ReindexReport): string {
	const x = r.result;
	const what = r.mode === "full" ? "rebuilt the index" : "caught up the index";
	const unchanged = r.mode === "incremental" && x.indexed === 0 && x.removed === 0 && x.failed === 0;
	const out = [
		...(r.recoveredFromDamage ? [DAMAGE_RECOVERED] : []),
		unchanged
			? `index up to date: ${r.coverage.known} file${r.coverage.known === 1 ? "" : "s"}, none changed (checked in ${formatDuration(x.elapsedMs)})`
			: `${what}: ${x.done} files synced (${x.indexed} indexed, ${x.removed} removed, ${x.failed} failed), ${x.entriesAdded} entries from ${formatBytes(x.bytesRead)} in ${formatDuration(x.elapsedMs)}`,
	];
	if (r.waitedMs >= 1000) out.push(`waited ${formatDuration(r.waitedMs)} for another process's lock`);
	for (const e of x.errors) out.push(`  failed: ${e.path}: ${e.error}`);
	out.push(coverageText(r.coverage));
	out.push(`index: ${r.indexDir} (generation ${r.generation})`);
	return out.join("\n");
}
