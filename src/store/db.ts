/**
 * The ONLY module that knows which SQLite driver runs: bun:sqlite on Bun (Pi's release binaries embed Bun), node:sqlite
 * on a Node that has it (≥ 22.13: Pi 1.x's Node), better-sqlite3 on older Node (Pi 0.73 on Node 20). The built-in
 * drivers need no native addon, so no Node upgrade can leave one built for another Node behind (docs/store.md,
 * "Drivers"). Everything else talks to `SqliteDb`. The driver is loaded lazily, so merely importing this module never
 * loads a native addon; each driver lives in its own `driver-*.ts` file and is imported only where it can load.
 */
import { pathToFileURL } from "node:url";
import { onBun } from "../runtime.js";
import type { OpenDriver, SqliteDb, SqliteDriverName } from "./driver.js";
import { PackedTextError } from "./lz-dict.js";
import { StoreDamageError } from "./store-damage.js";

/** How to open a database file. */
export interface OpenDatabaseOptions {
	/** Open read-only: no pragmas that write, no schema changes. */
	readonly?: boolean;
	/** Fail (SQLITE_CANTOPEN) instead of creating a missing file. */
	fileMustExist?: boolean;
	/**
	 * Open read-only as an immutable file (SQLite `immutable=1`): the only way to read a WAL database whose
	 * directory is not writable and has no `-shm` file. SQLite then assumes nobody changes the file.
	 */
	immutable?: boolean;
	/** Milliseconds a statement waits on a locked database before SQLITE_BUSY (default 10 s). */
	busyTimeoutMs?: number;
	/**
	 * The file is a new store being created: set what only an empty file takes, before anything writes its header
	 * (`auto_vacuum = INCREMENTAL`, so pages FTS5's merges free can be given back: free-pages.ts).
	 */
	create?: boolean;
	/**
	 * Attach the store's full-text file (`<path>-fts`) as schema `fts` (default true). Off only to open a file on its
	 * own: the full-text thread of a two-thread pass opens the full-text file so (docs/store.md, "The full-text
	 * file"); the writing thread of that pass detaches it instead (`detachFtsFile`).
	 */
	fts?: boolean;
}

/** Schema name of the full-text file on every store connection: `fragments_fts` and `fts_meta` live there. */
export const FTS_SCHEMA = "fts";

/** The full-text file beside a store file: the store file's name plus this suffix. */
export const FTS_FILE_SUFFIX = "-fts";

/** Path of the full-text file of the store file `path` (an in-memory store's is in memory too). */
export function ftsFilePath(path: string): string {
	return path === ":memory:" ? path : path + FTS_FILE_SUFFIX;
}

/** The schemas of a store connection, one per file: the store file (`main`) and its full-text file. */
export const STORE_SCHEMAS = ["main", FTS_SCHEMA] as const;

/** One file of a store: the schema it is on a connection, and its path. */
export interface StoreFile {
	schema: (typeof STORE_SCHEMAS)[number];
	path: string;
}

/** The files of the store whose store file is `path`, in STORE_SCHEMAS order. */
export function storeFiles(path: string): StoreFile[] {
	return [
		{ schema: "main", path },
		{ schema: FTS_SCHEMA, path: ftsFilePath(path) },
	];
}

/** Bytes a WAL file is truncated to when it restarts after a checkpoint. */
const WAL_SIZE_LIMIT = 4 << 20;

/**
 * Bytes of the database file a connection reads through mmap (SQLite's compile-time ceiling, ≈ 2 GiB) instead of
 * copying pages into its own 2 MiB page cache. A search touches a few MiB of FTS pages, indexes and rows spread over
 * the whole file, and the classes of a session's questions evict each other from that cache: mapped reads are as fast
 * as a large page cache, but the mapped pages are the kernel's page cache, shared by every Pi process and reclaimable, not 64 MiB of
 * heap per process. The cost: an I/O error while reading a mapped page is a signal, not an error code (docs/store.md,
 * "Connection settings"). Bulk writers turn it off (catch-up-job.ts).
 */
export const QUERY_MMAP_BYTES = 0x7fff0000;

/** Default busy timeout: long enough that no SQLITE_BUSY reaches a tool result under normal contention. */
const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/**
 * The environment variable that picks a driver by name instead (benchmarks run both drivers side by side; tests pin
 * one): any SqliteDriverName the runtime can load.
 */
const DRIVER_ENV = "PEI_SQLITE_DRIVER";

let driverPromise: Promise<OpenDriver> | undefined;

