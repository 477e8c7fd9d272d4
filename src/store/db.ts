/**
 * The ONLY module that knows the SQLite driver. Everything else talks to `SqliteDb`, so a `bun:sqlite`
 * implementation (Pi's release binaries embed Bun, where better-sqlite3 does not load) can be added here alone:
 * implement `SqliteDb` over `bun:sqlite` + `drizzle-orm/bun-sqlite` (+ its migrator) and pick it in `loadDriver`.
 * The driver is loaded lazily so that merely importing this module never loads a native addon.
 */
import { pathToFileURL } from "node:url";
import type BetterSqlite3 from "better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.js";

/** Drizzle over the store schema, independent of the driver (both drivers are synchronous). */
export type StoreDrizzle = BaseSQLiteDatabase<"sync", unknown, typeof schema>;

/** Result of a write statement. */
export interface SqliteRunResult {
	changes: number;
	lastInsertRowid: number | bigint;
}

/** A prepared statement (the subset both drivers share). `get` returns undefined when there is no row. */
export interface SqliteStatement<Params extends unknown[] = unknown[], Row = unknown> {
	run(...params: Params): SqliteRunResult;
	get(...params: Params): Row | undefined;
	all(...params: Params): Row[];
	iterate(...params: Params): IterableIterator<Row>;
}

/** An open SQLite connection. */
export interface SqliteDb {
	/** Which driver backs this connection. */
	readonly driver: "better-sqlite3";
	/** Database file path. */
	readonly path: string;
	/** Opened read-only (no writes possible through this connection). */
	readonly readonly: boolean;
	/** Drizzle instance over the same connection. */
	readonly drizzle: StoreDrizzle;
	/** Prepare one statement (cache the result for hot paths). */
	prepare<Params extends unknown[] = unknown[], Row = unknown>(sql: string): SqliteStatement<Params, Row>;
	/** Run one or more statements without parameters. */
	exec(sql: string): void;
	/** Run `fn` inside `BEGIN IMMEDIATE … COMMIT` (ROLLBACK on throw); nested calls become savepoints. */
	transaction<T>(fn: () => T): T;
	/** Run a pragma and return its single value, e.g. `pragma("journal_mode")`. */
	pragma(source: string): unknown;
	/** Apply pending drizzle migrations from `folder` (callers hold the cross-process store lock). */
	migrate(folder: string): void;
	/** True until `close()`. */
	readonly isOpen: boolean;
	/** Close the connection (idempotent). */
	close(): void;
}

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
}

/** Default busy timeout: long enough that no SQLITE_BUSY reaches a tool result under normal contention. */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

interface BetterSqliteDriver {
	Database: typeof BetterSqlite3;
	drizzle: typeof import("drizzle-orm/better-sqlite3").drizzle;
	migrate: typeof import("drizzle-orm/better-sqlite3/migrator").migrate;
}

let driverPromise: Promise<BetterSqliteDriver> | undefined;

function loadDriver(): Promise<BetterSqliteDriver> {
	if (typeof (process.versions as Record<string, string | undefined>).bun === "string") {
		return Promise.reject(
			new Error("pi-event-index: the bun:sqlite driver is not implemented yet; run Pi on Node (npm-installed pi)."),
		);
	}
	driverPromise ??= (async () => {
		// better-sqlite3 reads this once, when the addon loads, to allow `file:` URIs (needed for `immutable`).
		// Our own paths are absolute, so URI parsing changes nothing else.
		process.env.SQLITE_USE_URI ??= "1";
		const [sqlite, orm, migrator] = await Promise.all([
			import("better-sqlite3"),
			import("drizzle-orm/better-sqlite3"),
			import("drizzle-orm/better-sqlite3/migrator"),
		]);
		return { Database: sqlite.default, drizzle: orm.drizzle, migrate: migrator.migrate };
	})();
	return driverPromise;
}

/**
 * Open (or create) a database with the store's connection settings: WAL, busy_timeout, foreign_keys=ON,
 * synchronous=NORMAL. Read-only connections skip the pragmas that write. Throws the driver's error (with a
 * `code` such as SQLITE_NOTADB or SQLITE_CANTOPEN) when the file cannot be opened; see `sqliteErrorCode`.
 */
export async function openDatabase(path: string, options: OpenDatabaseOptions = {}): Promise<SqliteDb> {
	const driver = await loadDriver();
	const readonly = options.readonly === true || options.immutable === true;
	const name = options.immutable ? `${pathToFileURL(path).href}?immutable=1` : path;
	const raw = new driver.Database(name, { readonly, fileMustExist: readonly || options.fileMustExist === true });
	try {
		raw.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`);
		if (!readonly) {
			// The first statement that reads the header: a garbage file fails here with SQLITE_NOTADB.
			raw.pragma("journal_mode = WAL");
			raw.pragma("synchronous = NORMAL");
		}
		raw.pragma("foreign_keys = ON");
	} catch (err) {
		raw.close();
		throw err;
	}
	return wrapBetterSqlite(raw, driver, path, readonly);
}

function wrapBetterSqlite(
	raw: BetterSqlite3.Database,
	driver: BetterSqliteDriver,
	path: string,
	readonly: boolean,
): SqliteDb {
	const orm = driver.drizzle(raw, { schema });
	return {
		driver: "better-sqlite3",
		path,
		readonly,
		drizzle: orm as unknown as StoreDrizzle,
		prepare<Params extends unknown[], Row>(sql: string) {
			return raw.prepare(sql) as unknown as SqliteStatement<Params, Row>;
		},
		exec(sql) {
			raw.exec(sql);
		},
		transaction<T>(fn: () => T): T {
			return raw.transaction(fn).immediate();
		},
		pragma(source) {
			return raw.pragma(source, { simple: true });
		},
		migrate(folder) {
			driver.migrate(orm, { migrationsFolder: folder });
		},
		get isOpen() {
			return raw.open;
		},
		close() {
			if (raw.open) raw.close();
		},
	};
}

/** The SQLite result code name of a driver error (e.g. "SQLITE_CORRUPT"), or undefined for other errors. */
export function sqliteErrorCode(err: unknown): string | undefined {
	const code = (err as { code?: unknown } | null)?.code;
	return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** True for errors that mean the file is not a usable SQLite database (corrupt, or not a database at all). */
export function isCorruptionError(err: unknown): boolean {
	const code = sqliteErrorCode(err);
	return code !== undefined && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB");
}
