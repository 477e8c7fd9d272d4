/**
 * The one interface every SQLite driver module implements (driver-node-sqlite.ts, driver-better-sqlite3.ts,
 * driver-bun-sqlite.ts): the subset of a connection the store uses. db.ts chooses and loads a driver.
 */
/** Result of a write statement. */
export interface SqliteRunResult {
	changes: number;
	lastInsertRowid: number | bigint;
}

/**
 * A prepared statement (the subset both drivers share). `get` returns undefined when there is no row. Named
 * parameters are written `@name` in SQL and passed as one object without the prefix: `{ name: value }`.
 */
export interface SqliteStatement<Params extends unknown[] = unknown[], Row = unknown> {
	run(...params: Params): SqliteRunResult;
	get(...params: Params): Row | undefined;
	all(...params: Params): Row[];
	iterate(...params: Params): IterableIterator<Row>;
}

/** Which driver backs a connection. */
export type SqliteDriverName = "better-sqlite3" | "bun:sqlite" | "node:sqlite";

/** An open SQLite connection. */
export interface SqliteDb {
	/** Which driver backs this connection (for diagnostics only: callers must not branch on it). */
	readonly driver: SqliteDriverName;
	/** Database file path. */
	readonly path: string;
	/** Opened read-only (no writes possible through this connection). */
	readonly readonly: boolean;
	/** Prepare one statement (cache the result for hot paths). */
	prepare<Params extends unknown[] = unknown[], Row = unknown>(sql: string): SqliteStatement<Params, Row>;
	/** Run one or more statements without parameters. */
	exec(sql: string): void;
	/** Run `fn` inside `BEGIN IMMEDIATE … COMMIT` (ROLLBACK on throw); nested calls become savepoints. */
	transaction<T>(fn: () => T): T;
	/** Run a pragma and return its single value, e.g. `pragma("journal_mode")`. */
	pragma(source: string): unknown;
	/** True until `close()`. */
	readonly isOpen: boolean;
	/** Close the connection (idempotent). */
	close(): void;
}

/** What a driver module gets from `openDatabase`: the resolved open mode and the pragmas to run, in order. */
export interface DriverOpenRequest {
	/** Database file path (absolute). */
	path: string;
	/** Read-only connection (true for immutable too). */
	readonly: boolean;
	/** Open through a `file:…?immutable=1` URI. */
	immutable: boolean;
	/** Fail instead of creating a missing file. */
	fileMustExist: boolean;
	/** Pragma sources such as "journal_mode = WAL", run in order right after opening. */
	pragmas: string[];
}

/**
 * The SQLite driver itself cannot load (a native addon missing or built for another Node): the message says in one
 * line what to run and where, and is shown whole, to the model and to people alike.
 */
export class DriverLoadError extends Error {
	override name = "DriverLoadError";
}

/** A driver module: opens one connection (closing it again if a pragma fails) and throws the driver's error. */
export type OpenDriver = (request: DriverOpenRequest) => SqliteDb;
