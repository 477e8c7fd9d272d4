/**
 * `status`: where the index is, its format and generation, counts, coverage, size on disk, last sync and lock
 * holders. Opens the store read-only: never creates, migrates or writes the index.
 */
import type { Coverage } from "../contract.js";
import {
	CURRENT_INDEX_FORMAT,
	chosenDriver,
	discoveredFileCount,
	type IndexCounts,
	type IndexSnapshot,
	IndexUnavailableError,
	indexLocks,
	type LockHolderInfo,
	openIndexSnapshot,
	pointerFile,
	type SqliteDriverName,
} from "../index-admin.js";
import { coverageText } from "../text/coverage-text.js";
import type { DiscoveryRoot } from "../workspace-index.js";
import type { CliContext } from "./context.js";
import { CliError } from "./errors.js";
import { formatBytes } from "./format.js";

/** What `status` reports (`--json` prints exactly this). */
export interface StatusReport {
	agentDir: string;
	indexDir: string;
	workspace: string;
	/** False when no index has been built in `indexDir` yet. */
	exists: boolean;
	/** Index format of this version (part of the pointer and generation file names). */
	format: number;
	/** The SQLite driver this process uses (docs/store.md, "Drivers"). */
	driver: SqliteDriverName;
	/** The runtime and its version, e.g. "Node v22.23.3" (the driver depends on it). */
	runtime: string;
	pointerFile: string;
	generation?: string;
	generationFile?: string;
	readOnly?: boolean;
	readOnlyReason?: string;
	counts?: IndexCounts;
	/** Session files forgotten (tombstones in force: `forget`, the marker, `excludeWorkspaces`). */
	forgotten?: number;
	coverage?: Coverage;
	/** Session files discovery finds under the roots right now. */
	discoveredFiles: number;
	size?: { generationBytes: number; walBytes: number; directoryBytes: number };
	/** ISO time of the most recent successful sync of any source. */
	lastSyncAt?: string | null;
	locks: Record<string, LockHolderInfo>;
	roots: DiscoveryRoot[];
	config: { files: string[]; problems: string[]; refused?: string };
}

/** The index as it is, read-only; a clear CliError when there is none or it cannot be read. */
export async function existingIndex(indexDir: string): Promise<IndexSnapshot> {
	const snapshot = await readOnlyIndex(indexDir);
	if (snapshot === undefined) throw noIndexError(indexDir);
	return snapshot;
}

/** The error of a command that needs an index where none was built yet. */
export function noIndexError(indexDir: string): CliError {
	return new CliError(`no event index in ${indexDir} yet; run pi-event-index reindex`, "no_index");
}

async function readOnlyIndex(indexDir: string): Promise<IndexSnapshot | undefined> {
	try {
		return await openIndexSnapshot(indexDir);
	} catch (err) {
		if (err instanceof IndexUnavailableError) throw new CliError(err.message, "index_unavailable");
		throw err;
	}
}

/** Gather the status report. */
export async function statusCommand(ctx: CliContext): Promise<StatusReport> {
	const locks = await indexLocks(ctx.indexDir);
	const report: StatusReport = {
		agentDir: ctx.agentDir,
		indexDir: ctx.indexDir,
		workspace: ctx.workspace,
		exists: false,
		format: CURRENT_INDEX_FORMAT,
		driver: chosenDriver(),
		runtime: runtimeName(),
		pointerFile: pointerFile(ctx.indexDir),
		discoveredFiles: discoveredFileCount(ctx.roots, ctx.extraFiles),
		locks,
		roots: ctx.roots,
		config: { files: ctx.config.loadedFiles, problems: ctx.problems, ...(ctx.refused ? { refused: ctx.refused } : {}) },
	};
	const snapshot = await readOnlyIndex(ctx.indexDir);
	if (snapshot === undefined) return report;
	try {
		report.exists = true;
		report.generation = snapshot.generation;
		report.generationFile = snapshot.file;
		report.readOnly = snapshot.readOnlyReason !== undefined;
		if (snapshot.readOnlyReason !== undefined) report.readOnlyReason = snapshot.readOnlyReason;
		report.counts = snapshot.counts();
		report.forgotten = snapshot.forgottenCount(ctx.config.excludeWorkspaces);
		report.coverage = await snapshot.coverage(locks);
		report.size = snapshot.sizes();
		report.lastSyncAt = snapshot.lastSyncAt();
	} finally {
		snapshot.close();
	}
	return report;
}

/** The runtime running this process, by name and version. */
function runtimeName(): string {
	const bun = (process.versions as Record<string, string | undefined>).bun;
	return bun === undefined ? `Node ${process.version}` : `Bun ${bun}`;
}

function lockLine(name: string, info: LockHolderInfo): string {
	if (!info.locked) return `  ${name.padEnd(12)} free`;
	const holder = info.holder ? `pid ${info.holder.pid} on ${info.holder.hostname} since ${info.holder.acquiredAt}` : "";
	return `  ${name.padEnd(12)} held${holder ? ` by ${holder}` : ""}${info.stale ? " (stale: the holder seems gone)" : ""}`;
}

/** Human view of a status report. */
export function statusText(r: StatusReport): string {
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
		if (r.forgotten !== undefined)
			out.push(`forgotten   ${r.forgotten} session files (pi-event-index unforget SESSION)`);
		if (r.coverage) out.push(coverageText(r.coverage));
		if (r.size) {
			out.push(
				`size        ${formatBytes(r.size.generationBytes)} (+${formatBytes(r.size.walBytes)} WAL), ${formatBytes(r.size.directoryBytes)} in the directory`,
			);
		}
		out.push(`last sync   ${r.lastSyncAt ?? "never"}`);
	}
	out.push(`sqlite      ${r.driver} on ${r.runtime}`);
	out.push(`on disk     ${r.discoveredFiles} session files under ${r.roots.length} roots (agent dir ${r.agentDir})`);
	out.push("locks");
	for (const [name, info] of Object.entries(r.locks)) out.push(lockLine(name, info));
	if (r.config.files.length) out.push(`config      ${r.config.files.join(", ")}`);
	if (r.config.refused) out.push(r.config.refused);
	for (const p of r.config.problems) out.push(`config problem: ${p}`);
	return out.join("\n");
}
