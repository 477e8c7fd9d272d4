/**
 * What a catch-up pass has to do, as discovery and the stored checkpoints say. Planning writes nothing to the store
 * and takes no lock, so a caller learns that the index is already up to date (every file as its complete checkpoint
 * saw it, none gone, the count unchanged) before it loads or locks anything of the writer (docs/lifecycle.md,
 * "Discovery and catch-up"); a plan that may end its catch-up keeps a record of its last full check beside the store
 * (full-check.ts). This module stays light: the `search` that finds nothing to do loads only it.
 */
import { DEFAULT_IDLE_RECHECK_SECONDS } from "../config/idle-recheck.js";
import type { CatchUpProgress } from "../contract.js";
import { withoutMmap } from "../store/db.js";
import type { SqliteDb } from "../store/driver.js";
import { ledgerEven } from "../store/fts-ledger.js";
import { knownSourcesRow } from "../store/source-counts.js";
import {
	confinementOf,
	type DiscoveredFile,
	type DiscoveryRoot,
	orderForCatchUp,
	visitDiscoveredFiles,
} from "./discover.js";
import { CHECKPOINT_KEY_SQL, factsKey } from "./file-facts.js";
import type { Forgotten } from "./forgotten.js";
import {
	FullCheckObserver,
	fullCheckFile,
	readFullCheck,
	scopeOf,
	sourcesSignature,
	unchangedSince,
	writeFullCheck,
} from "./full-check.js";

/** What planning needs of a pass's options. */
export interface PlanOptions {
	roots: DiscoveryRoot[];
	/** Files to include wherever they live (e.g. the current session file). */
	extraFiles?: string[];
	/** Files in the caller's workspace are synced first. */
	inWorkspace?: (path: string) => boolean;
	/** Forgotten sessions: their files are left out of the pass and of the count of files to index. */
	forgotten?: Forgotten;
}

/** The caller's workspace as catch-up orders it: the files under `dirs` (its session folders) first. */
export function inWorkspaceOf(dirs: readonly string[]): (path: string) => boolean {
	const prefixes = dirs.map((d) => (d.endsWith("/") ? d : `${d}/`));
	return (path) => prefixes.some((d) => path.startsWith(d));
}

/** What a pass has to do, as discovery and the stored checkpoints say. */
export interface PassPlan {
	/** Every file discovery found (forgotten ones left out): coverage counts them. */
	found: number;
	/** New and changed files, in catch-up order. */
	work: DiscoveredFile[];
	/** Stored paths discovery did not see: gone files are removed, files outside these roots are kept. */
	vanished: string[];
	/** Paths that have rows. */
	stored: { has(path: string): boolean };
	/** Confined sources the person's own folders now find too: they become the person's (never the other way round). */
	freed: string[];
	/** The stored count of discovered files (`meta.known_sources`) is not `found`. */
	countChanged: boolean;
}

/** A pass's result (and its progress reports). */
export interface CatchUpResult extends CatchUpProgress {
	stopped: boolean;
	/** Input bytes the writer took parsed and projected from the prefetch thread. */
	prefetchedBytes: number;
	/** The pass wrote its full-text rows from a thread of its own (fts-thread.ts). */
	fullTextThread: boolean;
	errors: Array<{ path: string; error: string }>;
}

/**
 * The stored sources as planning reads them: each path's position in `keys` (its checkpoint's factsKey; '' when no
 * file matches it) and `confinements`. Arrays and a map of numbers: no object per row to survive into the old
 * generation while the files are stat'ed.
 */
interface StoredCheckpoints {
	at: Map<string, number>;
	keys: string[];
	confinements: Array<string | null>;
}

/**
 * Every stored source's checkpoint. SQLite writes each field of all rows as one JSON array (a text with no NUL, which
 * node:sqlite would cut short), so 10,000 rows cost three values instead of 80 (docs/benchmarks.md: 36 → 23 ms).
 */
function storedCheckpoints(db: SqliteDb): StoredCheckpoints {
	// An aggregate without GROUP BY always gives one row ('[]' arrays when there are no sources).
	// A BLOB in these columns (a damaged page read as cells) fails the aggregate as store damage (db.ts isStoreDamage).
	const row = withoutMmap(
		db,
		() =>
			db
				.prepare(
					`SELECT json_group_array(path) AS paths, json_group_array(${CHECKPOINT_KEY_SQL}) AS keys,
						json_group_array(confined_to) AS confinements FROM sources`,
				)
				.get() as { paths: string; keys: string; confinements: string },
	);
	const paths = JSON.parse(row.paths) as string[];
	const at = new Map<string, number>();
	for (let i = 0; i < paths.length; i++) at.set(paths[i], i);
	return {
		at,
		keys: JSON.parse(row.keys) as string[],
		confinements: JSON.parse(row.confinements) as Array<string | null>,
	};
}

