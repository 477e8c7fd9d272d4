import { createHash } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOG_FILE } from "../../src/files/log.js";
import { QUERY_MMAP_BYTES } from "../../src/store/db.js";
import { generationFileName, INDEX_FORMAT, pointerFileName } from "../../src/store/format.js";
import { readPointer, STORE_LOCK, writePointer } from "../../src/store/generations.js";
import { knownMigrations } from "../../src/store/migrations.js";
import { openStore, type Store } from "../../src/store/open-store.js";
import { grantCheckoutAccess, UNPRIVILEGED } from "../helpers/unprivileged.js";
import { runChild } from "./spawn.js";
import { tempDir } from "./temp-store.js";

/** A generation file name of the current format holding garbage. */
const GARBAGE = generationFileName("garbage");

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

function newDir() {
	const t = tempDir();
	cleanups.push(t.cleanup);
	return t.dir;
}

async function open(dir: string): Promise<Store> {
	const r = await openStore({ dir, lockStaleMs: 2000 });
	if (!r.ok) throw new Error(r.error);
	cleanups.unshift(() => r.store.close());
	return r.store;
}

function journal(store: Store) {
	return store.db
		.prepare<[], { hash: string; created_at: number }>("SELECT hash, created_at FROM __drizzle_migrations")
		.all();
}

function metaValue(store: Store, key: string) {
	return store.db.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?").get(key)?.value;
}

function logEvents(dir: string, event: string): number {
	if (!existsSync(join(dir, LOG_FILE))) return 0;
	return readFileSync(join(dir, LOG_FILE), "utf8")
		.split("\n")
		.filter((l) => l.includes(`"event":"${event}"`)).length;
}

