/**
 * `status`: where the index is, its format and generation, counts, coverage, size on disk, last sync and lock
 * holders. Opens the store read-only: never creates, migrates or writes the index.
 */
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Coverage } from "../contract.js";
import { CATCH_UP_LOCK } from "../ingest/catch-up-job.js";
import { type DiscoveryRoot, discoverFiles } from "../ingest/discover.js";
import { REBUILD_LOCK } from "../ingest/rebuild.js";
import { INDEX_FORMAT, pointerFileName } from "../store/format.js";
import { STORE_LOCK } from "../store/generations.js";
import { type LockHolderInfo, lockHolderInfo } from "../store/lock.js";
import { openStore, type Store } from "../store/open-store.js";
import { computeCoverage } from "../store/source-counts.js";
import type { CliContext } from "./context.js";
import { CliError } from "./errors.js";
import { formatBytes } from "./format.js";

/** The lock names a status reports. */
export const LOCK_NAMES = [CATCH_UP_LOCK, REBUILD_LOCK, STORE_LOCK] as const;

/** Row counts of the current generation. */
export interface IndexCounts {
	sources: number;
	events: number;
	fragments: number;
	/** Sources whose last sync failed. */
	failedSources: number;
	/** Lines skipped by the parser (malformed or unknown), over all sources. */
	skippedLines: number;
}

/** What `status` reports (`--json` prints exactly this). */
export interface StatusReport {
	agentDir: string;
	indexDir: string;
	workspace: string;
	/** False when no index has been built in `indexDir` yet. */
	exists: boolean;
	/** Index format of this version (part of the pointer and generation file names). */
	format: number;
	pointerFile: string;
	generation?: string;
	generationFile?: string;
	readOnly?: boolean;
	readOnlyReason?: string;
	counts?: IndexCounts;
	coverage?: Coverage;
	/** Session files discovery finds under the roots right now. */
	discoveredFiles: number;
	size?: { generationBytes: number; walBytes: number; directoryBytes: number };
	/** ISO time of the most recent successful sync of any source. */
	lastSyncAt?: string | null;
	locks: Record<string, LockHolderInfo>;
	roots: DiscoveryRoot[];
	config: { files: string[]; problems: string[] };
}

/** Open the current generation read-only; a clear CliError when there is none or it cannot be read. */
export async function openExistingStore(indexDir: string): Promise<Store> {
	const opened = await openStore({ dir: indexDir, readonly: true });
	if (opened.ok) return opened.store;
	if (opened.code === "not-found") {
		throw new CliError(`no event index in ${indexDir} yet; run pi-event-index reindex`, "no_index");
	}
	throw new CliError(opened.error, "index_unavailable");
}

/** Lock states of the index dir, by lock name. */
export async function lockStates(indexDir: string): Promise<Record<string, LockHolderInfo>> {
	const locks: Record<string, LockHolderInfo> = {};
	for (const name of LOCK_NAMES) locks[name] = await lockHolderInfo(indexDir, name);
	return locks;
}

/** Coverage as every process sees it: counts from the store, rebuild and catch-up from the locks. */
export function coverageWithLocks(store: Store, locks: Record<string, LockHolderInfo>): Coverage {
	return computeCoverage(store.db, {
		rebuilding: locks[REBUILD_LOCK]?.locked === true,
		catchingUp: locks[CATCH_UP_LOCK]?.locked === true,
	});
}

function countRows(store: Store): IndexCounts {
	const row = store.db
		.prepare(
			`SELECT (SELECT count(*) FROM sources) AS sources, (SELECT count(*) FROM events) AS events,
				(SELECT count(*) FROM fragments) AS fragments,
				(SELECT count(*) FROM sources WHERE last_error IS NOT NULL) AS failedSources,
				(SELECT coalesce(sum(skipped_count), 0) FROM sources) AS skippedLines`,
		)
		.get() as IndexCounts;
	return { ...row };
}

function sizeOf(path: string): number {
	try {
		return statSync(path).size;
	} catch {
		return 0;
	}
}

function unwritable(dir: string): string | undefined {
	try {
		accessSync(dir, constants.W_OK);
		return undefined;
	} catch (err) {
		return `the index directory is not writable (${(err as { code?: string }).code ?? "error"})`;
	}
}

