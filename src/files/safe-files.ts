/**
 * Nothing the index writes follows a symlink out of its directory: its small files (log, lock targets, the write
 * intent, holder and pointer temp files) are opened with O_NOFOLLOW, so a symlink in a file's place fails (ELOOP)
 * instead of sending the write elsewhere, and temp files are created exclusively. The directory itself is refused
 * when it or one of its entries is a symlink, belongs to another user or is writable by other users, the way ssh
 * treats `~/.ssh` (docs/security.md, "Symlinks").
 */
import { closeSync, constants, lstatSync, openSync, readdirSync, readFileSync, type Stats, writeSync } from "node:fs";
import { join } from "node:path";

/** O_NOFOLLOW where the platform has it (every POSIX system; Windows has no symlinks a user can plant this way). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/**
 * Mode of every small file the index creates: writable by the person alone. Readable, like SQLite's own files: the
 * directory decides who reads (a person may share an index read-only by opening its directory up).
 */
const FILE_MODE = 0o644;
/** Mode of every folder the index creates (the index directory, lock directories): the person's alone. */
export const PRIVATE_DIR_MODE = 0o700;

/** Appends `text` to `file`, creating it private; a symlink in its place throws ELOOP. */
export function appendNoFollow(file: string, text: string): void {
	const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW, FILE_MODE);
	try {
		writeSync(fd, text);
	} finally {
		closeSync(fd);
	}
}

/** Creates `file` if missing (private), never through a symlink; returns an open descriptor for writing. */
export function openForWriteNoFollow(file: string, exclusive = false): number {
	const flags = constants.O_WRONLY | constants.O_CREAT | NOFOLLOW | (exclusive ? constants.O_EXCL : 0);
	return openSync(file, flags, FILE_MODE);
}

/** Makes sure `file` exists (private), never through a symlink. */
export function touchNoFollow(file: string): void {
	closeSync(openForWriteNoFollow(file));
}

/** A new private file holding `text`; throws EEXIST when anything (a symlink included) is already there. */
export function writeExclusive(file: string, text: string): void {
	const fd = openForWriteNoFollow(file, true);
	try {
		writeSync(fd, text);
	} finally {
		closeSync(fd);
	}
}

/** Reads `file` as UTF-8, refusing a symlink (ELOOP). */
export function readNoFollow(file: string): string {
	const fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
	try {
		return readFileSync(fd, "utf8");
	} finally {
		closeSync(fd);
	}
}

/** The uid of this process; undefined where there is none (Windows). */
const myUid = process.getuid?.();

/** What is wrong with one directory or entry of it, in words naming no path. */
function unsafeStat(st: Stats, what: string): string | undefined {
	if (st.isSymbolicLink()) return `${what} is a symlink`;
	if (myUid === undefined) return undefined;
	if (st.uid !== myUid && st.uid !== 0) return `${what} belongs to another user`;
	if ((st.mode & 0o022) !== 0) {
		return `${what} is writable by other users (mode ${(st.mode & 0o777).toString(8)}; chmod go-w fixes it)`;
	}
	return undefined;
}

/**
 * Why the index directory must not be used, or undefined when it is safe (or missing: it is created private). The
 * reason names no path, since it may reach the model; entries are named by their file name only.
 */
export function unsafeIndexDir(dir: string): string | undefined {
	let st: Stats;
	try {
		st = lstatSync(dir);
	} catch {
		return undefined;
	}
	const own = unsafeStat(st, "the index directory");
	if (own) return own;
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return undefined; // unreadable: opening it says why
	}
	for (const name of names) {
		let entry: Stats;
		try {
			entry = lstatSync(join(dir, name));
		} catch {
			continue; // gone meanwhile (a temp file renamed, a lock released)
		}
		const bad = unsafeStat(entry, `the index directory's entry ${JSON.stringify(name)}`);
		if (bad) return bad;
	}
	return undefined;
}