function sha(path: string): string {
	return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function generationFiles(dir: string): string[] {
	return readdirSync(dir).filter((f) => /^index-f\d+-.*\.sqlite$/.test(f));
}

describe("openStore", () => {
	it("creates and migrates a fresh store with meta and a published pointer", async () => {
		const dir = newDir();
		const store = await open(dir);
		expect(store.fresh).toBe("new");
		expect(store.readOnly).toBe(false);
		expect(store.file).toMatch(new RegExp(`^index-f${INDEX_FORMAT}-.+\\.sqlite$`));
		const ptr = JSON.parse(readFileSync(join(dir, pointerFileName()), "utf8"));
		expect(ptr.file).toBe(store.file);
		expect(typeof ptr.createdAt).toBe("string");
		expect(journal(store)).toHaveLength(knownMigrations().length);
		expect(metaValue(store, "format")).toBe(String(INDEX_FORMAT));
		expect(metaValue(store, "created_by")).toMatch(/^pi-event-index@/);
		expect(Number.isNaN(Date.parse(metaValue(store, "created_at") ?? ""))).toBe(false);
		expect(store.db.pragma("journal_mode")).toBe("wal");
		expect(store.db.pragma("foreign_keys")).toBe(1);
		expect(store.db.pragma("busy_timeout")).toBe(10_000);
		// Queries read the file mapped (db.ts, QUERY_MMAP_BYTES): their classes no longer evict each other's pages.
		expect(store.db.pragma("mmap_size")).toBe(QUERY_MMAP_BYTES);
		// The FTS table from the custom migration is there and writable.
		store.db.prepare("INSERT INTO fragments_fts(rowid, body) VALUES (1, 'hello')").run();
		expect(store.db.prepare("SELECT rowid FROM fragments_fts WHERE fragments_fts MATCH 'hello'").all()).toHaveLength(1);
		expect(store.isCurrent()).toBe(true);
	});

	it("reopens without migration work: same file, journal unchanged, store lock not taken", async () => {
		const dir = newDir();
		const first = await open(dir);
		const before = journal(first);
		first.close();
		const locksBefore = logEvents(dir, "lock.acquired");
		const second = await open(dir);
		expect(second.file).toBe(first.file);
		expect(second.fresh).toBeUndefined();
		expect(journal(second)).toEqual(before);
		expect(logEvents(dir, "lock.acquired")).toBe(locksBefore);
		expect(logEvents(dir, "store.migrated")).toBe(0);
	});

	it("migrates a store made by an older version (fewer migrations) under the lock", async () => {
		const dir = newDir();
		const first = await open(dir);
		// Undo the last four migrations (0014_confined_sources, 0013_fragment_files, 0012_fts_file,
		// 0011_parent_session_id), as if an older version had created the
		// store, and leave it a fork whose parent file name carries the parent's session id.
		first.db.exec("DROP TABLE fts.fts_meta; DROP TABLE fts.fragments_fts");
		first.db.exec(
			"CREATE VIRTUAL TABLE main.fragments_fts USING fts5(body, tags, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')",
		);
		first.db.exec(
			"CREATE TRIGGER fragments_fts_delete AFTER DELETE ON fragments BEGIN DELETE FROM fragments_fts WHERE rowid = old.id; END",
		);
		first.db.exec("ALTER TABLE sources DROP COLUMN confined_to");
		first.db.exec("DROP INDEX sources_parent_id");
		first.db.exec("ALTER TABLE sources DROP COLUMN parent_session_id");
		first.db.exec("ALTER TABLE fragments DROP COLUMN files");
		first.db
			.prepare("INSERT INTO sources (path, dev, ino, size, mtime_ms, parent_session) VALUES (?, '1', '2', 0, 0, ?)")
			.run("/s/child.jsonl", "/gone/2026-12-02T12-32-22-200Z_01a236bd-dcb7-7287-9588-bf4e8d79a767.jsonl");
		first.db.exec(
			"DELETE FROM __drizzle_migrations WHERE created_at >= (SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1 OFFSET 3)",
		);
		first.close();
		const second = await open(dir);
		expect(second.file).toBe(first.file);
		expect(second.fresh).toBeUndefined();
		expect(journal(second)).toHaveLength(knownMigrations().length);
		expect(logEvents(dir, "store.migrated")).toBe(1);
		const names = (schema: string) =>
			(
				second.db
					.prepare(
						`SELECT name FROM ${schema}.sqlite_master WHERE name IN ('attribute_sets', 'fragments_fts', 'fragments_fts_delete', 'fts_meta') ORDER BY name`,
					)
					.all() as Array<{ name: string }>
			).map((t) => t.name);
		expect(names("main")).toEqual(["attribute_sets"]);
		expect(names("fts")).toEqual(["fragments_fts", "fts_meta"]);
		const dropped = second.db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%tool_call'").all();
		expect(dropped).toEqual([]);
		// The migrated store knows the existing fork's parent by id at once (a generated column needs no rewrite).
		expect(
			second.db.prepare("SELECT parent_session_id AS id FROM sources WHERE path = '/s/child.jsonl'").get(),
		).toEqual({
			id: "01a236bd-dcb7-7287-9588-bf4e8d79a767",
		});
	});

	it("rebuilds a store with another index format as a new generation and deletes the old file", async () => {
		const dir = newDir();
		const first = await open(dir);
		first.db.prepare("UPDATE meta SET value = '999' WHERE key = 'format'").run();
		first.db.prepare("INSERT INTO fragments_fts(rowid, body) VALUES (1, 'old data')").run();
		first.close();
		const second = await open(dir);
		expect(second.fresh).toBe("format-mismatch");
		expect(second.file).not.toBe(first.file);
		expect(metaValue(second, "format")).toBe(String(INDEX_FORMAT));
		expect(second.db.prepare("SELECT count(*) AS n FROM fragments_fts").get()).toEqual({ n: 0 });
		expect(existsSync(join(dir, first.file))).toBe(false);
		expect(generationFiles(dir)).toEqual([second.file]);
	});

	it("moves a garbage file at the index path aside and starts a fresh store", async () => {
		const dir = newDir();
		const garbage = Buffer.from("this is not a sqlite database, just garbage bytes\n".repeat(200));
		writeFileSync(join(dir, GARBAGE), garbage);
		writePointer(dir, GARBAGE);
		const store = await open(dir);
		expect(store.fresh).toBe("corrupt");
		expect(store.file).not.toBe(GARBAGE);
		const aside = readdirSync(dir).filter((f) => f.startsWith(`${GARBAGE}.corrupt-`));
		expect(aside).toHaveLength(1);
		expect(readFileSync(join(dir, aside[0]))).toEqual(garbage);
		expect(existsSync(join(dir, GARBAGE))).toBe(false);
		expect(logEvents(dir, "store.corrupt_moved_aside")).toBe(1);
		expect(journal(store)).toHaveLength(knownMigrations().length);
	});

	it("replaces an unparsable pointer with a fresh generation", async () => {
		const dir = newDir();
		writeFileSync(join(dir, pointerFileName()), "{not json");
		const store = await open(dir);
		expect(store.fresh).toBe("invalid-pointer");
		expect(readPointer(dir)).toMatchObject({ ok: true, pointer: { file: store.file } });
	});

	it("opens a store migrated by a newer version read-only and never modifies it", async () => {
		const dir = newDir();
		const first = await open(dir);
		const latest = Math.max(...knownMigrations().map((m) => m.when));
		first.db.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)").run(latest + 1000);
		first.close();
		const path = join(dir, first.file);
		const before = sha(path);
		const pointerBefore = readFileSync(join(dir, pointerFileName()), "utf8");
		const r = await openStore({ dir, lockStaleMs: 2000 });
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.store.readOnly).toBe(true);
		expect(r.store.readOnlyReason).toMatch(/newer version/);
		expect(r.store.file).toBe(first.file);
		expect(() => r.store.db.exec("INSERT INTO meta (key, value) VALUES ('x', 'y')")).toThrow(/readonly/i);
		expect(journal(r.store)).toHaveLength(knownMigrations().length + 1);
		r.store.close();
		expect(sha(path)).toBe(before);
		expect(readFileSync(join(dir, pointerFileName()), "utf8")).toBe(pointerBefore);
		expect(generationFiles(dir)).toEqual([first.file]);
	});

	it("notices a published replacement through isCurrent()", async () => {
		const dir = newDir();
		const store = await open(dir);
		expect(store.isCurrent()).toBe(true);
		writePointer(dir, generationFileName("other"));
		expect(store.isCurrent()).toBe(false);
		writePointer(dir, store.file);
		expect(store.isCurrent()).toBe(true);
	});

	it("opens read-only on request without creating anything", async () => {
		const dir = newDir();
		const missing = await openStore({ dir, readonly: true });
		expect(missing).toMatchObject({ ok: false, code: "not-found" });
		expect(generationFiles(dir)).toEqual([]);
		(await open(dir)).close();
		const r = await openStore({ dir, readonly: true });
		expect(r.ok && r.store.readOnly).toBe(true);
		if (r.ok) r.store.close();
	});
});