/** Discovers the files and compares them with the stored checkpoints; writes nothing. `observer` watches it. */
export function planPass(db: SqliteDb, options: PlanOptions, observer?: FullCheckObserver): PassPlan {
	const forgotten = options.forgotten?.forgottenPaths();
	const stored = storedCheckpoints(db);
	const seen = new Uint8Array(stored.keys.length);
	const work: DiscoveredFile[] = [];
	const freed: string[] = [];
	let found = 0;
	const visit = (f: DiscoveredFile, named: boolean) => {
		if (forgotten?.has(f.path)) return;
		observer?.file(f.path, f, named);
		found++;
		const i = stored.at.get(f.path);
		// The sync's own unchanged rule (matchesCheckpoint, as keys), checked here without opening a transaction.
		if (i === undefined || stored.keys[i] !== factsKey(f)) work.push(f);
		if (i === undefined) return;
		seen[i] = 1;
		if (stored.confinements[i] !== null && confinementOf(f.path, options.roots) === undefined) freed.push(f.path);
	};
	visitDiscoveredFiles(options.roots, options.extraFiles ?? [], visit, { beforeListing: (d) => observer?.folder(d) });
	const vanished: string[] = [];
	for (const [path, i] of stored.at) if (!seen[i]) vanished.push(path);
	return {
		found,
		// Only the files with work are ordered (a stable sort: the same order as ordering all, then filtering).
		work: orderForCatchUp(work, options.inWorkspace ?? (() => false)),
		vanished,
		stored: stored.at,
		freed,
		countChanged: knownSourcesRow(db)?.value !== String(found),
	};
}

/**
 * True when a pass would change nothing: no file to sync or drop, no source to free, the stored count current, and
 * both files of the store at the same transaction (a torn one is repaired by a pass).
 */
export function planIsEmpty(db: SqliteDb, plan: PassPlan): boolean {
	return (
		plan.work.length === 0 &&
		plan.vanished.length === 0 &&
		plan.freed.length === 0 &&
		!plan.countChanged &&
		ledgerEven(db)
	);
}

/** How a plan that may end its catch-up may trust the last full check (full-check.ts). */
export interface IdleTrust {
	indexDir: string;
	/** The generation `db` is. */
	generation: string;
	/** How long a full check is trusted for idle files, in ms (0: every file is compared every time). */
	trustMs: number;
}

/** A job's trust in the last full check (`idleRecheckSeconds`, default DEFAULT_IDLE_RECHECK_SECONDS). */
export function idleTrust(job: { indexDir: string; idleRecheckSeconds?: number }, generation: string): IdleTrust {
	return {
		indexDir: job.indexDir,
		generation,
		trustMs: (job.idleRecheckSeconds ?? DEFAULT_IDLE_RECHECK_SECONDS) * 1000,
	};
}

/**
 * True when the last full check of `options`' scope proves a pass would change nothing (full-check.ts): within the
 * trust window, nothing it recorded changed, and the store's two files are at the same transaction. Reads only.
 */
export function trustsFullCheck(db: SqliteDb, options: PlanOptions, trust: IdleTrust): boolean {
	return trust.trustMs > 0 && recordHolds(db, planScope(options), trust);
}

/** The scope of a plan's options, as a full check records it (full-check.ts scopeOf). */
function planScope(options: PlanOptions): string {
	return scopeOf(options.roots, options.extraFiles ?? [], options.forgotten?.forgottenPaths());
}

/** True when the record of `scope`'s last full check holds (trustsFullCheck), the store's two files even. */
function recordHolds(db: SqliteDb, scope: string, trust: IdleTrust): boolean {
	const ctx = { generation: trust.generation, scope, trustMs: trust.trustMs, now: Date.now() };
	return ledgerEven(db) && unchangedSince(db, readFullCheck(fullCheckFile(trust.indexDir), scope), ctx);
}

/**
 * The plan of a catch-up that may end before it begins (the CLI's before an answer, Pi's at session start):
 * undefined when it would change nothing — the last full check still holds (nothing it recorded changed, within the
 * trust window), or a full check now finds nothing to do (and is recorded) — else the pass's plan.
 */
export function planUnlessIdle(db: SqliteDb, options: PlanOptions, trust: IdleTrust): PassPlan | undefined {
	if (trust.trustMs <= 0) {
		const plan = planPass(db, options);
		return planIsEmpty(db, plan) ? undefined : plan;
	}
	const scope = planScope(options);
	if (recordHolds(db, scope, trust)) return undefined;
	const sources = sourcesSignature(db);
	const observer = new FullCheckObserver();
	const plan = planPass(db, options, observer);
	if (!planIsEmpty(db, plan)) return plan;
	// Recorded only when no writer added or removed a source while the files were compared.
	const record = sourcesSignature(db) === sources ? observer.record(trust.generation, scope, sources) : undefined;
	if (record) writeFullCheck(fullCheckFile(trust.indexDir), record);
	return undefined;
}

/**
 * The outcome of a pass that did nothing: it found nothing to do, or (`stopped`) it was ended before it began
 * (CatchUpOutcome's "done").
 */
export function nothingDone(stopped = false): { kind: "done"; result: CatchUpResult } {
	return { kind: "done", result: { ...emptyCatchUpResult(0), stopped } };
}

/** The result of a pass over `total` files before any work. */
export function emptyCatchUpResult(total: number): CatchUpResult {
	return {
		total,
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
		fullTextThread: false,
		errors: [],
	};
}
