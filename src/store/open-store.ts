/**
 * Open the current store generation: read the pointer, open the file it names, check the migration journal and
 * the index format, migrate under the cross-process lock, move corrupt files aside, fall back to read-only when
 * the directory cannot be written or a newer version owns the schema. Never throws: failures are result objects.
 */
import { accessSync, constants, mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { createLogger, errorFields, type StoreLogger } from "../files/log.js";
import { PRIVATE_DIR_MODE, unsafeIndexDir } from "../files/safe-files.js";
import {
	isBusyError,
	isCorruptionError,
	openDatabase,
	sqliteErrorCode,
	storeErrorText,
	withBusyTimeout,
} from "./db.js";
import { DriverLoadError, type SqliteDb } from "./driver.js";
import { INDEX_FORMAT, pointerFileName } from "./format.js";
import { repairTorn } from "./fts-ledger.js";
import {
	createGeneration,
	GENERATION_FILE_SUFFIXES,
	generationOf,
	packageVersion,
	publishGeneration,
	readPointer,
	STORE_LOCK,
} from "./generations.js";
import type { LockedResult, LockHandle, LockOptions } from "./lock.js";
import { applyMigrations, MIGRATIONS_DIR, migrationState } from "./migrations.js";

/** Why the store is a brand-new (empty) generation, when it is. */
type FreshReason = "new" | "missing-file" | "invalid-pointer" | "format-mismatch" | "corrupt" | "migration-failed";

/** An open store. */
export interface Store {
	db: SqliteDb;
	/** Store directory. */
	dir: string;
	/** Generation file name inside `dir`. */
	file: string;
	/** Absolute path of the generation file. */
	path: string;
	/** Generation id. */
	generation: string;
	/** True when this process must not write (newer schema, unwritable directory, or asked to). */
	readOnly: boolean;
	readOnlyReason?: string;
	/** Set when this open created the generation: it is empty and needs a full build. */
	fresh?: FreshReason;
	/** Close the connection (idempotent). */
	close(): void;
	/** True while the pointer still names this generation (one stat; a read only when the pointer changed). */
	isCurrent(): boolean;
}

/** Options for `openStore`. */
export interface OpenStoreOptions {
	/** Store directory (default `<agentDir>/event-index/`, resolved by the caller). */
	dir: string;
	/** Open read-only: never create, migrate or recover (status and verify commands). */
	readonly?: boolean;
	/** Recorded in `meta.created_by` of a new generation (default: this package's name@version). */
	createdBy?: string;
	logger?: StoreLogger;
	/** Lock staleness threshold in ms (tests only). */
	lockStaleMs?: number;
}

/** Why a store could not be opened. */
type OpenStoreErrorCode = "unwritable" | "not-found" | "incompatible" | "locked" | "unsafe" | "failed" | "driver";

/** Outcome of `openStore`; a failure caused by SQLite carries its result code (callers word it by meaning). */
export type OpenStoreResult =
	| { ok: true; store: Store }
	| { ok: false; code: OpenStoreErrorCode; error: string; sqliteCode?: string };

const MAX_ATTEMPTS = 6;

/** Open (creating or recovering as needed) the current store generation in `options.dir`. */
export async function openStore(options: OpenStoreOptions): Promise<OpenStoreResult> {
	const dir = options.dir;
	const logger = options.logger ?? createLogger(dir);
	// A symlinked, foreign or group/world-writable index directory could send writes (or reads) elsewhere: refused.
	const unsafe = unsafeIndexDir(dir);
	if (unsafe) return { ok: false, code: "unsafe", error: `the event index in ${dir} is refused: ${unsafe}` };
	try {
		if (options.readonly) return await openReadOnly(dir, logger, "opened read-only on request");
		const unwritable = checkWritable(dir);
		if (unwritable) {
			logger.log("warn", "store.unwritable", { dir, reason: unwritable });
			return await openReadOnly(dir, logger, `index directory is not writable (${unwritable})`);
		}
		return await openWritable(dir, options, logger);
	} catch (err) {
		logger.log("error", "store.open_failed", { dir, ...errorFields(err) });
		return failedBy(err, "cannot open the event index");
	}
}

/** Returns a reason string when `dir` cannot be created or written. */
function checkWritable(dir: string): string | undefined {
	try {
		mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
		accessSync(dir, constants.W_OK);
		return undefined;
	} catch (err) {
		const code = (err as { code?: unknown }).code;
		if (code === "EACCES" || code === "EROFS" || code === "EPERM" || code === "ENOTDIR" || code === "EEXIST") {
			return String(code);
		}
		throw err;
	}
}

/** One attempt at opening the generation the pointer names, and what the loop does next. */
type Attempt =
	/** The generation is open, migrated and of this format. */
	| { next: "opened"; db: SqliteDb; file: string }
	/** A final answer: read-only, or a failure. */
	| { next: "answer"; result: OpenStoreResult }
	/** A fresh generation replaced the one named (new, corrupt, missing, of another format): read the pointer again. */
	| { next: "replaced"; fresh: FreshReason }
	/** The pointer moved under us: read it again. */
	| { next: "again"; problem: string };

/** What every attempt of one writable open shares. */
interface OpenContext {
	dir: string;
	options: OpenStoreOptions;
	logger: StoreLogger;
	lockOpts: { wait: boolean; logger: StoreLogger; stale?: number };
}

/**
 * Opens the current generation for writing, creating or replacing it when it is missing, damaged or of another
 * format. Each attempt reads the pointer again, since another process may publish a generation at any time.
 */
async function openWritable(dir: string, options: OpenStoreOptions, logger: StoreLogger): Promise<OpenStoreResult> {
	const ctx: OpenContext = { dir, options, logger, lockOpts: { wait: true, logger, stale: options.lockStaleMs } };
	let fresh: FreshReason | undefined;
	let lastProblem = "";
	for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		const step = await attemptOpen(ctx, attempt, lastProblem);
		if (step.next === "opened") return { ok: true, store: makeStore({ db: step.db, dir, file: step.file, fresh }) };
		if (step.next === "answer") return step.result;
		if (step.next === "replaced") fresh = step.fresh;
		else lastProblem = step.problem;
	}
	return {
		ok: false,
		code: "failed",
		error: `cannot open the event index in ${dir}: ${lastProblem || "retries exhausted"}`,
	};
}

