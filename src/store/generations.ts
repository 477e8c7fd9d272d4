/**
 * Store generations. The store directory holds one pointer file per index format, `current-f<FORMAT>.json`
 * (`{"file":"index-f<FORMAT>-<gen>.sqlite","createdAt":"…"}`), and the generation files it may name. A rebuild
 * builds a whole new generation file, then publishes it by replacing the pointer (temp file + rename, atomic), so
 * readers see either the old complete index or the new complete one, and WAL files of two generations never mix.
 */
import { closeSync, fsyncSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { createLogger, errorFields, type StoreLogger } from "../files/log.js";
import { openForWriteNoFollow } from "../files/safe-files.js";
import { packageVersion } from "../package-version.js";
import { FTS_FILE_SUFFIX, openDatabase } from "./db.js";
import type { SqliteDb } from "./driver.js";
import { generationFileName, generationFilePattern, INDEX_FORMAT, pointerFileName } from "./format.js";
import { applyMigrations, MIGRATIONS_DIR } from "./migrations.js";

/** Lock taken for migration, first creation, corruption recovery and pointer swaps. */
export const STORE_LOCK = "store";

/** Contents of the pointer file. */
interface GenerationPointer {
	file: string;
	createdAt: string;
}

/** A newly created, not yet published generation: a migrated file with its `meta` rows. */
export interface NewGeneration {
	/** File name inside the store directory. */
	file: string;
	/** Absolute path. */
	path: string;
	/** Generation id (the `<gen>` of the file name). */
	generation: string;
	/** Open read-write connection; the caller fills it, then publishes, and closes or keeps using it. */
	db: SqliteDb;
}

/** Outcome of reading the pointer file. */
export type PointerRead =
	| { ok: true; pointer: GenerationPointer }
	| { ok: false; reason: "missing" | "invalid"; detail?: string };

/** Read `current-f<FORMAT>.json`. A pointer that names anything but a generation file of this format is invalid. */
export function readPointer(dir: string, format: number = INDEX_FORMAT): PointerRead {
	let text: string;
	try {
		text = readFileSync(join(dir, pointerFileName(format)), "utf8");
	} catch (err) {
		const code = (err as { code?: unknown }).code;
		return code === "ENOENT"
			? { ok: false, reason: "missing" }
			: { ok: false, reason: "invalid", detail: String(code) };
	}
	try {
		const parsed = JSON.parse(text) as Partial<GenerationPointer>;
		if (typeof parsed.file === "string" && generationFilePattern(format).test(parsed.file)) {
			return { ok: true, pointer: { file: parsed.file, createdAt: String(parsed.createdAt ?? "") } };
		}
		return { ok: false, reason: "invalid", detail: "pointer does not name a generation file" };
	} catch {
		return { ok: false, reason: "invalid", detail: "pointer is not JSON" };
	}
}

/** The generation id inside a generation file name (undefined if it is not one). */
export function generationOf(file: string, format: number = INDEX_FORMAT): string | undefined {
	return generationFilePattern(format).exec(file)?.[1];
}

/**
 * `bytes` random bytes as hex, from the global Web Crypto: importing node:crypto costs every process that only reads
 * the index several milliseconds at start.
 */
function randomHex(bytes: number): string {
	return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

/** A new, sortable, collision-free generation id. */
function newGenerationId(): string {
	return `${Date.now().toString(36).padStart(9, "0")}-${process.pid.toString(36)}-${randomHex(3)}`;
}

/** Options shared by generation helpers. */
export interface GenerationOptions {
	/** Package version recorded in `meta.created_by`. */
	createdBy?: string;
	logger?: StoreLogger;
}

/**
 * Create a new generation file in `dir`: migrated, with `meta` (format, created_by, created_at). It is invisible
 * to readers until `publishGeneration`. Throws the driver's error if the file cannot be created.
 */
export async function createGeneration(dir: string, options: GenerationOptions = {}): Promise<NewGeneration> {
	const generation = newGenerationId();
	const file = generationFileName(generation);
	const path = join(dir, file);
	let db: SqliteDb;
	try {
		db = await openDatabase(path, { create: true });
	} catch (err) {
		// E.g. a full disk: the empty file SQLite created must not linger until the 24 h sweep.
		removeGenerationFiles(dir, file);
		throw err;
	}
	try {
		await applyMigrations(db, MIGRATIONS_DIR);
		const put = db.prepare<[string, string]>("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
		db.transaction(() => {
			put.run("format", String(INDEX_FORMAT));
			put.run("created_by", options.createdBy ?? packageVersion());
			put.run("created_at", new Date().toISOString());
		});
	} catch (err) {
		db.close();
		removeGenerationFiles(dir, file);
		throw err;
	}
	(options.logger ?? createLogger(dir)).log("info", "store.generation_created", { file });
	return { file, path, generation, db };
}

/** Write the pointer atomically (temp file, fsync, rename). Throws on I/O errors. */
export function writePointer(dir: string, file: string): void {
	const target = join(dir, pointerFileName());
	const tmp = `${target}.${process.pid}.${randomHex(3)}.tmp`;
	const body = `${JSON.stringify({ file, createdAt: new Date().toISOString() } satisfies GenerationPointer)}\n`;
	const fd = openForWriteNoFollow(tmp, true);
	try {
		writeSync(fd, body);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	try {
		renameSync(tmp, target);
	} catch (err) {
		rmSync(tmp, { force: true });
		throw err;
	}
}

/** Outcome of publishing a generation. */
export type PublishResult = { ok: true; previous?: string } | { ok: false; error: string };

/**
 * Make `file` the current generation, then delete the generation it replaced. Readers that still have the old
 * file open keep working (POSIX) and see `isCurrent()` turn false. Takes the store lock unless the caller says it
 * already holds it (`holdingStoreLock`). Never throws.
 */
export async function publishGeneration(
	dir: string,
	file: string,
	options: { logger?: StoreLogger; holdingStoreLock?: boolean } = {},
): Promise<PublishResult> {
	const logger = options.logger ?? createLogger(dir);
	const swap = (): PublishResult => {
		const before = readPointer(dir);
		try {
			writePointer(dir, file);
		} catch (err) {
			logger.log("error", "store.publish_failed", { file, ...errorFields(err) });
			return { ok: false, error: `cannot publish index generation: ${errorFields(err).error}` };
		}
		const previous = before.ok ? before.pointer.file : undefined;
		logger.log("info", "store.generation_published", { file, previous });
		if (previous && previous !== file) removeGenerationFiles(dir, previous);
		sweepOrphans(dir, file);
		return previous ? { ok: true, previous } : { ok: true };
	};
	if (options.holdingStoreLock) return swap();
	// Loaded here: readers of the index never take a lock (lock.ts loads proper-lockfile).
	const { withExclusiveLock } = await import("./lock.js");
	const locked = await withExclusiveLock(dir, STORE_LOCK, swap, { wait: true, logger });
	return locked.ok ? locked.value : { ok: false, error: locked.error };
}

/** What SQLite keeps beside a database file. */
const JOURNAL_SUFFIXES = ["-wal", "-shm", "-journal"];

/**
 * Every file of a generation, as suffixes of its file name: the database, its full-text file (db.ts
 * FTS_FILE_SUFFIX), and SQLite's journals of both.
 */
export const GENERATION_FILE_SUFFIXES = ["", FTS_FILE_SUFFIX].flatMap((f) => [
	f,
	...JOURNAL_SUFFIXES.map((j) => f + j),
]);

/** Delete a generation's files (best effort). */
export function removeGenerationFiles(dir: string, file: string): void {
	for (const suffix of GENERATION_FILE_SUFFIXES) {
		try {
			rmSync(join(dir, file + suffix), { force: true });
		} catch {
			// Best effort: a file we cannot remove is swept later.
		}
	}
}

/** Unpublished generations older than this are leftovers of crashed builds. */
const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

/** Remove leftovers: side files whose database is gone, and old unpublished generation files. */
function sweepOrphans(dir: string, current: string): void {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return;
	}
	const pattern = generationFilePattern();
	const present = new Set(names);
	for (const name of names) {
		const owner = GENERATION_FILE_SUFFIXES.filter((s) => s !== "" && name.endsWith(s))
			.map((s) => name.slice(0, -s.length))
			.find((base) => pattern.test(base));
		if (owner !== undefined && !present.has(owner)) {
			rmSync(join(dir, name), { force: true });
			continue;
		}
		if (name === current || !pattern.test(name)) continue;
		try {
			const newest = Math.max(...GENERATION_FILE_SUFFIXES.map((s) => mtimeOr0(join(dir, name + s))));
			if (newest < Date.now() - ORPHAN_AGE_MS) removeGenerationFiles(dir, name);
		} catch {
			// Ignore: retried on the next publish.
		}
	}
}

function mtimeOr0(path: string): number {
	try {
		return statSync(path).mtimeMs;
	} catch {
		return 0;
	}
}

/** This package's version (for `meta.created_by`). */
export { packageVersion };