function directoryBytes(dir: string): number {
	let total = 0;
	try {
		for (const d of readdirSync(dir, { withFileTypes: true })) if (d.isFile()) total += sizeOf(join(dir, d.name));
	} catch {
		// Unreadable: report what we have.
	}
	return total;
}

/** Gather the status report. */
export async function statusCommand(ctx: CliContext): Promise<StatusReport> {
	const locks = await lockStates(ctx.indexDir);
	const report: StatusReport = {
		agentDir: ctx.agentDir,
		indexDir: ctx.indexDir,
		workspace: ctx.workspace,
		exists: false,
		format: INDEX_FORMAT,
		pointerFile: join(ctx.indexDir, pointerFileName()),
		discoveredFiles: discoverFiles(ctx.roots, ctx.extraFiles).length,
		locks,
		roots: ctx.roots,
		config: { files: ctx.config.loadedFiles, problems: ctx.problems },
	};
	const opened = await openStore({ dir: ctx.indexDir, readonly: true });
	if (!opened.ok) {
		if (opened.code === "not-found") return report;
		throw new CliError(opened.error, "index_unavailable");
	}
	const store = opened.store;
	try {
		report.exists = true;
		report.generation = store.generation;
		report.generationFile = store.path;
		// Opened read-only on request; what matters is whether a writer (Pi, reindex) could write it.
		const why = store.readOnlyReason?.includes("on request") ? unwritable(ctx.indexDir) : store.readOnlyReason;
		report.readOnly = why !== undefined;
		if (why !== undefined) report.readOnlyReason = why;
		report.counts = countRows(store);
		report.coverage = coverageWithLocks(store, locks);
		report.size = {
			generationBytes: sizeOf(store.path),
			walBytes: sizeOf(`${store.path}-wal`),
			directoryBytes: directoryBytes(ctx.indexDir),
		};
		const last = store.db.prepare("SELECT max(synced_at) AS t FROM sources").get() as { t: number | null };
		report.lastSyncAt = last.t === null ? null : new Date(last.t).toISOString();
	} finally {
		store.close();
	}
	return report;
}

function lockLine(name: string, info: LockHolderInfo): string {
	if (!info.locked) return `  ${name.padEnd(9)} free`;
	const holder = info.holder ? `pid ${info.holder.pid} on ${info.holder.hostname} since ${info.holder.acquiredAt}` : "";
	return `  ${name.padEnd(9)} held${holder ? ` by ${holder}` : ""}${info.stale ? " (stale: the holder seems gone)" : ""}`;
}

/** Human view of a status report. */
export function formatStatus(r: StatusReport): string {
	const out = [`index dir   ${r.indexDir}`];
	if (!r.exists) {
		out.push(`no index yet (format ${r.format}); run: pi-event-index reindex`);
	} else {
		out.push(`generation  ${r.generation}  (${r.generationFile})`);
		out.push(`pointer     ${r.pointerFile}  (index format ${r.format})`);
		if (r.readOnly) out.push(`read-only   ${r.readOnlyReason ?? "yes"}`);
		const c = r.counts;
		if (c) {
			out.push(`counts      ${c.sources} sources, ${c.events} events, ${c.fragments} fragments`);
			if (c.failedSources || c.skippedLines) {
				out.push(`            ${c.failedSources} failed sources, ${c.skippedLines} skipped lines`);
			}
		}
		if (r.coverage) out.push(`coverage    ${r.coverage.note}`);
		if (r.size) {
			out.push(
				`size        ${formatBytes(r.size.generationBytes)} (+${formatBytes(r.size.walBytes)} WAL), ${formatBytes(r.size.directoryBytes)} in the directory`,
			);
		}
		out.push(`last sync   ${r.lastSyncAt ?? "never"}`);
	}
	out.push(`on disk     ${r.discoveredFiles} session files under ${r.roots.length} roots (agent dir ${r.agentDir})`);
	out.push("locks");
	for (const [name, info] of Object.entries(r.locks)) out.push(lockLine(name, info));
	if (r.config.files.length) out.push(`config      ${r.config.files.join(", ")}`);
	for (const p of r.config.problems) out.push(`config problem: ${p}`);
	return out.join("\n");
}