async function attemptOpen(ctx: OpenContext, attempt: number, lastProblem: string): Promise<Attempt> {
	const ptr = readPointer(ctx.dir);
	if (!ptr.ok) return createFirstGeneration(ctx, ptr.reason, ptr.reason === "invalid" ? ptr.detail : undefined);
	const { file } = ptr.pointer;
	const opened = await openGenerationFile(ctx, file, attempt, lastProblem);
	if ("next" in opened) return opened;
	const { db } = opened;
	let outcome: Awaited<ReturnType<typeof prepare>>;
	try {
		outcome = await prepare(db, ctx.dir, ctx.lockOpts, ctx.logger);
	} catch (err) {
		db.close();
		if (!isCorruptionError(err)) throw err;
		return replace(ctx, file, "corrupt", err, lastProblem);
	}
	if (outcome === "ok") return { next: "opened", db, file };
	db.close();
	if (outcome === "newer") {
		ctx.logger.log("warn", "store.newer_schema", { file });
		const result = await openReadOnly(
			ctx.dir,
			ctx.logger,
			"the index was migrated by a newer version of pi-event-index",
		);
		return { next: "answer", result };
	}
	return replace(ctx, file, outcome === "format" ? "format-mismatch" : outcome, undefined, lastProblem);
}

/**
 * Creates the first generation (or replaces an unreadable pointer) under the lock; checks again inside it, because
 * another process may have done it while we waited.
 */
async function createFirstGeneration(ctx: OpenContext, why: "missing" | "invalid", detail?: string): Promise<Attempt> {
	if (why === "invalid") ctx.logger.log("warn", "store.invalid_pointer", { detail });
	const made = await withStoreLock(
		ctx.dir,
		async () => {
			const again = readPointer(ctx.dir);
			if (again.ok || (again.reason === "missing") !== (why === "missing")) return false;
			await replaceGeneration(ctx.dir, ctx.options, ctx.logger);
			return true;
		},
		ctx.lockOpts,
	);
	if (!made.ok) return { next: "answer", result: lockFailure(made.error) };
	return made.value ? { next: "replaced", fresh: why === "missing" ? "new" : "invalid-pointer" } : again("");
}

