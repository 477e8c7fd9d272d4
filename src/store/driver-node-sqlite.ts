/**
 * The driver built into Node (`node:sqlite`, Node ≥ 22.13 without a flag, with FTS5): what Pi 1.x runs on, and no
 * native addon to build, so a Node upgrade cannot leave a stale binary behind (docs/store.md, "Drivers").
 * Differences from better-sqlite3 handled here:
 * - errors carry `code: "ERR_SQLITE_ERROR"` and the numeric extended result code in `errcode`: rethrown with the
 *   result code's name in `code` (SQLITE_BUSY, SQLITE_CORRUPT_INDEX, …), as the other drivers report it;
 * - no transaction helper: BEGIN IMMEDIATE … COMMIT, nested calls as savepoints (better-sqlite3's semantics);
 * - no pragma helper: run it as a statement and return the first column of the first row;
 * - an object with keys the SQL does not name is refused unless `allowUnknownNamedParameters` (better-sqlite3
 *   ignores them);
 * - loading the module prints an ExperimentalWarning, which would land in Pi's terminal: that one warning is dropped.
 */
import { pathToFileURL } from "node:url";
import type { DriverOpenRequest, OpenDriver, SqliteDb, SqliteRunResult, SqliteStatement } from "./driver.js";
import { sqliteResultName } from "./result-codes.js";

/** The part of a node:sqlite statement we use. */
interface NodeStatement {
	run(...params: unknown[]): SqliteRunResult;
	get(...params: unknown[]): unknown;
	all(...params: unknown[]): unknown[];
	iterate(...params: unknown[]): IterableIterator<unknown>;
}

/** The part of a node:sqlite DatabaseSync we use. */
interface NodeDatabase {
	prepare(sql: string): NodeStatement;
	exec(sql: string): void;
	close(): void;
	readonly isOpen: boolean;
	readonly isTransaction: boolean;
}

/** Options of DatabaseSync's constructor (typed locally: @types/node for Node 20 has no node:sqlite). */
interface NodeOpenOptions {
	readOnly?: boolean;
	allowUnknownNamedParameters?: boolean;
}

/** The node:sqlite module. */
interface NodeSqliteModule {
	DatabaseSync: new (path: string, options?: NodeOpenOptions) => NodeDatabase;
}

const EXPERIMENTAL_SQLITE = /SQLite is an experimental feature/;

/**
 * node:sqlite when this Node has it without a flag, else undefined. `process.getBuiltinModule` keeps the import away
 * from loaders (Pi's jiti, vitest) and answers undefined instead of throwing where the module does not exist.
 */
function nodeSqliteModule(): NodeSqliteModule | undefined {
	const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
	if (typeof getBuiltin !== "function") return undefined;
	const emit = process.emitWarning;
	process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
		const text = typeof warning === "string" ? warning : warning.message;
		if (!EXPERIMENTAL_SQLITE.test(text)) (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
	}) as typeof process.emitWarning;
	try {
		return getBuiltin("node:sqlite") as NodeSqliteModule | undefined;
	} catch {
		return undefined;
	} finally {
		process.emitWarning = emit;
	}
}

/** Load node:sqlite; returns the opener. Throws when this Node has no node:sqlite. */
export async function loadNodeSqlite(): Promise<OpenDriver> {
	const sqlite = nodeSqliteModule();
	if (sqlite === undefined) throw new Error(`node:sqlite is not available in Node ${process.version}`);
	return (request: DriverOpenRequest): SqliteDb => {
		// A URI for immutable (read the main file only) and for fileMustExist (mode=rw refuses to create).
		const uri = request.immutable || (request.fileMustExist && !request.readonly);
		const name = uri
			? `${pathToFileURL(request.path).href}?${request.immutable ? "immutable=1" : "mode=rw"}`
			: request.path;
		const raw = call(
			() =>
				new sqlite.DatabaseSync(name, {
					readOnly: request.readonly,
					allowUnknownNamedParameters: true,
				}),
		);
		try {
			for (const p of request.pragmas) pragmaValue(raw, p);
		} catch (err) {
			raw.close();
			throw err;
		}
		return wrap(raw, request);
	};
}

function wrap(raw: NodeDatabase, request: DriverOpenRequest): SqliteDb {
	let savepoints = 0;
	return {
		driver: "node:sqlite",
		path: request.path,
		readonly: request.readonly,
		prepare<Params extends unknown[], Row>(sql: string) {
			return wrapStatement(call(() => raw.prepare(sql))) as unknown as SqliteStatement<Params, Row>;
		},
		exec(sql) {
			call(() => raw.exec(sql));
		},
		transaction<T>(fn: () => T): T {
			if (!raw.isTransaction) return inTransaction(raw, "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK", fn);
			const name = `pei_sp${++savepoints}`;
			try {
				return inTransaction(raw, `SAVEPOINT ${name}`, `RELEASE ${name}`, `ROLLBACK TO ${name}; RELEASE ${name}`, fn);
			} finally {
				savepoints--;
			}
		},
		pragma(source) {
			return pragmaValue(raw, source);
		},
		get isOpen() {
			return raw.isOpen;
		},
		close() {
			if (raw.isOpen) raw.close();
		},
	};
}

/** Runs `fn` between `begin` and `commit`; on a throw runs `rollback` (when the transaction is still open). */
function inTransaction<T>(raw: NodeDatabase, begin: string, commit: string, rollback: string, fn: () => T): T {
	call(() => raw.exec(begin));
	let result: T;
	try {
		result = fn();
	} catch (err) {
		if (raw.isTransaction) call(() => raw.exec(rollback));
		throw err;
	}
	try {
		call(() => raw.exec(commit));
	} catch (err) {
		if (raw.isTransaction) call(() => raw.exec(rollback));
		throw err;
	}
	return result;
}

/** Runs one pragma and returns the first column of its first row. */
function pragmaValue(raw: NodeDatabase, source: string): unknown {
	const row = call(() => raw.prepare(`PRAGMA ${source}`).get()) as Record<string, unknown> | undefined;
	return row === undefined ? undefined : Object.values(row)[0];
}

function wrapStatement(s: NodeStatement): SqliteStatement {
	return {
		run: (...a) => call(() => s.run(...a)),
		get: (...a) => call(() => s.get(...a)),
		all: (...a) => call(() => s.all(...a)),
		iterate: (...a) => iterateNamed(s.iterate(...a)),
	};
}

function* iterateNamed(rows: IterableIterator<unknown>): IterableIterator<unknown> {
	for (;;) {
		const next = call(() => rows.next());
		if (next.done) return;
		yield next.value;
	}
}

/** Runs `fn`, rethrowing a node:sqlite error with its result code's name in `code`. */
function call<T>(fn: () => T): T {
	try {
		return fn();
	} catch (err) {
		throw named(err);
	}
}

function named(err: unknown): unknown {
	const e = err as { code?: unknown; errcode?: unknown } | null;
	if (e !== null && typeof e === "object" && e.code === "ERR_SQLITE_ERROR" && typeof e.errcode === "number") {
		e.code = sqliteResultName(e.errcode);
	}
	return err;
}