function loadDriver(): Promise<OpenDriver> {
	driverPromise ??= loadNamedDriver(chosenDriver());
	return driverPromise;
}

/** The driver this runtime uses: DRIVER_ENV when set, else the first of bun:sqlite, node:sqlite, better-sqlite3 it has. */
export function chosenDriver(): SqliteDriverName {
	const wanted = process.env[DRIVER_ENV];
	if (wanted === "better-sqlite3" || wanted === "bun:sqlite" || wanted === "node:sqlite") return wanted;
	if (onBun()) return "bun:sqlite";
	return nodeHasSqlite() ? "node:sqlite" : "better-sqlite3";
}

function loadNamedDriver(name: SqliteDriverName): Promise<OpenDriver> {
	switch (name) {
		case "bun:sqlite":
			return import("./driver-bun-sqlite.js").then((m) => m.loadBunSqlite());
		case "node:sqlite":
			return import("./driver-node-sqlite.js").then((m) => m.loadNodeSqlite());
		case "better-sqlite3":
			return import("./driver-better-sqlite3.js").then((m) => m.loadBetterSqlite3());
	}
}

/** True on a Node whose node:sqlite loads without a flag (22.13 and later; Node 20 has none). */
function nodeHasSqlite(): boolean {
	const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
	return major > 22 || (major === 22 && minor >= 13);
}

/**
 * Open (or create) a store file with the store's connection settings (WAL, busy_timeout, foreign_keys=ON,
 * synchronous=NORMAL, journal_size_limit, mmap_size) and its full-text file attached (`attachFtsFile`, unless
 * `fts: false`). Read-only connections skip the pragmas that write. Throws the driver's error (with a
 * `code` such as SQLITE_NOTADB or SQLITE_CANTOPEN) when the file cannot be opened; see `sqliteErrorCode`.
 */
export async function openDatabase(path: string, options: OpenDatabaseOptions = {}): Promise<SqliteDb> {
	const open = await loadDriver();
	const readonly = options.readonly === true || options.immutable === true;
	const pragmas = [`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`];
	// auto_vacuum before journal_mode: switching to WAL writes the header, after which the setting is fixed.
	if (!readonly && options.create === true) pragmas.push("auto_vacuum = INCREMENTAL");
	const immutable = options.immutable === true;
	const db = open({
		path,
		readonly,
		immutable,
		fileMustExist: readonly || options.fileMustExist === true,
		pragmas: [...pragmas, ...fileSettings(readonly), "foreign_keys = ON"],
	});
	if (options.fts === false) return db;
	try {
		attachFtsFile(db, { immutable, create: options.create === true });
	} catch (err) {
		db.close();
		throw err;
	}
	return db;
}

/** How `attachFtsFile` attaches: as the connection was opened. */
interface AttachOptions {
	/** Through a `file:…?immutable=1` URI (the connection was opened immutable). */
	immutable?: boolean;
	/** The file is new: set what only an empty file takes (see OpenDatabaseOptions.create). */
	create?: boolean;
}

/**
 * Attaches the store's full-text file to a store connection as FTS_SCHEMA, with the connection settings of a store
 * file. ATTACH opens the file with the connection's flags: read-only stays read-only, and a missing file is created
 * only on a read-write connection. Throws the driver's error.
 */
export function attachFtsFile(db: SqliteDb, options: AttachOptions = {}): void {
	const file = ftsFilePath(db.path);
	db.prepare(`ATTACH DATABASE ? AS ${FTS_SCHEMA}`).run(
		options.immutable ? `${pathToFileURL(file).href}?immutable=1` : file,
	);
	if (!db.readonly && options.create === true) db.pragma(`${FTS_SCHEMA}.auto_vacuum = INCREMENTAL`);
	for (const p of fileSettings(db.readonly)) db.pragma(`${FTS_SCHEMA}.${p}`);
}

/** Detaches the full-text file (no transaction may be open). */
export function detachFtsFile(db: SqliteDb): void {
	db.exec(`DETACH DATABASE ${FTS_SCHEMA}`);
}

/**
 * The settings SQLite keeps per database file, set on each file of a store connection. journal_mode is the first
 * statement that reads a file's header (a garbage file fails there with SQLITE_NOTADB); journal_size_limit cuts back
 * a WAL that grew (a bulk pass checkpoints every 64 MiB) when it restarts.
 */
