/**
 * withoutMmap (db.ts): a scan read through the page cache gets the same rows, and the connection keeps the mapping it
 * had (a query connection's QUERY_MMAP_BYTES, a bulk writer's none), also when the scan throws. Real SQLite files.
 */
import { afterEach, describe, expect, it } from "vitest";
import { QUERY_MMAP_BYTES, withoutMmap } from "../../src/store/db.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

const stores: TempStore[] = [];
afterEach(() => {
	for (const s of stores.splice(0)) s.cleanup();
});

async function store(): Promise<TempStore> {
	const s = await tempStore();
	stores.push(s);
	s.db.exec("CREATE TABLE t (v TEXT)");
	const put = s.db.prepare("INSERT INTO t VALUES (?)");
	for (let i = 0; i < 500; i++) put.run(`row ${i} ${"x".repeat(200)}`);
	return s;
}

const mapped = (s: TempStore) => Number(s.db.pragma("main.mmap_size"));

describe("withoutMmap", () => {
	it("reads the same rows unmapped and restores the connection's mapping, also after a throw", async () => {
		const s = await store();
		expect(mapped(s)).toBe(QUERY_MMAP_BYTES);
		const scan = () => s.db.prepare("SELECT count(*) AS n, sum(length(v)) AS bytes FROM t").get();
		const inside = withoutMmap(s.db, () => ({ rows: scan(), mapping: mapped(s) }));
		expect(inside).toEqual({ rows: scan(), mapping: 0 });
		expect(mapped(s)).toBe(QUERY_MMAP_BYTES);
		expect(() =>
			withoutMmap(s.db, () => {
				throw new Error("scan failed");
			}),
		).toThrow("scan failed");
		expect(mapped(s)).toBe(QUERY_MMAP_BYTES);
	});

	it("leaves a connection that maps nothing (a bulk writer's) unmapped", async () => {
		const s = await store();
		s.db.pragma("main.mmap_size = 0");
		expect(withoutMmap(s.db, () => mapped(s))).toBe(0);
		expect(mapped(s)).toBe(0);
	});
});
