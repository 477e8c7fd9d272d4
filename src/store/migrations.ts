/**
 * Where the migrations live and how a database's drizzle journal compares with the ones this code ships.
 * drizzle's migrator applies every migration whose journal time (`when`) is newer than the newest applied row in
 * `__drizzle_migrations`; we compare the same way before deciding to migrate, to open read-only, or to do nothing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SqliteDb } from "./driver.js";

/** The shipped migrations folder (package `files` includes it), resolved from this module. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations", import.meta.url));

/** A migration this code knows: its tag and journal time. */
export interface KnownMigration {
	tag: string;
	when: number;
}

/** How a database's applied migrations relate to the known ones. */
type MigrationStatus =
	/** Everything known is applied and nothing else. */
	| "current"
	/** Some known migrations are not applied yet (a fresh file, or a store made by an older version). */
	| "pending"
	/** The database has migrations this code does not know: a newer version migrated it. Never modify it. */
	| "newer";

/** Result of comparing a database's journal with the known migrations. */
export interface MigrationState {
	status: MigrationStatus;
	/** Rows in `__drizzle_migrations` (0 when the table does not exist). */
	applied: number;
	/** Migrations this code ships. */
	known: number;
	/** Newest applied `created_at` (0 when none). */
	latestApplied: number;
	/** Newest known journal time. */
	latestKnown: number;
}

const cache = new Map<string, KnownMigration[]>();

/** The migrations listed in `<folder>/meta/_journal.json` (cached per folder). */
export function knownMigrations(folder: string = MIGRATIONS_DIR): KnownMigration[] {
	let known = cache.get(folder);
	if (!known) {
		const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as {
			entries: Array<{ tag: string; when: number }>;
		};
		known = journal.entries.map((e) => ({ tag: e.tag, when: Number(e.when) }));
		cache.set(folder, known);
	}
	return known;
}

/** Read the database's journal (two small queries) and classify it. */
export function migrationState(db: SqliteDb, folder: string = MIGRATIONS_DIR): MigrationState {
	const known = knownMigrations(folder);
	const latestKnown = known.reduce((max, m) => Math.max(max, m.when), 0);
	const table = db
		.prepare<[], { name: string }>(
			"SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'",
		)
		.get();
	let applied = 0;
	let latestApplied = 0;
	if (table) {
		const row = db
			.prepare<[], { n: number; latest: number | null }>(
				"SELECT count(*) AS n, max(CAST(created_at AS INTEGER)) AS latest FROM __drizzle_migrations",
			)
			.get();
		applied = row?.n ?? 0;
		latestApplied = Number(row?.latest ?? 0);
	}
	let status: MigrationStatus;
	if (applied > known.length || latestApplied > latestKnown) status = "newer";
	else if (latestApplied < latestKnown) status = "pending";
	else status = "current";
	return { status, applied, known: known.length, latestApplied, latestKnown };
}

/**
 * Applies the pending migrations of `folder` as drizzle's synchronous SQLite migrator does (the same journal table,
 * rows and order, so a store migrated by any driver is current for every other), through the store's own connection
 * whatever the driver: drizzle reads the files, this runs them. Callers hold the cross-process store lock.
 */
export async function applyMigrations(db: SqliteDb, folder: string = MIGRATIONS_DIR): Promise<void> {
	const { readMigrationFiles } = await import("drizzle-orm/migrator");
	const migrations = readMigrationFiles({ migrationsFolder: folder });
	db.exec(
		'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
	);
	const last = db
		.prepare<[], { created_at: unknown }>(
			'SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1',
		)
		.get();
	const pending = migrations.filter((m) => last === undefined || Number(last.created_at) < m.folderMillis);
	if (pending.length === 0) return;
	const record = db.prepare<[string, number]>(
		'INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)',
	);
	db.exec("BEGIN");
	try {
		for (const migration of pending) {
			for (const statement of migration.sql) db.exec(statement);
			record.run(migration.hash, migration.folderMillis);
		}
		db.exec("COMMIT");
	} catch (err) {
		db.exec("ROLLBACK");
		throw err;
	}
}
