/**
 * The narrow SQL surface the query services need. better-sqlite3's Database (and bun:sqlite's) satisfy it, so the
 * services do not depend on the driver module; statements are cached per connection.
 */

/** A prepared statement: positional parameters, plain-object rows. */
export interface QueryStatement {
	all(...params: unknown[]): unknown[];
	get(...params: unknown[]): unknown;
}

/** A read connection to the index. */
export interface QueryDb {
	prepare(sql: string): QueryStatement;
}

const cache = new WeakMap<QueryDb, Map<string, QueryStatement>>();

/** A cached prepared statement for `sql` on `db`. */
export function stmt(db: QueryDb, sql: string): QueryStatement {
	let perDb = cache.get(db);
	if (perDb === undefined) {
		perDb = new Map();
		cache.set(db, perDb);
	}
	let s = perDb.get(sql);
	if (s === undefined) {
		s = db.prepare(sql);
		perDb.set(sql, s);
	}
	return s;
}

/** All rows of `sql`, typed by the caller. */
export function all<T>(db: QueryDb, sql: string, params: unknown[] = []): T[] {
	return stmt(db, sql).all(...params) as T[];
}

/** The first row of `sql`, or undefined. */
export function get<T>(db: QueryDb, sql: string, params: unknown[] = []): T | undefined {
	return (stmt(db, sql).get(...params) as T | undefined) ?? undefined;
}
