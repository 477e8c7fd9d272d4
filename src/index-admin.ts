/**
 * The maintenance side of the index entry point (workspace-index.ts opens it for use, this inspects it): the index
 * as it is, opened read-only (status, verify, answers without a catch-up), its locks by name, and whether an error
 * means the store is damaged. Lock names, store files and generations stay behind this module and the
 * IndexManager; the CLI sees facts, not internals. Loads no ingest work module until verify asks for it: answering
 * from the index as it is stays a small set of modules (docs/benchmarks.md, "Where the time goes").
 */
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CatchUpThreads } from "./config/threads.js";
import type { Coverage } from "./contract.js";
import { idleTrust, trustsFullCheck } from "./ingest/catch-up-plan.js";
import { type DiscoveryRoot, discoverFiles } from "./ingest/discover.js";
import { Forgotten } from "./ingest/forgotten.js";
import { IndexUnavailableError } from "./ingest/index-unavailable.js";
import { CATCH_UP_LOCK, REBUILD_LOCK } from "./ingest/lock-names.js";
import type { VerifyReport } from "./ingest/verify.js";
import type { QueryDb } from "./query/db.js";
import { isStoreDamage, STORE_SCHEMAS, storeFiles } from "./store/db.js";
import { INDEX_FORMAT, pointerFileName } from "./store/format.js";
import { generationOf, readPointer, STORE_LOCK } from "./store/generations.js";
import { heldByLiveProcess, type LockHolderInfo, lockHolderInfo } from "./store/lock-holder.js";
import { openStore, type Store } from "./store/open-store.js";
import { computeCoverage } from "./store/source-counts.js";

export type { CatchUpProgress } from "./contract.js";
export type { CatchUpResult } from "./ingest/catch-up.js";
export { type ForgetCandidate, ForgetError, type ForgetSelection } from "./ingest/forget.js";
export type { Tombstone } from "./ingest/forgotten.js";
export { IndexUnavailableError } from "./ingest/index-unavailable.js";
export type { VerifyReport } from "./ingest/verify.js";
export { chosenDriver } from "./store/db.js";
export { DriverLoadError, type SqliteDriverName } from "./store/driver.js";
export type { LockHolderInfo } from "./store/lock-holder.js";

/**
 * Threads of the catch-ups and rebuilds a maintenance program (`reindex`) runs: a person waits for them, in a process
 * of its own, so two (Pi's background catch-up: `catchUp.threads`, default one).
 */
export const MAINTENANCE_THREADS: CatchUpThreads = 2;

/** The index format this version reads and writes (part of its file names). */
export const CURRENT_INDEX_FORMAT = INDEX_FORMAT;

/** Every lock of an index dir, in the order a status lists them. */
const LOCK_NAMES = [CATCH_UP_LOCK, REBUILD_LOCK, STORE_LOCK] as const;

/** Lock states of an index dir, keyed by lock name. */
export type IndexLocks = Record<string, LockHolderInfo>;

/** The states of every lock of `indexDir`. */
export async function indexLocks(indexDir: string): Promise<IndexLocks> {
	const locks: IndexLocks = {};
	for (const name of LOCK_NAMES) locks[name] = await lockHolderInfo(indexDir, name);
	return locks;
}

/** The holder of the catch-up lock, when one holds it. */
export async function catchUpHolder(indexDir: string): Promise<LockHolderInfo | undefined> {
	const info = await lockHolderInfo(indexDir, CATCH_UP_LOCK);
	return info.locked ? info : undefined;
}

/** The holder of the lock a rebuild needs (another rebuild's first, then a catch-up's), when one is held. */
export function rebuildBlocker(locks: IndexLocks): LockHolderInfo | undefined {
	for (const name of [REBUILD_LOCK, CATCH_UP_LOCK]) if (locks[name]?.locked) return locks[name];
	return undefined;
}

/** The pointer file naming the current generation. */
export function pointerFile(indexDir: string): string {
	return join(indexDir, pointerFileName());
}

/** Session files discovery finds under the roots right now. */
export function discoveredFileCount(roots: DiscoveryRoot[], extraFiles: string[]): number {
	return discoverFiles(roots, extraFiles).length;
}

/** True when `err` says the store is damaged (a rebuild from the files repairs it). */
export function isIndexDamage(err: unknown): boolean {
	return isStoreDamage(err);
}

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

/** The current generation, opened read-only: never created, migrated or written. */
export interface IndexSnapshot {
	/** The store's database, for the query services and verify. */
	readonly db: QueryDb;
	readonly generation: string;
	/** Absolute path of the generation file. */
	readonly file: string;
	/** Why a writer (Pi, reindex) could not write this index, if it could not. */
	readonly readOnlyReason?: string;
	/** Coverage as every process sees it: counts from the store, rebuild and catch-up from the locks. */
	coverage(locks?: IndexLocks): Promise<Coverage>;
	counts(): IndexCounts;
	/** ISO time of the most recent successful sync of any source, or null. */
	lastSyncAt(): string | null;
	sizes(): { generationBytes: number; walBytes: number; directoryBytes: number };
	/** Every difference between this index and the session files under the roots (bounded list). */
	verify(
		roots: DiscoveryRoot[],
		extraFiles: string[],
		excludeWorkspaces?: string[],
	): Promise<VerifyReport & { limited: boolean }>;
	/** Sessions forgotten (tombstones in force: ingest/forgotten.ts). */
	forgottenCount(excludeWorkspaces?: string[]): number;
	/**
	 * True when the last check of every file in this scope proves that a catch-up would find nothing to do
	 * (catch-up-plan.ts `trustsFullCheck`); false when it cannot tell, or a writer could not write this index.
	 */
	trustsFullCheck(scope: CatchUpScope): boolean;
	close(): void;
}

