/**
 * A fresh index in a temp dir, filled through the project's own ingest path: what the evaluations (ranking,
 * natural, coding) search. The session files are written (or named) by the caller into the same temp dir, so
 * closing removes everything.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { openDatabase } from "../../src/store/db.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { applyMigrations, MIGRATIONS_DIR } from "../../src/store/migrations.js";

/** An index in its own temp dir. */
export interface TempIndex {
	/** The temp dir (session files the caller wrote live below it). */
	root: string;
	db: SqliteDb;
	/** Closes the store and removes the temp dir. */
	close(): void;
}

/**
 * Makes a temp dir named `prefix…`, lets `sessionFiles(root)` write or name the session files, and indexes every one
 * (each must index whole). On any failure the temp dir is removed and the error thrown.
 */
export async function indexInTempDir(
	prefix: string,
	sessionFiles: (root: string) => string[] | Promise<string[]>,
): Promise<TempIndex> {
	const root = mkdtempSync(join(tmpdir(), prefix));
	try {
		const files = await sessionFiles(root);
		const db = await openDatabase(join(root, "index.sqlite"));
		await applyMigrations(db, MIGRATIONS_DIR);
		const syncer = new SourceSyncer(db);
		for (const file of files) {
			const r = await syncer.sync(file);
			if (r.status !== "indexed") throw new Error(`indexing ${file}: ${r.status} ${r.error ?? ""}`);
		}
		return {
			root,
			db,
			close() {
				db.close();
				rmSync(root, { recursive: true, force: true });
			},
		};
	} catch (err) {
		rmSync(root, { recursive: true, force: true });
		throw err;
	}
}
