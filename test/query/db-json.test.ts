/** allViaJson: rows through one JSON text, and reals only where SQLite writes them exactly. */
import { afterEach, describe, expect, it } from "vitest";
import { allViaJson, type QueryDb } from "../../src/query/db.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

const stores: TempStore[] = [];
afterEach(() => {
	for (const s of stores.splice(0)) s.cleanup();
});

/** A real database of this runtime's driver (better-sqlite3 on Node, bun:sqlite on Bun) with one small table. */
async function table(): Promise<SqliteDb> {
	const store = await tempStore();
	stores.push(store);
	const db = store.db;
	db.exec("CREATE TABLE t (id INTEGER, name TEXT, score REAL)");
	const put = db.prepare("INSERT INTO t VALUES (?, ?, ?)");
	put.run(1, "a", 0.1 + 0.2);
	put.run(2, null, -5.455905687118569);
	return db;
}

const columns = { id: "id", name: "name", score: "score" };

describe("allViaJson", () => {
	it("returns the rows as the driver would, reals included", async () => {
		const db = await table();
		const rows = allViaJson(db, columns, "FROM t ORDER BY id", [], true);
		expect(rows).toEqual(db.prepare("SELECT id, name, score FROM t ORDER BY id").all());
	});

	it("reads the rows as usual where SQLite's JSON would round a real", async () => {
		const db = await table();
		const sql: string[] = [];
		// An SQLite that writes reals with 15 significant digits.
		const rounding: QueryDb = {
			prepare(s) {
				sql.push(s);
				if (s.startsWith("SELECT json_array(?, ?, ?)"))
					return {
						all: () => [],
						get: (...p: unknown[]) => ({ j: JSON.stringify(p.map((x) => Number((x as number).toPrecision(15)))) }),
					};
				return db.prepare(s);
			},
		};
		const rows = allViaJson<{ score: number }>(rounding, columns, "FROM t ORDER BY id", [], true);
		expect(rows.map((r) => r.score)).toEqual([0.1 + 0.2, -5.455905687118569]);
		expect(sql.some((s) => s.includes("json_group_array"))).toBe(false);
	});

	it("decodes each call's columns by that call's decoders, even where another call had the same aliases", async () => {
		const db = await table();
		const upper = allViaJson<{ id: number; name: unknown }>(
			db,
			{ id: "id", name: { sql: "name", decode: (v) => (typeof v === "string" ? v.toUpperCase() : "none") } },
			"FROM t ORDER BY id",
		);
		const tagged = allViaJson<{ id: number; name: unknown }>(
			db,
			{ id: "id", name: { sql: "name", decode: (v) => `<${String(v)}>` } },
			"FROM t ORDER BY id",
		);
		expect(upper).toEqual([
			{ id: 1, name: "A" },
			{ id: 2, name: "none" },
		]);
		expect(tagged).toEqual([
			{ id: 1, name: "<a>" },
			{ id: 2, name: "<null>" },
		]);
	});
});
