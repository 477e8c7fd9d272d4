/**
 * What a sync knows about a session file without reading it: identity (dev, ino), size and mtime, and the one rule
 * that says a file is exactly as a complete checkpoint saw it. Sync, its lock-free pre-check and catch-up all use
 * this rule, so a file replaced by another with the same size and mtime (`mv a b`) is never taken as unchanged.
 */
import { type BigIntStats, closeSync, constants, fstatSync, lstatSync, openSync, type Stats, statSync } from "node:fs";

/** Identity, size and mtime of a file, as stored on its checkpoint. */
export interface FileFacts {
	dev: string;
	ino: string;
	size: number;
	mtimeMs: number;
}

/** The checkpoint fields the unchanged rule compares. */
export interface CheckpointFacts extends FileFacts {
	syncedAt: number | null;
	lastError?: string | null;
}

/** Facts of a bigint stat (dev and ino as strings: they exceed 2^53 on some file systems). */
function factsOf(st: BigIntStats): FileFacts {
	return {
		dev: String(st.dev),
		ino: String(st.ino),
		size: Number(st.size),
		mtimeMs: Math.trunc(Number(st.mtimeMs)),
	};
}

/** The one "unchanged" rule: a complete, error-free checkpoint of the same inode with the same size and mtime. */
export function matchesCheckpoint(row: CheckpointFacts, file: FileFacts): boolean {
	return row.syncedAt !== null && (row.lastError ?? null) === null && sameFacts(row, file);
}

/**
 * A file's facts as one text (dev, ino, size, mtime): equal keys, sameFacts. CHECKPOINT_KEY_SQL writes a stored
 * checkpoint's key the same way, so a plan compares 10,000 files with their checkpoints without a row object each.
 */
export function factsKey(file: FileFacts): string {
	return `${file.dev}:${file.ino}:${file.size}:${file.mtimeMs}`;
}

/**
 * SQL of a `sources` row's factsKey when matchesCheckpoint could hold for it (a complete, error-free checkpoint), and
 * '' when no file matches it. size and mtime_ms are integers, whose text SQLite writes as String() does.
 */
export const CHECKPOINT_KEY_SQL = `iif(synced_at IS NOT NULL AND last_error IS NULL, dev || ':' || ino || ':' || size || ':' || mtime_ms, '')`;

/** Same inode, size and mtime: the file has not been replaced, grown or rewritten since `seen` was taken. */
export function sameFacts(seen: FileFacts, file: FileFacts): boolean {
	return seen.dev === file.dev && seen.ino === file.ino && seen.size === file.size && seen.mtimeMs === file.mtimeMs;
}

/**
 * The facts of a number stat when they are exactly the bigint stat's: dev, ino and size below 2^53, and an mtime
 * whose milliseconds Node computed as a fraction (sec × 1000 + nsec / 10^6 rounds to the next whole millisecond only
 * by landing on it, so a fractional value truncates to the bigint's floor). Undefined otherwise (then a bigint stat
 * decides). A number stat costs less: 10,000 of them took 80 ms of CPU against 97 ms as bigints.
 */
function exactFacts(st: Stats): FileFacts | undefined {
	const { dev, ino, size, mtimeMs } = st;
	if (!(Number.isSafeInteger(dev) && Number.isSafeInteger(ino) && Number.isSafeInteger(size))) return undefined;
	if (!(mtimeMs > 0) || Number.isInteger(mtimeMs)) return undefined;
	return { dev: String(dev), ino: String(ino), size, mtimeMs: Math.trunc(mtimeMs) };
}

/**
 * Facts of a regular file at `path`; undefined when it is gone or not a regular file (FIFO, socket, directory…, and
 * with `follow` false a symbolic link).
 */
export function statRegularFile(path: string, follow = true): FileFacts | undefined {
	const stat = follow ? statSync : lstatSync;
	try {
		// A file gone since it was listed costs no exception.
		const st = stat(path, { throwIfNoEntry: false });
		if (!st?.isFile()) return undefined;
		const exact = exactFacts(st);
		if (exact) return exact;
		const big = stat(path, { bigint: true, throwIfNoEntry: false });
		return big?.isFile() ? factsOf(big) : undefined;
	} catch {
		return undefined;
	}
}

/** Open errors meaning "no regular file here" (ENXIO: a socket). */
const NOT_A_FILE = new Set(["ENOENT", "ENOTDIR", "ENXIO", "EISDIR"]);

function isGone(err: unknown): boolean {
	return NOT_A_FILE.has((err as NodeJS.ErrnoException).code ?? "");
}

/**
 * Opens a regular file for reading and takes its facts from the descriptor (same inode for facts and bytes).
 * Null when it is gone or not a regular file. O_NONBLOCK: opening a FIFO for reading would otherwise block until a
 * writer appears — forever, on the thread that runs Pi. On a regular file the flag changes nothing.
 */
export function openRegularFile(path: string): { fd: number; file: FileFacts } | null {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (err) {
		if (isGone(err)) return null;
		throw err;
	}
	const st = fstatSync(fd, { bigint: true });
	if (!st.isFile()) {
		closeSync(fd);
		return null;
	}
	return { fd, file: factsOf(st) };
}
