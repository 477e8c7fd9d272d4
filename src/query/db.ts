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

/**
 * The rows of `SELECT <columns> <rest>` (`columns`: alias → SQL expression), built by SQLite as one JSON text and
 * parsed here: a driver makes each column of each row a JS value through its native bindings, ≈ 7 µs for a row of
 * 18 columns, where JSON.parse takes a fraction of that (the candidate join of a search: 1.7 → 0.6 ms for 200 rows
 * on 1 GB). Integer, text and null columns only: SQLite's JSON writes reals with 15 significant digits, and a blob
 * is an error.
 */
export function allViaJson<T>(
	db: QueryDb,
	columns: Readonly<Record<string, string>>,
	rest: string,
	params: unknown[] = [],
): T[] {
	const object = Object.entries(columns)
		.map(([alias, sql]) => `'${alias}', ${sql}`)
		.join(", ");
	const row = get<{ rows: string }>(db, `SELECT json_group_array(json_object(${object})) AS rows ${rest}`, params);
	return row ? (JSON.parse(row.rows) as T[]) : [];
}