/** The generation file opened for writing, or what to do instead. */
async function openGenerationFile(
	ctx: OpenContext,
	file: string,
	attempt: number,
	lastProblem: string,
): Promise<{ db: SqliteDb } | Attempt> {
	const path = join(ctx.dir, file);
	try {
		return { db: await openDatabase(path, { fileMustExist: true }) };
	} catch (err) {
		if (isCorruptionError(err)) return replace(ctx, file, "corrupt", err, lastProblem);
		if (!exists(path)) {
			// The pointer moved on and the old file was deleted between our two reads: read it again. If it keeps
			// naming a missing file, replace the generation.
			const problem = `generation file ${file} is missing`;
			return attempt >= 2 ? replace(ctx, file, "missing-file", err, problem) : again(problem);
		}
		const code = sqliteErrorCode(err);
		if (code?.startsWith("SQLITE_READONLY") || code === "SQLITE_CANTOPEN" || code === "SQLITE_PERM") {
			return {
				next: "answer",
				result: await openReadOnly(ctx.dir, ctx.logger, `index file is not writable (${code})`),
			};
		}
		throw err;
	}
}

/** Replaces generation `file` (recoverLocked); a lock that cannot be taken is the final answer. */
async function replace(
	ctx: OpenContext,
	file: string,
	reason: FreshReason,
	err: unknown,
	problem: string,
): Promise<Attempt> {
	if (!(await recoverLocked(ctx.dir, file, reason, err, ctx.options, ctx.logger))) {
		return { next: "answer", result: lockFailure(problem) };
	}
	return { next: "replaced", fresh: reason };
}

function again(problem: string): Attempt {
	return { next: "again", problem };
}

/** A failure caused by `err`: `what`, then why (a full disk in plain words), with SQLite's code when it has one. */
function failedBy(err: unknown, what: string): OpenStoreResult {
	if (err instanceof DriverLoadError) return { ok: false, code: "driver", error: err.message };
	const failed: OpenStoreResult = { ok: false, code: "failed", error: `${what}: ${storeErrorText(err)}` };
	const sqliteCode = sqliteErrorCode(err);
	return sqliteCode ? { ...failed, sqliteCode } : failed;
}

function lockFailure(detail: string): OpenStoreResult {
	return {
		ok: false,
		code: "locked",
		error: `the event index is busy or its lock cannot be taken${detail ? `: ${detail}` : ""}`,
	};
}

/**
 * Run `fn` holding the store lock. lock.ts (and proper-lockfile with it) is loaded on first use: opening the index
 * read-only takes no lock, and neither does a writable open of a current generation.
 */
async function withStoreLock<T>(
	dir: string,
	fn: (handle: LockHandle) => Promise<T>,
	options: LockOptions,
): Promise<LockedResult<T>> {
	const { withExclusiveLock } = await import("./lock.js");
	return withExclusiveLock(dir, STORE_LOCK, fn, options);
}

/** Check journal and format; migrate (under the lock) when migrations are pending. */
async function prepare(
	db: SqliteDb,
	dir: string,
	lockOpts: { wait: boolean; logger: StoreLogger; stale?: number },
	logger: StoreLogger,
): Promise<"ok" | "newer" | "format" | "corrupt" | "migration-failed"> {
	const state = migrationState(db);
	if (state.status === "newer") return "newer";
	if (state.status === "pending") {
		const migrated = await withStoreLock(
			dir,
			async () => {
				// drizzle's migrate reads its journal before a deferred BEGIN and races across processes: re-check.
				const again = migrationState(db);
				if (again.status !== "pending") return again.status;
				try {
					await applyMigrations(db, MIGRATIONS_DIR);
				} catch (err) {
					if (isCorruptionError(err)) throw err;
					logger.log("error", "store.migration_failed", { file: db.path, ...errorFields(err) });
					return "failed" as const;
				}
				logger.log("info", "store.migrated", { file: db.path, from: again.applied, to: again.known });
				return "current" as const;
			},
			lockOpts,
		);
		if (!migrated.ok) throw new Error(migrated.error);
		if (migrated.value === "newer") return "newer";
		if (migrated.value === "failed") return "migration-failed";
	}
	if (readFormat(db) !== String(INDEX_FORMAT)) return "format";
	repairTornCommit(db, logger);
	return "ok";
}

