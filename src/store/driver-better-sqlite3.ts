/**
 * The Node driver: better-sqlite3 through drizzle's `better-sqlite3` driver. Statements are better-sqlite3's own
 * objects (their API already matches `SqliteStatement`), so hot paths pay no extra indirection.
 */
import { pathToFileURL } from "node:url";
import type BetterSqlite3 from "better-sqlite3";
import type { DriverOpenRequest, OpenDriver, SqliteDb, SqliteStatement, StoreDrizzle } from "./db.js";

/** Load better-sqlite3 (drizzle's driver and migrator load on first use); returns the opener. */
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
	let orm: Promise<StoreDrizzle> | undefined;
	const loadOrm = () => {
		orm ??= Promise.all([import("drizzle-orm/better-sqlite3"), import("./schema.js")]).then(
			([d, schema]) => d.drizzle(raw, { schema }) as unknown as StoreDrizzle,
		);
		return orm;
	};
	return {
		driver: "better-sqlite3",
		path: request.path,
		readonly: request.readonly,
		orm: loadOrm,
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
		async migrate(folder) {
			const [db, { migrate }] = await Promise.all([loadOrm(), import("drizzle-orm/better-sqlite3/migrator")]);
			migrate(db as unknown as Parameters<typeof migrate>[0], { migrationsFolder: folder });
		},
		get isOpen() {
			return raw.open;
		},
		close() {
			if (raw.open) raw.close();
		},
	};
}
