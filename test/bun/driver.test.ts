/**
 * The driver contract of src/store/db.ts, run under Node 20 (better-sqlite3), Node 22 (node:sqlite) AND Bun
 * (bun:sqlite) with the same assertions: pragmas, statement results, named parameters, BEGIN IMMEDIATE transactions and savepoints, busy
 * handling, error codes, read-only and immutable connections, drizzle and its migrator, FTS5.
 * `PEI_EXPECT_RUNTIME=bun|node` makes the file fail when it is not running where the script meant it to run.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isCorruptionError, openDatabase, sqliteErrorCode } from "../../src/store/db.js";
import type { SqliteDb, SqliteDriverName } from "../../src/store/driver.js";
import { applyMigrations, MIGRATIONS_DIR, migrationState } from "../../src/store/migrations.js";

const onBun = typeof (process.versions as Record<string, string | undefined>).bun === "string";
const [nodeMajor = 0, nodeMinor = 0] = process.versions.node.split(".").map(Number);
const nodeHasSqlite = nodeMajor > 22 || (nodeMajor === 22 && nodeMinor >= 13);
/** What each runtime must get: Bun its own driver, a Node with node:sqlite that one, an older Node better-sqlite3. */
const expectedDriver: SqliteDriverName = onBun ? "bun:sqlite" : nodeHasSqlite ? "node:sqlite" : "better-sqlite3";

let dir: string;
const opened: SqliteDb[] = [];

async function open(name = "t.sqlite", options: Parameters<typeof openDatabase>[1] = {}): Promise<SqliteDb> {
	const db = await openDatabase(join(dir, name), options);
	opened.push(db);
	return db;
}

/** The error a call throws (fails the test when it does not throw). */
function thrown(fn: () => unknown): unknown {
	try {
		fn();
	} catch (err) {
		return err;
	}
	throw new Error("expected an error");
}

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pei-driver-"));
});
afterEach(() => {
	for (const db of opened.splice(0)) db.close();
	rmSync(dir, { recursive: true, force: true });
});

