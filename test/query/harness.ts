/**
 * Test harness: a real SQLite store (migrations applied) in a temp dir, the corpus indexed through the real ingest
 * path (SourceSyncer), and callers for the corpus workspace. Every service result passes through `record`, so a
 * test can scan all outputs for leaked paths.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Budgets, DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import type { CallerContext } from "../../src/query/caller.js";
import { openDatabase } from "../../src/store/db.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { applyMigrations } from "../../src/store/migrations.js";
import { KNOWN_SOURCES_KEY } from "../../src/store/source-counts.js";
import { buildCorpus, type Corpus } from "./corpus.js";

const REPO = resolve(fileURLToPath(import.meta.url), "..", "..", "..");

export interface Harness {
	corpus: Corpus;
	db: SqliteDb;
	/** Caller in the corpus workspace with no session of its own. */
	caller(overrides?: Partial<Omit<CallerContext, "budgets">> & { budgets?: Partial<Budgets> }): CallerContext;
	/** Every result recorded so far (JSON). */
	outputs: string[];
	record<T>(value: T): T;
}

/** Builds the corpus, opens a store and indexes every corpus file. */
export async function openHarness(): Promise<Harness> {
	const corpus = await buildCorpus();
	const db = await openDatabase(join(corpus.root, "index.db"));
	await applyMigrations(db, join(REPO, "migrations"));
	const syncer = new SourceSyncer(db);
	const files = [
		corpus.main.file,
		corpus.forkChild.file,
		corpus.grandChild.file,
		corpus.pathCopy.file,
		corpus.other.file,
	];
	for (const file of files) {
		const r = await syncer.sync(file);
		if (r.status !== "indexed") throw new Error(`sync ${file}: ${r.status} ${r.error ?? ""}`);
	}
	// What a catch-up's discovery records: coverage is "complete" only once the number of files is known.
	db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(KNOWN_SOURCES_KEY, String(files.length));
	const outputs: string[] = [];
	return {
		corpus,
		db,
		outputs,
		caller(overrides = {}) {
			const { budgets, ...rest } = overrides;
			return {
				cwd: corpus.appCwd,
				authorization: { extraRoots: [], allRoots: false },
				...rest,
				budgets: { ...DEFAULT_BUDGETS, ...budgets },
			};
		},
		record(value) {
			outputs.push(JSON.stringify(value));
			return value;
		},
	};
}