function fileSettings(readonly: boolean): string[] {
	const writing = readonly
		? []
		: ["journal_mode = WAL", "synchronous = NORMAL", `journal_size_limit = ${WAL_SIZE_LIMIT}`];
	return [...writing, `mmap_size = ${QUERY_MMAP_BYTES}`];
}

/** The SQLite result code name of a driver error (e.g. "SQLITE_CORRUPT"), or undefined for other errors. */
export function sqliteErrorCode(err: unknown): string | undefined {
	const code = (err as { code?: unknown } | null)?.code;
	return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** True for a result code saying another connection holds the lock (SQLITE_BUSY*, SQLITE_LOCKED*). */
export function isBusyCode(code: string): boolean {
	return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

/** True when SQLite refused because another connection holds the lock. */
export function isBusyError(err: unknown): boolean {
	const code = sqliteErrorCode(err);
	return code !== undefined && isBusyCode(code);
}

/** Runs `fn` with the connection's busy timeout set to `ms`, then restores the default. */
export function withBusyTimeout<T>(db: Pick<SqliteDb, "pragma">, ms: number, fn: () => T): T {
	db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`);
	try {
		return fn();
	} finally {
		db.pragma(`busy_timeout = ${DEFAULT_BUSY_TIMEOUT_MS}`);
	}
}

/**
 * Runs `fn` with the store file read through SQLite's page cache instead of mmap, then restores the mapping it had. For
 * a scan of one table whose pages lie all over the file: the kernel maps 64 KiB around each page it faults in, so
 * reading the 7 MB `sources` table of a 500 MB store through mmap put 100 MiB more in the process's RSS.
 */
export function withoutMmap<T>(db: Pick<SqliteDb, "pragma">, fn: () => T): T {
	const mapped = Number(db.pragma("main.mmap_size"));
	if (!(mapped > 0)) return fn();
	db.pragma("main.mmap_size = 0");
	try {
		return fn();
	} finally {
		db.pragma(`main.mmap_size = ${mapped}`);
	}
}

/**
 * True for errors that mean the file is not a usable SQLite database: corrupt, not a database at all, or shorter
 * than its own page index says (SQLITE_IOERR_SHORT_READ: a truncated file, or a `-wal` file deleted under a live
 * connection, whose frames the shared-memory index still lists; no retry ever makes those pages readable).
 */
export function isCorruptionError(err: unknown): boolean {
	const code = sqliteErrorCode(err);
	return (
		code !== undefined &&
		(code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB" || code === "SQLITE_IOERR_SHORT_READ")
	);
}

/**
 * True for errors that mean the generation is damaged beyond what a query can work around: corruption (tables,
 * FTS blobs, a packed text that cannot be unpacked, a non-database file, damage a store check found), a table of
 * our own migrated schema gone, or a BLOB where SQLite's JSON functions read stored columns (the plan's checkpoints,
 * allViaJson's rows: columns never written as BLOBs, so one is a damaged page read as cells). The answer is always
 * the same: move the generation aside and rebuild it from the session files.
 */
export function isStoreDamage(err: unknown): boolean {
	if (isCorruptionError(err) || err instanceof PackedTextError || err instanceof StoreDamageError) return true;
	const code = sqliteErrorCode(err);
	const message = err instanceof Error ? err.message : "";
	return code !== undefined && /malformed|fts5: corruption|no such table|JSON cannot hold BLOB values/i.test(message);
}

/** The disk-full reason in plain words (SQLite's "database or disk is full" names neither which disk nor what to do). */
export const DISK_FULL_REASON = "the disk holding the index is full; free some space, then run reindex again";

/**
 * True when the disk holding the index is full (SQLITE_FULL, or ENOSPC from a plain file write such as the
 * pointer): no file is at fault and nothing more can be written, so a pass stops instead of failing file by file.
 */
export function isDiskFull(err: unknown): boolean {
	const code = (err as { code?: unknown } | null)?.code;
	return code === "SQLITE_FULL" || code === "ENOSPC";
}

/** Damage in plain words (SQLite's "database disk image is malformed" says neither what is lost nor what to do). */
const DAMAGED_STORE_REASON =
	"the index is damaged; pi-event-index reindex moves it aside and rebuilds it from the session files";

/** The text a person is shown for a store failure: a full disk and damage in plain words, anything else as it is. */
export function storeErrorText(err: unknown): string {
	if (isDiskFull(err)) return DISK_FULL_REASON;
	if (isStoreDamage(err)) return DAMAGED_STORE_REASON;
	return err instanceof Error ? err.message : String(err);
}
