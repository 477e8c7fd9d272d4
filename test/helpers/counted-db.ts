import type { QueryDb } from "../../src/query/db.js";

/** The store, counting each statement's calls (by its SQL) and the parameters of each call. */
export function counted(db: QueryDb) {
	const calls: Array<{ sql: string; params: unknown[] }> = [];
	const wrapped: QueryDb = {
		prepare(sql) {
			const s = db.prepare(sql);
			return {
				all: (...params) => {
					calls.push({ sql, params });
					return s.all(...params);
				},
				get: (...params) => {
					calls.push({ sql, params });
					return s.get(...params);
				},
			};
		},
	};
	return { wrapped, calls };
}