describe(`the SQLite driver (${expectedDriver})`, () => {
	it("is the one this runtime can load (and the runtime is the one the test script asked for)", async () => {
		const expected = process.env.PEI_EXPECT_RUNTIME;
		if (expected !== undefined) expect(onBun ? "bun" : "node").toBe(expected);
		const db = await open();
		expect(db.driver).toBe(expectedDriver);
		expect(db.isOpen).toBe(true);
		expect(db.readonly).toBe(false);
		expect(db.path).toBe(join(dir, "t.sqlite"));
	});

	it("applies the connection pragmas, and a read-only connection keeps the file's journal mode", async () => {
		const db = await open("p.sqlite", { busyTimeoutMs: 1234 });
		expect(db.pragma("journal_mode")).toBe("wal");
		expect(db.pragma("synchronous")).toBe(1);
		expect(db.pragma("foreign_keys")).toBe(1);
		expect(db.pragma("busy_timeout")).toBe(1234);
		expect(db.pragma("user_version = 7")).toBeUndefined();
		expect(db.pragma("user_version")).toBe(7);
		const ro = await open("p.sqlite", { readonly: true });
		expect(ro.readonly).toBe(true);
		expect(ro.pragma("journal_mode")).toBe("wal");
		expect(ro.pragma("busy_timeout")).toBe(10_000);
		expect(ro.pragma("user_version")).toBe(7);
	});

	it("statements: run results, undefined for no row, iterate, positional and @named parameters", async () => {
		const db = await open();
		db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER, x REAL); CREATE INDEX t_n ON t(n)");
		const insert = db.prepare<[string | null, number, number]>("INSERT INTO t (name, n, x) VALUES (?, ?, ?)");
		expect(insert.run("a", 1, 0.5)).toEqual({ changes: 1, lastInsertRowid: 1 });
		expect(insert.run(null, 2, 1.5)).toEqual({ changes: 1, lastInsertRowid: 2 });
		const named = db.prepare("INSERT INTO t (name, n) VALUES (@name, @n) RETURNING id");
		expect(named.get({ name: "c", n: 3 })).toEqual({ id: 3 });
		const one = db.prepare<[number], { id: number; name: string | null; n: number; x: number | null }>(
			"SELECT id, name, n, x FROM t WHERE n = ?",
		);
		expect(one.get(2)).toEqual({ id: 2, name: null, n: 2, x: 1.5 });
		expect(one.get(99)).toBeUndefined();
		expect(one.all(99)).toEqual([]);
		const byName = db.prepare<[{ s: string; m: number }], { id: number }>(
			"SELECT id FROM t WHERE name = @s OR n = @m ORDER BY id",
		);
		expect(byName.all({ s: "a", m: 3 })).toEqual([{ id: 1 }, { id: 3 }]);
		const rows = db.prepare<[], { id: number }>("SELECT id FROM t ORDER BY id").iterate();
		expect([...rows].map((r) => r.id)).toEqual([1, 2, 3]);
		const update = db.prepare("UPDATE t SET n = n + 10 WHERE id = @id");
		expect(update.run({ id: 3 }).changes).toBe(1);
		expect(update.run({ id: 42 }).changes).toBe(0);
		// Integers beyond 32 bits come back as plain numbers (safe integers), as the store stores sizes and times.
		expect(db.prepare("SELECT ? AS v").get(2 ** 40 + 3)).toEqual({ v: 2 ** 40 + 3 });
		expect(db.prepare("SELECT count(*) AS c FROM t").get()).toEqual({ c: 3 });
	});

	it("transactions commit, roll back on throw, and nest as savepoints", async () => {
		const db = await open();
		db.exec("CREATE TABLE t (v TEXT NOT NULL)");
		const add = db.prepare<[string]>("INSERT INTO t (v) VALUES (?)");
		const values = () =>
			db
				.prepare<[], { v: string }>("SELECT v FROM t ORDER BY rowid")
				.all()
				.map((r) => r.v);
		expect(
			db.transaction(() => {
				add.run("one");
				return "result";
			}),
		).toBe("result");
		expect(
			thrown(() =>
				db.transaction(() => {
					add.run("lost");
					throw new Error("boom");
				}),
			),
		).toMatchObject({ message: "boom" });
		db.transaction(() => {
			add.run("outer");
			try {
				db.transaction(() => {
					add.run("inner");
					throw new Error("inner fails");
				});
			} catch {
				// Only the savepoint rolls back.
			}
			add.run("after");
		});
		expect(values()).toEqual(["one", "outer", "after"]);
	});

	it("BEGIN IMMEDIATE takes the write lock at once: another writer gets SQLITE_BUSY, then waits with a timeout", async () => {
		const a = await open("w.sqlite");
		a.exec("CREATE TABLE t (v INTEGER)");
		const b = await open("w.sqlite", { busyTimeoutMs: 0 });
		const bWrite = b.prepare("INSERT INTO t (v) VALUES (2)");
		const inside = a.transaction(() => {
			// Nothing written yet by `a`: only an immediate transaction already holds the lock here.
			const err = thrown(() => bWrite.run());
			// A reader is never blocked in WAL mode.
			const count = b.prepare<[], { c: number }>("SELECT count(*) AS c FROM t").get()?.c;
			a.prepare("INSERT INTO t (v) VALUES (1)").run();
			return { code: sqliteErrorCode(err), count };
		});
		expect(inside).toEqual({ code: "SQLITE_BUSY", count: 0 });
		expect(bWrite.run().changes).toBe(1);
		expect(a.prepare("SELECT group_concat(v) AS v FROM t").get()).toEqual({ v: "1,2" });
	});

	it("reports SQLite error codes the store relies on", async () => {
		writeFileSync(join(dir, "garbage.sqlite"), "not a database ".repeat(400));
		const garbage = await openDatabase(join(dir, "garbage.sqlite")).catch((e: unknown) => e);
		expect(sqliteErrorCode(garbage)).toBe("SQLITE_NOTADB");
		expect(isCorruptionError(garbage)).toBe(true);

		const missing = await openDatabase(join(dir, "missing.sqlite"), { fileMustExist: true }).catch((e: unknown) => e);
		expect(sqliteErrorCode(missing)).toBe("SQLITE_CANTOPEN");
		expect(isCorruptionError(missing)).toBe(false);
		const missingRo = await openDatabase(join(dir, "missing.sqlite"), { readonly: true }).catch((e: unknown) => e);
		expect(sqliteErrorCode(missingRo)).toBe("SQLITE_CANTOPEN");

		const db = await open();
		db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
		expect(sqliteErrorCode(thrown(() => db.exec("SELEKT 1")))).toBe("SQLITE_ERROR");
		db.exec("INSERT INTO t VALUES (1, 'x')");
		expect(sqliteErrorCode(thrown(() => db.exec("INSERT INTO t VALUES (1, 'y')")))).toMatch(/^SQLITE_CONSTRAINT/);
		expect(sqliteErrorCode(new Error("plain"))).toBeUndefined();
		expect(isCorruptionError(undefined)).toBe(false);

		const ro = await open("t.sqlite", { readonly: true });
		expect(sqliteErrorCode(thrown(() => ro.exec("INSERT INTO t VALUES (2, 'z')")))).toMatch(/^SQLITE_READONLY/);
	});

	it("opens a WAL file immutable (file: URI) and reads it, named parameters included", async () => {
		const db = await open("i.sqlite");
		db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b')");
		db.close();
		const im = await open("i.sqlite", { immutable: true });
		expect(im.readonly).toBe(true);
		expect(im.prepare("SELECT v FROM t WHERE id = @id").get({ id: 2 })).toEqual({ v: "b" });
		expect(im.prepare("SELECT v FROM t WHERE id = ?").get(9)).toBeUndefined();
		expect(im.prepare("SELECT count(*) AS c FROM t").all()).toEqual([{ c: 2 }]);
		expect(sqliteErrorCode(thrown(() => im.exec("INSERT INTO t VALUES (3, 'c')")))).toMatch(/^SQLITE_READONLY/);
	});

	it("migrates as drizzle's migrator does (its journal rows), and searches FTS5 like the store does", async () => {
		const db = await open();
		await applyMigrations(db, MIGRATIONS_DIR);
		const journal = db
			.prepare<[], { hash: string; created_at: number }>(
				"SELECT hash, created_at FROM __drizzle_migrations ORDER BY id",
			)
			.all()
			.map((row) => ({ hash: row.hash, folderMillis: Number(row.created_at) }));
		expect(journal).toEqual(
			readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map(({ hash, folderMillis }) => ({
				hash,
				folderMillis,
			})),
		);
		expect(migrationState(db).status).toBe("current");
		await applyMigrations(db, MIGRATIONS_DIR);
		expect(db.prepare<[], { c: number }>("SELECT count(*) AS c FROM __drizzle_migrations").get()?.c).toBe(
			journal.length,
		);
		db.prepare("INSERT INTO meta (key, value) VALUES (@key, @value)").run({ key: "probe", value: "migrated" });
		expect(db.prepare("SELECT value FROM meta WHERE key = 'probe'").get()).toEqual({ value: "migrated" });

		const add = db.prepare<[number, string]>("INSERT INTO fragments_fts (rowid, body) VALUES (?, ?)");
		add.run(1, "the café deployment checklist");
		add.run(2, "unrelated words entirely");
		add.run(3, "Cafe deployment, twice: deployment");
		const match = db.prepare<[string], { rowid: number; rank: number }>(
			"SELECT rowid, bm25(fragments_fts) AS rank FROM fragments_fts WHERE fragments_fts MATCH ? ORDER BY rank, rowid",
		);
		const hits = match.all('"cafe" "deployment"');
		expect(hits.map((h) => h.rowid).sort()).toEqual([1, 3]);
		expect(hits.every((h) => h.rank < 0)).toBe(true);
		expect(match.all('"deployment checklist"').map((h) => h.rowid)).toEqual([1]);
		expect(sqliteErrorCode(thrown(() => match.all("AND OR (")))).toBe("SQLITE_ERROR");
	});

	it("close is idempotent and really ends the connection: its statements stop working, the WAL is merged", async () => {
		const db = await open("c.sqlite");
		await applyMigrations(db, MIGRATIONS_DIR);
		db.exec("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)");
		const stmt = db.prepare("SELECT v FROM t");
		expect(stmt.get()).toEqual({ v: 1 });
		// Statements the migrator prepared must not keep the connection alive either.
		expect(db.prepare("SELECT count(*) AS c FROM meta").get()).toEqual({ c: 0 });
		db.close();
		db.close();
		expect(db.isOpen).toBe(false);
		expect(() => db.exec("SELECT 1")).toThrow();
		expect(() => stmt.get()).toThrow();
		// The last connection to close checkpoints and removes the WAL, as SQLite does on a real close.
		expect(existsSync(join(dir, "c.sqlite-wal"))).toBe(false);
	});
});