/**
 * Repairs a transaction that a crash left in one of the store's two files (fts-ledger.ts), so readers meet a whole
 * index. Only when the halves differ, and without waiting: a writer holding the lock repairs it itself first.
 */
function repairTornCommit(db: SqliteDb, logger: StoreLogger): void {
	try {
		const repair = withBusyTimeout(db, 0, () => repairTorn(db));
		if (repair) logger.log("warn", "store.torn_commit_repaired", { file: db.path, ...repair });
	} catch (err) {
		if (!isBusyError(err)) throw err;
	}
}

function readFormat(db: SqliteDb): string | undefined {
	try {
		return db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'format'").get()?.value;
	} catch (err) {
		if (isCorruptionError(err)) throw err;
		return undefined;
	}
}

/**
 * Replace generation `file` with a fresh one, under the store lock. Does nothing if the pointer moved on while we
 * waited (someone else recovered). A corrupt file is renamed aside, never deleted. Returns false if the lock could
 * not be taken.
 */
async function recoverLocked(
	dir: string,
	file: string,
	reason: FreshReason,
	err: unknown,
	options: OpenStoreOptions,
	logger: StoreLogger,
): Promise<boolean> {
	const result = await withStoreLock(
		dir,
		async () => {
			const ptr = readPointer(dir);
			if (!ptr.ok || ptr.pointer.file !== file) return;
			if (reason === "corrupt") moveAside(dir, file, err, logger);
			else logger.log("warn", "store.rebuild", { file, reason });
			await replaceGeneration(dir, options, logger);
		},
		{ wait: true, logger, stale: options.lockStaleMs },
	);
	return result.ok;
}

/** Create and publish a new empty generation (caller holds the store lock). */
async function replaceGeneration(dir: string, options: OpenStoreOptions, logger: StoreLogger): Promise<void> {
	const gen = await createGeneration(dir, { createdBy: options.createdBy ?? packageVersion(), logger });
	gen.db.close();
	const published = await publishGeneration(dir, gen.file, { logger, holdingStoreLock: true });
	if (!published.ok) throw new Error(published.error);
}

/** Rename a corrupt generation (and its side files) to `<name>.corrupt-<timestamp>`. */
function moveAside(dir: string, file: string, err: unknown, logger: StoreLogger): void {
	const stamp = new Date().toISOString().replace(/[:.]/g, "-");
	const aside = `${file}.corrupt-${stamp}`;
	for (const suffix of GENERATION_FILE_SUFFIXES) {
		try {
			renameSync(join(dir, file + suffix), join(dir, aside + suffix));
		} catch {
			// Side files may not exist.
		}
	}
	logger.log("error", "store.corrupt_moved_aside", { file, movedTo: aside, ...errorFields(err) });
}

/** Record a corrupt generation found after open (e.g. SQLITE_CORRUPT in a query): move it aside, start fresh. */
export async function recoverCorruptStore(store: Store, err: unknown, options: Omit<OpenStoreOptions, "dir"> = {}) {
	const logger = options.logger ?? createLogger(store.dir);
	store.close();
	const ok = await recoverLocked(store.dir, store.file, "corrupt", err, { ...options, dir: store.dir }, logger);
	return ok ? openStore({ ...options, dir: store.dir, logger }) : lockFailure("");
}

