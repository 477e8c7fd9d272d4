/**
 * The Bun driver: bun:sqlite, for Pi's release binaries (embedded Bun), where
 * better-sqlite3's native addon does not load. Differences from better-sqlite3 handled here:
 * - `get` returns null for no row: normalized to undefined.
 * - un-prefixed named parameters (`{ name }` for `@name`) need the `strict` open option;
 * - `file:` URIs (for `immutable=1`) need the SQLITE_OPEN_URI flag, which only the numeric-flags constructor
 *   accepts, and that one cannot set `strict`: such (rare, read-only) connections prefix named keys themselves.
 * - `pragma` has no helper: run it as a statement and return the first column of the first row.
 * - `close()` only really closes once every statement is finalized (until then the connection lingers, its WAL
 *   unmerged, and old statements keep working): live statements are tracked weakly and finalized on close.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { DriverOpenRequest, OpenDriver, SqliteDb, SqliteRunResult, SqliteStatement } from "./driver.js";

/** The part of a bun:sqlite statement we use. */
interface BunStatement {
	finalize(): void;
	run(...params: unknown[]): SqliteRunResult;
	get(...params: unknown[]): unknown;
	all(...params: unknown[]): unknown[];
	iterate(...params: unknown[]): IterableIterator<unknown>;
}

/** The part of a bun:sqlite Database we use. */
interface BunDatabase {
	prepare(sql: string): BunStatement;
	exec(sql: string): void;
	transaction<T>(fn: () => T): { immediate(): T };
	close(throwOnError?: boolean): void;
}

/** Options of bun:sqlite's Database constructor (an object, or raw SQLITE_OPEN_* flags). */
type BunOpenOptions = number | { readonly?: boolean; create?: boolean; readwrite?: boolean; strict?: boolean };

/** The bun:sqlite module (typed locally: the package has no Bun type definitions). */
interface BunSqliteModule {
	Database: new (filename: string, options?: BunOpenOptions) => BunDatabase;
	constants: { SQLITE_OPEN_READONLY: number; SQLITE_OPEN_URI: number };
}

/** Load bun:sqlite; returns the opener. */
export async function loadBunSqlite(): Promise<OpenDriver> {
	// A plain require keeps `bun:sqlite` away from loaders (vitest, Pi's jiti) that do not know the scheme.
	const bun = createRequire(import.meta.url)("bun:sqlite") as BunSqliteModule;
	return (request: DriverOpenRequest): SqliteDb => {
		const raw = request.immutable
			? new bun.Database(
					`${pathToFileURL(request.path).href}?immutable=1`,
					bun.constants.SQLITE_OPEN_READONLY | bun.constants.SQLITE_OPEN_URI,
				)
			: new bun.Database(
					request.path,
					request.readonly
						? { readonly: true, strict: true }
						: { readwrite: true, create: !request.fileMustExist, strict: true },
				);
		const strict = !request.immutable;
		try {
			for (const p of request.pragmas) pragmaValue(raw, p);
		} catch (err) {
			raw.close();
			throw err;
		}
		return wrap(raw, strict, request);
	};
}

function wrap(raw: BunDatabase, strict: boolean, request: DriverOpenRequest): SqliteDb {
	const statements = new StatementTracker();
	let open = true;
	return {
		driver: "bun:sqlite",
		path: request.path,
		readonly: request.readonly,
		prepare<Params extends unknown[], Row>(sql: string) {
			return wrapStatement(statements.add(raw.prepare(sql)), strict) as unknown as SqliteStatement<Params, Row>;
		},
		exec(sql) {
			raw.exec(sql);
		},
		transaction<T>(fn: () => T): T {
			return raw.transaction(fn).immediate();
		},
		pragma(source) {
			return pragmaValue(raw, source);
		},
		get isOpen() {
			return open;
		},
		close() {
			if (!open) return;
			open = false;
			statements.finalizeAll();
			raw.close();
		},
	};
}

/** Runs one pragma and returns the first column of its first row; the statement is finalized at once. */
function pragmaValue(raw: BunDatabase, source: string): unknown {
	const statement = raw.prepare(`PRAGMA ${source}`);
	try {
		const row = statement.get() as Record<string, unknown> | null;
		return row === null ? undefined : Object.values(row)[0];
	} finally {
		statement.finalize();
	}
}

/** Weak references to a connection's live statements (collected ones drop out), to finalize them on close. */
class StatementTracker {
	private readonly live = new Set<WeakRef<BunStatement>>();
	private readonly collected = new FinalizationRegistry<WeakRef<BunStatement>>((ref) => this.live.delete(ref));

	add(statement: BunStatement): BunStatement {
		const ref = new WeakRef(statement);
		this.live.add(ref);
		this.collected.register(statement, ref, ref);
		return statement;
	}

	finalizeAll(): void {
		for (const ref of this.live) {
			const statement = ref.deref();
			if (statement === undefined) continue;
			this.collected.unregister(ref);
			statement.finalize();
		}
		this.live.clear();
	}
}

function wrapStatement(s: BunStatement, strict: boolean): SqliteStatement {
	if (!strict) {
		const p = prefixNamed;
		return {
			run: (...a) => s.run(...p(a)),
			get: (...a) => s.get(...p(a)) ?? undefined,
			all: (...a) => s.all(...p(a)),
			iterate: (...a) => s.iterate(...p(a)),
		};
	}
	return {
		run: (...a) => s.run(...a),
		get: (...a) => s.get(...a) ?? undefined,
		all: (...a) => s.all(...a),
		iterate: (...a) => s.iterate(...a),
	};
}

/** Without `strict`, bun:sqlite matches object keys literally: `{ id }` must become `{ "@id": … }`. */
function prefixNamed(args: unknown[]): unknown[] {
	const [first] = args;
	if (args.length !== 1 || first === null || typeof first !== "object" || Array.isArray(first)) return args;
	if (ArrayBuffer.isView(first)) return args;
	const named: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(first)) named[/^[@$:]/.test(k) ? k : `@${k}`] = v;
	return [named];
}
