/**
 * The driver for a Node without node:sqlite (Pi 0.73 on Node 20): better-sqlite3, a native addon. Statements are better-sqlite3's own
 * objects (their API already matches `SqliteStatement`), so hot paths pay no extra indirection.
 */
import { pathToFileURL } from "node:url";
import type BetterSqlite3 from "better-sqlite3";
import type { DriverOpenRequest, OpenDriver, SqliteDb, SqliteStatement } from "./db.js";

/** Load better-sqlite3; returns the opener. */
export async function loadBetterSqlite3(): Promise<OpenDriver> {
	// better-sqlite3 reads this once, when the addon loads, to allow `file:` URIs (needed for `immutable`).
	// Our own paths are absolute, so URI parsing changes nothing else.
	process.env.SQLITE_USE_URI ??= "1";
	const Database = (await import("better-sqlite3")).default;
	return (request: DriverOpenRequest): SqliteDb => {
		const name = request.immutable ? `${pathToFileURL(request.path).href}?immutable=1` : request.path;
		const raw = new Database(name, { readonly: request.readonly, fileMustExist: request.fileMustExist });
		try {
			for (const p of request.pragmas) raw.pragma(p);
		} catch (err) {
			raw.close();
			throw err;
		}
		return wrap(raw, request);
	};
}

function wrap(raw: BetterSqlite3.Database, request: DriverOpenRequest): SqliteDb {
	return {
		driver: "better-sqlite3",
		path: request.path,
		readonly: request.readonly,
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
		get isOpen() {
			return raw.open;
		},
		close() {
			if (raw.open) raw.close();
		},
	};
}