/** Open the current generation read-only (no creation, migration or recovery). */
async function openReadOnly(dir: string, logger: StoreLogger, reason: string): Promise<OpenStoreResult> {
	for (let attempt = 0; attempt < 3; attempt++) {
		const ptr = readPointer(dir);
		if (!ptr.ok) {
			return {
				ok: false,
				code: "not-found",
				error: `no usable event index in ${dir} (${reason}; pointer ${pointerFileName()} ${ptr.reason})`,
			};
		}
		const { file } = ptr.pointer;
		let db: SqliteDb;
		let state: ReturnType<typeof migrationState>;
		try {
			({ db, state } = await openReadOnlyDb(join(dir, file)));
		} catch (err) {
			if (!exists(join(dir, file))) continue;
			return failedBy(err, "cannot open the event index read-only");
		}
		try {
			if (state.status === "pending") {
				db.close();
				return {
					ok: false,
					code: "incompatible",
					error: `the event index in ${dir} needs a migration but ${reason}`,
				};
			}
			if (state.status === "current" && readFormat(db) !== String(INDEX_FORMAT)) {
				db.close();
				return { ok: false, code: "incompatible", error: `the event index in ${dir} has another format and ${reason}` };
			}
			const why = state.status === "newer" ? "the index was migrated by a newer version of pi-event-index" : reason;
			logger.log("info", "store.opened_read_only", { file, reason: why });
			return { ok: true, store: makeStore({ db, dir, file, readOnlyReason: why }) };
		} catch (err) {
			db.close();
			return failedBy(err, "cannot read the event index");
		}
	}
	return { ok: false, code: "not-found", error: `the event index in ${dir} keeps changing; try again` };
}

/**
 * Open `path` read-only and read its journal. A WAL database in a directory we cannot write, with no `-shm` file
 * (no writer has it open), cannot be read normally (SQLITE_READONLY_DIRECTORY); it is opened immutable instead.
 */
async function openReadOnlyDb(path: string): Promise<{ db: SqliteDb; state: ReturnType<typeof migrationState> }> {
	let db: SqliteDb | undefined;
	try {
		// The full-text file is attached (and its header read) inside openDatabase: it fails the same ways.
		db = await openDatabase(path, { readonly: true });
		return { db, state: migrationState(db) };
	} catch (err) {
		db?.close();
		const code = sqliteErrorCode(err);
		if (code !== "SQLITE_READONLY_DIRECTORY" && code !== "SQLITE_CANTOPEN" && code !== "SQLITE_READONLY_CANTINIT") {
			throw err;
		}
	}
	db = await openDatabase(path, { immutable: true });
	try {
		return { db, state: migrationState(db) };
	} catch (err) {
		db.close();
		throw err;
	}
}

function exists(path: string): boolean {
	try {
		statSync(path);
		return true;
	} catch {
		return false;
	}
}

/** An open generation: read-only when it has a reason to be, fresh when this open created it. */
interface OpenedGeneration {
	db: SqliteDb;
	dir: string;
	file: string;
	readOnlyReason?: string;
	fresh?: FreshReason;
}

function makeStore({ db, dir, file, readOnlyReason, fresh }: OpenedGeneration): Store {
	const readOnly = readOnlyReason !== undefined;
	const pointerPath = join(dir, pointerFileName());
	let seen: { ino: number; mtimeMs: number; size: number } | undefined;
	let current = true;
	const store: Store = {
		db,
		dir,
		file,
		path: join(dir, file),
		generation: generationOf(file) ?? file,
		readOnly,
		close: () => db.close(),
		isCurrent() {
			let st: { ino: number; mtimeMs: number; size: number };
			try {
				st = statSync(pointerPath);
			} catch {
				return false;
			}
			// The pointer is replaced by rename, so an unchanged inode and mtime mean an unchanged pointer.
			if (seen && seen.ino === st.ino && seen.mtimeMs === st.mtimeMs && seen.size === st.size) return current;
			const ptr = readPointer(dir);
			current = ptr.ok && ptr.pointer.file === file;
			seen = { ino: st.ino, mtimeMs: st.mtimeMs, size: st.size };
			return current;
		},
	};
	if (readOnlyReason !== undefined) store.readOnlyReason = readOnlyReason;
	if (fresh !== undefined) store.fresh = fresh;
	return store;
}
