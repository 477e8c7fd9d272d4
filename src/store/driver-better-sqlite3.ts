/**
 * The Node driver: better-sqlite3 through drizzle's `better-sqlite3` driver. Statements are better-sqlite3's own
 * objects (their API already matches `SqliteStatement`), so hot paths pay no extra indirection.
 */
import { pathToFileURL } from "node:url";
import type BetterSqlite3 from "better-sqlite3";
import type { DriverOpenRequest, OpenDriver, SqliteDb, SqliteStatement, StoreDrizzle } from "./db.js";
import * as schema from "./schema.js";

/** Load better-sqlite3 and drizzle's driver and migrator; returns the opener. */
export async function loadBetterSqlite3(): Promise<OpenDriver> {
	// better-sqlite3 reads this once, when the addon loads, to allow `file:` URIs (needed for `immutable`).
	// Our own paths are absolute, so URI parsing changes nothing else.
	process.env.SQLITE_USE_URI ??= "1";
	const [sqlite, orm, migrator] = await Promise.all([
		import("better-sqlite3"),
		import("drizzle-orm/better-sqlite3"),
		import("drizzle-orm/better-sqlite3/migrator"),
	]);
	const Database = sqlite.default;
	return (request: DriverOpenRequest): SqliteDb => {
		const name = request.immutable ? `${pathToFileURL(request.path).href}?immutable=1` : request.path;
		const raw = new Database(name, { readonly: request.readonly, fileMustExist: request.fileMustExist });
		try {
			for (const p of request.pragmas) raw.pragma(p);
		} catch (err) {
			raw.close();
			throw err;
		}
		return wrap(raw, orm.drizzle, migrator.migrate, request);
	};
}

function wrap(
	raw: BetterSqlite3.Database,
	drizzle: typeof import("drizzle-orm/better-sqlite3").drizzle,
	migrate: typeof import("drizzle-orm/better-sqlite3/migrator").migrate,
	request: DriverOpenRequest,
): SqliteDb {
	const orm = drizzle(raw, { schema });
	return {
		driver: "better-sqlite3",
		path: request.path,
		readonly: request.readonly,
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
			migrate(orm, { migrationsFolder: folder });
		},
		get isOpen() {
			return raw.open;
		},
		close() {
			if (raw.open) raw.close();
		},
	};
}