/** What a catch-up of a workspace covers: its roots and named files, the person's exclusions, the trust window. */
interface CatchUpScope {
	roots: DiscoveryRoot[];
	extraFiles: string[];
	excludeWorkspaces?: string[];
	idleRecheckSeconds?: number;
}

/**
 * Open the current generation read-only; undefined when no index was built in `indexDir` yet. Throws
 * IndexUnavailableError when there is one that cannot be read.
 */
export async function openIndexSnapshot(indexDir: string): Promise<IndexSnapshot | undefined> {
	const opened = await openStore({ dir: indexDir, readonly: true });
	if (!opened.ok) {
		if (opened.code === "not-found") return undefined;
		throw new IndexUnavailableError(opened.error, opened.sqliteCode);
	}
	return snapshotOf(opened.store, indexDir);
}

/** A verify report of the index in an index dir, with the generation it verified. */
export type IndexDirVerifyReport = VerifyReport & { generation: string; limited: boolean };

/**
 * Verifies the index in `indexDir` (read-only) against the session files; undefined when none was built yet. A store
 * too damaged to open is reported as the one difference damage is (verify.ts `storeDamaged`), not thrown.
 */
export async function verifyIndexDir(
	indexDir: string,
	roots: DiscoveryRoot[],
	extraFiles: string[],
	excludeWorkspaces: string[] = [],
): Promise<IndexDirVerifyReport | undefined> {
	let snapshot: IndexSnapshot | undefined;
	try {
		snapshot = await openIndexSnapshot(indexDir);
	} catch (err) {
		if (!isStoreDamage(err)) throw err;
		const { storeDamaged } = await import("./ingest/verify.js");
		const ptr = readPointer(indexDir);
		const generation = (ptr.ok ? generationOf(ptr.pointer.file) : undefined) ?? "unknown";
		const files = discoverFiles(roots, extraFiles).length;
		return { generation, sources: 0, files, differences: [storeDamaged(err)], limited: false };
	}
	if (snapshot === undefined) return undefined;
	try {
		return { generation: snapshot.generation, ...(await snapshot.verify(roots, extraFiles, excludeWorkspaces)) };
	} finally {
		snapshot.close();
	}
}

function snapshotOf(store: Store, indexDir: string): IndexSnapshot {
	// Opened read-only on request; what matters is whether a writer (Pi, reindex) could write it.
	const why = store.readOnlyReason?.includes("on request") ? unwritable(indexDir) : store.readOnlyReason;
	return {
		db: store.db,
		generation: store.generation,
		file: store.path,
		...(why !== undefined ? { readOnlyReason: why } : {}),
		async coverage(locks) {
			const l = locks ?? (await indexLocks(indexDir));
			return computeCoverage(store.db, {
				rebuilding: heldByLiveProcess(l[REBUILD_LOCK]),
				catchingUp: heldByLiveProcess(l[CATCH_UP_LOCK]),
			});
		},
		counts: () => countRows(store),
		trustsFullCheck({ roots, extraFiles, excludeWorkspaces, idleRecheckSeconds }) {
			if (why !== undefined) return false;
			try {
				const forgotten = new Forgotten(indexDir, excludeWorkspaces);
				const trust = idleTrust({ indexDir, idleRecheckSeconds }, store.generation);
				return trustsFullCheck(store.db, { roots, extraFiles, forgotten }, trust);
			} catch {
				// Damage or anything unreadable: the catch-up decides, as it always did.
				return false;
			}
		},
		lastSyncAt() {
			const last = store.db.prepare("SELECT max(synced_at) AS t FROM sources").get() as { t: number | null };
			return last.t === null ? null : new Date(last.t).toISOString();
		},
		sizes: () => ({
			generationBytes: sum(storeFiles(store.path).map((f) => sizeOf(f.path))),
			walBytes: sum(storeFiles(store.path).map((f) => sizeOf(`${f.path}-wal`))),
			directoryBytes: directoryBytes(indexDir),
		}),
		async verify(roots, extraFiles, excludeWorkspaces = []) {
			const [{ MAX_DIFFERENCES, verifyIndex }, { BULK_FILE_PRAGMAS }] = await Promise.all([
				import("./ingest/verify.js"),
				import("./ingest/catch-up-job.js"),
			]);
			// verify reads every page once: as a bulk pass does, no mapped pages (they would all count in this process's
			// memory: db.ts QUERY_MMAP_BYTES) and a small page cache.
			for (const schema of STORE_SCHEMAS) for (const p of BULK_FILE_PRAGMAS) store.db.pragma(`${schema}.${p}`);
			const report = verifyIndex(store.db, roots, extraFiles, new Forgotten(indexDir, excludeWorkspaces));
			return { ...report, limited: report.differences.length >= MAX_DIFFERENCES };
		},
		forgottenCount: (excludeWorkspaces = []) => new Forgotten(indexDir, excludeWorkspaces).count(),
		close: () => store.close(),
	};
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

function sum(values: number[]): number {
	return values.reduce((a, b) => a + b, 0);
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
