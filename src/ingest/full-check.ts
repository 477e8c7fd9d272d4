/**
 * The last check of every session file that found nothing to do, kept beside the store so that an answer soon after
 * can prove "nothing changed" without stat'ing every file (docs/lifecycle.md, "Idle files between full checks").
 *
 * What a full check records: every folder it listed (identity and mtime, stat'ed before listing: a file added,
 * removed or renamed in a folder changes the folder's mtime), every file written within RECENT_MS of the check or
 * named on purpose (its facts key), and what the stored `sources` were (row count, last id, count of files). Within
 * the trust window an answer stats those folders and files only; anything different from the record sends it to
 * the full check, as before. What it does not see: a file idle for RECENT_MS that is appended to by a writer other
 * than a Pi running this extension (which syncs its own session at each turn's end, before each tool call and at
 * shutdown) waits for the next full check, at most the trust window away.
 */
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SqliteDb } from "../store/driver.js";
import { INDEX_FORMAT } from "../store/format.js";
import type { DiscoveryRoot } from "./discover.js";
import { type FileFacts, factsKey, statRegularFile } from "./file-facts.js";

/**
 * A file written within this long before a full check counts as in use: every answer compares it. An hour covers a
 * person's pause between turns; a session idle longer is rarely appended to except by a Pi resuming it, which, with
 * this extension, syncs its own session itself.
 */
const RECENT_MS = 60 * 60_000;

/**
 * A folder changed this close to a full check may change again within the same timestamp tick (2 s on FAT, a few
 * ms on ext4) without its mtime showing it: such a check is not recorded (git's "racy" rule, for folders).
 */
const RACY_MS = 2_000;

/** What a full check that found nothing to do saw. */
export interface FullCheckRecord {
	version: 1;
	/** The store generation it compared against. */
	generation: string;
	/** Wall-clock ms before its first stat. */
	checkedAt: number;
	/** The roots, named files and forgotten paths it ran with (scopeOf). */
	scope: string;
	/** The stored sources then (sourcesSignature). */
	sources: string;
	/** Each folder listed, with folderFacts' key. */
	folders: Array<[string, string]>;
	/** Each recent or named file, with its factsKey and 1 when it was named (stat'ed through a link), else 0. */
	files: Array<[string, string, 0 | 1]>;
}

/** The record's file: one per index format, beside the pointer. */
export function fullCheckFile(indexDir: string): string {
	return join(indexDir, `full-check-f${INDEX_FORMAT}.json`);
}

/** A folder's identity and mtime as one text (`key`; "absent" when it cannot be stat'ed), and the mtime alone. */
function folderFacts(path: string): { key: string; mtimeMs: number } {
	try {
		const st = statSync(path, { throwIfNoEntry: false });
		if (st) return { key: `${st.dev}:${st.ino}:${st.mtimeMs}`, mtimeMs: st.mtimeMs };
	} catch {
		// Unreadable: as absent.
	}
	return { key: "absent", mtimeMs: Number.NaN };
}

/**
 * The inputs a plan's outcome depends on besides the disk and the store, as one comparable text: the roots (in any
 * order: a caller's own session folder comes first), the named files and the forgotten paths.
 */
export function scopeOf(
	roots: readonly DiscoveryRoot[],
	extraFiles: readonly string[],
	forgotten?: ReadonlySet<string>,
): string {
	const rootKeys = [...new Set(roots.map((r) => JSON.stringify([r.path, r.subfolders, r.confinedTo ?? null])))];
	return JSON.stringify([rootKeys.sort(), [...new Set(extraFiles)].sort(), [...(forgotten ?? [])].sort()]);
}

/**
 * The stored sources as one text: rows, the last id ever given (AUTOINCREMENT never reuses one, so any row added
 * or removed changes count or last id) and the stored count of discovered files.
 */
export function sourcesSignature(db: SqliteDb): string {
	const row = db
		.prepare(
			`SELECT (SELECT count(*) FROM sources) AS n, (SELECT seq FROM sqlite_sequence WHERE name = 'sources') AS seq,
				(SELECT value FROM meta WHERE key = 'known_sources') AS known`,
		)
		.get() as { n: number; seq: number | null; known: string | null };
	return `${row.n}:${row.seq ?? 0}:${row.known ?? ""}`;
}