describe("openStore across processes", () => {
	it("two processes opening a fresh store at the same instant both succeed on one generation", async () => {
		const dir = newDir();
		const [a, b] = await Promise.all([runChild(["open", dir]), runChild(["open", dir])]);
		const ra = JSON.parse(a);
		const rb = JSON.parse(b);
		expect(ra).toMatchObject({ ok: true, readOnly: false, journal: knownMigrations().length });
		expect(rb).toMatchObject({ ok: true, readOnly: false, journal: knownMigrations().length });
		expect(ra.file).toBe(rb.file);
		expect(generationFiles(dir)).toEqual([ra.file]);
		expect([ra.fresh, rb.fresh].filter((f) => f === "new")).toHaveLength(1);
		expect(existsSync(join(dir, `${STORE_LOCK}.lock-target.lock`))).toBe(false);
	});

	// Tests run as root, where chmod does not stop writes: run the opener as an unprivileged user instead.
	const ids = UNPRIVILEGED;
	let restore = () => {};
	beforeAll(() => {
		restore = grantCheckoutAccess();
	});
	afterAll(() => restore());

	it("opens an existing store read-only when the index directory is not writable", async () => {
		const parent = newDir();
		chmodSync(parent, 0o755);
		const dir = join(parent, "event-index");
		const first = await open(dir);
		first.close();
		const before = sha(join(dir, first.file));
		chmodSync(dir, 0o555);
		const r = JSON.parse(await runChild(["open", dir], ids));
		chmodSync(dir, 0o755);
		expect(r).toMatchObject({ ok: true, file: first.file, readOnly: true, journal: knownMigrations().length });
		expect(r.readOnlyReason).toMatch(/not writable/);
		expect(r.writeError).toMatch(/^SQLITE_READONLY/);
		expect(sha(join(dir, first.file))).toBe(before);
	});

	it("returns a clear error when the directory is not writable and holds no store", async () => {
		const parent = newDir();
		chmodSync(parent, 0o555);
		const r = JSON.parse(await runChild(["open", join(parent, "event-index")], ids));
		chmodSync(parent, 0o755);
		expect(r.ok).toBe(false);
		expect(r.code).toBe("not-found");
		expect(r.error).toMatch(/no usable event index/);
	});
});
