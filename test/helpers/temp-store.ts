/** A real migrated SQLite store in a fresh temp dir, for tests. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import type { CallerContext } from "../../src/query/caller.js";
import { openDatabase } from "../../src/store/db.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { applyMigrations, MIGRATIONS_DIR } from "../../src/store/migrations.js";

/** A caller that may read every session, with the default budgets: the search tests' usual caller. */
export const ALL_ROOTS_CALLER: CallerContext = {
	cwd: "/",
	authorization: { extraRoots: [], allRoots: true },
	budgets: DEFAULT_BUDGETS,
};

export interface TempStore {
	dir: string;
	db: SqliteDb;
	cleanup(): void;
}

export async function tempDir(prefix = "pei-"): Promise<string> {
	return mkdtempSync(join(tmpdir(), prefix));
}

/** Opens a migrated store file `index.sqlite` in a new temp dir (or in `dir`). */
export async function tempStore(dir?: string): Promise<TempStore> {
	const d = dir ?? (await tempDir());
	const db = await openDatabase(join(d, "index.sqlite"));
	await applyMigrations(db, MIGRATIONS_DIR);
	return {
		dir: d,
		db,
		cleanup() {
			db.close();
			rmSync(d, { recursive: true, force: true });
		},
	};
}

/** A tempStore with one session file of `lines` written to `<dir>/sessions/<name>` and synced into it. */
export async function storeWithSession(lines: readonly string[], name = "s.jsonl"): Promise<TempStore> {
	const store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir);
	writeFileSync(join(dir, name), lines.join(""));
	await new SourceSyncer(store.db).sync(join(dir, name));
	return store;
}