/** Collects what a full check saw while it discovers, and says whether it may be recorded. */
export class FullCheckObserver {
	readonly checkedAt = Date.now();
	private readonly folders: Array<[string, string]> = [];
	private readonly files: Array<[string, string, 0 | 1]> = [];
	private racy = false;

	/** Called before a folder is listed. */
	folder(path: string): void {
		const { key, mtimeMs } = folderFacts(path);
		if (mtimeMs >= this.checkedAt - RACY_MS) this.racy = true;
		this.folders.push([path, key]);
	}

	/** Called for each discovered file with its facts. */
	file(path: string, facts: FileFacts, named: boolean): void {
		if (named || facts.mtimeMs >= this.checkedAt - RECENT_MS) this.files.push([path, factsKey(facts), named ? 1 : 0]);
	}

	/** The record of this check, or undefined when a folder changed too close to it to be trusted. */
	record(generation: string, scope: string, sources: string): FullCheckRecord | undefined {
		if (this.racy) return undefined;
		return {
			version: 1,
			generation,
			checkedAt: this.checkedAt,
			scope,
			sources,
			folders: this.folders,
			files: this.files,
		};
	}
}

/**
 * Records kept per file: callers with other scopes (a CLI in another workspace, each Pi with its own session file)
 * keep their own instead of replacing each other's.
 */
const RECORDS_KEPT = 8;

/** The records at `file`; none when there is no file or it cannot be read. */
function readRecords(file: string): FullCheckRecord[] {
	try {
		const records = JSON.parse(readFileSync(file, "utf8")) as unknown;
		if (!Array.isArray(records)) return [];
		return records.filter(
			(r): r is FullCheckRecord =>
				r?.version === 1 && typeof r.scope === "string" && Array.isArray(r.folders) && Array.isArray(r.files),
		);
	} catch {
		return [];
	}
}

/** The record of `scope` at `file`, if any. */
export function readFullCheck(file: string, scope: string): FullCheckRecord | undefined {
	return readRecords(file).find((r) => r.scope === scope);
}

/**
 * Keeps `record` in place of its scope's and the other scopes' newest ones, replacing the file whole (temp file +
 * rename); a store that cannot take it just gets no shortcut. Two writers at once may lose one's record: the next
 * check of that scope is a full one.
 */
export function writeFullCheck(file: string, record: FullCheckRecord): void {
	const others = readRecords(file).filter((r) => r.scope !== record.scope && r.generation === record.generation);
	const kept = [record, ...others.sort((a, b) => b.checkedAt - a.checkedAt).slice(0, RECORDS_KEPT - 1)];
	// Unique per writer: Pi's catch-up worker and its main thread are one process.
	const temp = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
	try {
		writeFileSync(temp, JSON.stringify(kept));
		renameSync(temp, file);
	} catch {
		try {
			unlinkSync(temp);
		} catch {
			// Nothing was written.
		}
	}
}

/** What a plan compares a record with. */
export interface FullCheckContext {
	generation: string;
	scope: string;
	/** How long a record is trusted, in ms (0: never). */
	trustMs: number;
	now: number;
}

/**
 * True when `record` proves nothing a plan looks at changed: the same generation, scope and stored sources, within
 * the trust window, every recorded folder and file as it was.
 */
export function unchangedSince(db: SqliteDb, record: FullCheckRecord | undefined, ctx: FullCheckContext): boolean {
	if (!record || record.generation !== ctx.generation || record.scope !== ctx.scope) return false;
	const age = ctx.now - record.checkedAt;
	// A clock set back makes the age negative: not trusted.
	if (!(age >= 0 && age < ctx.trustMs)) return false;
	if (sourcesSignature(db) !== record.sources) return false;
	for (const [path, key] of record.folders) if (folderFacts(path).key !== key) return false;
	for (const [path, key, named] of record.files) {
		const facts = statRegularFile(path, named === 1);
		if (!facts || factsKey(facts) !== key) return false;
	}
	return true;
}
