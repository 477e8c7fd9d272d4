/** Free pages a bulk pass leaves behind are given back to the file system (free-pages.ts). */
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/db.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { FREE_PAGES_STEP, releaseFreePages } from "../../src/store/free-pages.js";
import { createGeneration } from "../../src/store/generations.js";
import { tempDir } from "./temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

/** Fills a scratch table with ~6 MiB and drops it: its pages become free pages of the file. */
function leaveFreePages(db: SqliteDb): number {
	db.exec("CREATE TABLE scratch (b BLOB)");
	const put = db.prepare<[Buffer]>("INSERT INTO scratch (b) VALUES (?)");
	db.transaction(() => {
		for (let i = 0; i < 1500; i++) put.run(Buffer.alloc(4000, i % 251));
	});
	db.exec("DROP TABLE scratch");
	return Number(db.pragma("freelist_count"));
}

describe("free pages", () => {
	it("a new generation is made to give pages back, and releasing them shrinks the file", async () => {
		const t = tempDir("pei-free-");
		cleanups.push(t.cleanup);
		const gen = await createGeneration(t.dir);
		cleanups.unshift(() => gen.db.close());
		expect(gen.db.pragma("auto_vacuum")).toBe(2);
		const free = leaveFreePages(gen.db);
		expect(free).toBeGreaterThan(4 * FREE_PAGES_STEP);
		gen.db.pragma("wal_checkpoint(TRUNCATE)");
		const before = statSync(gen.path).size;
		expect(releaseFreePages(gen.db)).toBe(free);
		expect(gen.db.pragma("freelist_count")).toBe(0);
		gen.db.pragma("wal_checkpoint(TRUNCATE)");
		expect(before - statSync(gen.path).size).toBeGreaterThanOrEqual(free * 4096);
		expect(gen.db.pragma("integrity_check")).toBe("ok");
	});

	it("a file made without auto_vacuum (a store from before) is left as it is", async () => {
		const t = tempDir("pei-free-");
		cleanups.push(t.cleanup);
		const db = await openDatabase(join(t.dir, "old.sqlite"));
		cleanups.unshift(() => db.close());
		expect(db.pragma("auto_vacuum")).toBe(0);
		const free = leaveFreePages(db);
		expect(free).toBeGreaterThan(0);
		expect(releaseFreePages(db)).toBe(0);
		expect(db.pragma("freelist_count")).toBe(free);
	});
});
