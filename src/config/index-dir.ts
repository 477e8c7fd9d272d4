/**
 * Prepares the index directory before anything opens it: creates the missing folders one level at a time and
 * checks that the last one is a writable directory. Never `mkdir -p` here: Node 20's recursive mkdir loops forever
 * on procfs (`/proc/nope`), so a bad PI_EVENT_INDEX_DIR froze Pi. Every failure comes back at once, as data.
 */
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { PRIVATE_DIR_MODE, unsafeIndexDir } from "../files/safe-files.js";

/** Why an index directory cannot be used. */
export type IndexDirProblem =
	/** A folder on the way (or the index path itself) cannot be created. */
	| "cannot_create"
	/** A file is in the way: the index path or one of its parents is not a directory. */
	| "not_a_directory"
	/** The directory exists but cannot be written. */
	| "not_writable"
	/** The directory or an entry of it is a symlink, another user's, or writable by other users (safe-files.ts). */
	| "unsafe";

/** The outcome of {@link prepareIndexDir}; `reason` names no path (it may reach the model). */
export type IndexDirCheck =
	| { ok: true; dir: string }
	| { ok: false; code: IndexDirProblem; field: "indexDir"; reason: string; errno?: string };

const REASONS: Record<IndexDirProblem, string> = {
	cannot_create: "the index directory cannot be created",
	not_a_directory: "a file is in the way of the index directory",
	not_writable: "the index directory is read-only (not writable)",
	unsafe: "the index directory is refused",
};

function failure(code: IndexDirProblem, errno?: string, why?: string): IndexDirCheck {
	const detail = why ?? errno;
	return { ok: false, code, field: "indexDir", reason: detail ? `${REASONS[code]} (${detail})` : REASONS[code], errno };
}

const errnoOf = (err: unknown): string | undefined => {
	const code = (err as { code?: unknown }).code;
	return typeof code === "string" ? code : undefined;
};

/**
 * Creates `dir` (and its missing parents, one by one, private to the person) and checks it is a writable directory
 * that is safe to write into (safe-files.ts `unsafeIndexDir`).
 */
export function prepareIndexDir(dir: string): IndexDirCheck {
	const target = resolve(dir);
	const missing: string[] = [];
	for (let current = target; ; current = dirname(current)) {
		try {
			if (!statSync(current).isDirectory()) return failure("not_a_directory");
			break;
		} catch (err) {
			const errno = errnoOf(err);
			if (errno === "ENOTDIR") return failure("not_a_directory");
			if (errno !== "ENOENT") return failure("cannot_create", errno);
			missing.push(current);
			if (dirname(current) === current) return failure("cannot_create", errno);
		}
	}
	for (const folder of missing.reverse()) {
		try {
			mkdirSync(folder, { mode: PRIVATE_DIR_MODE });
		} catch (err) {
			const errno = errnoOf(err);
			// Another process created it in the meantime: fine, as long as it is a directory (checked below).
			if (errno !== "EEXIST") return failure(errno === "ENOTDIR" ? "not_a_directory" : "cannot_create", errno);
		}
	}
	const unsafe = unsafeIndexDir(target);
	if (unsafe) return failure("unsafe", undefined, unsafe);
	try {
		if (!statSync(target).isDirectory()) return failure("not_a_directory");
		accessSync(target, constants.W_OK);
	} catch (err) {
		return failure("not_writable", errnoOf(err));
	}
	return { ok: true, dir: target };
}

/** Thrown by openers when the index directory is unusable; carries the check as data. */
export class IndexDirError extends Error {
	readonly code: IndexDirProblem;
	readonly field = "indexDir";

	constructor(readonly check: Extract<IndexDirCheck, { ok: false }>) {
		super(check.reason);
		this.name = "IndexDirError";
		this.code = check.code;
	}
}

/**
 * {@link prepareIndexDir} for readers, throwing {@link IndexDirError} when the directory cannot be used. A directory
 * that exists but is read-only is usable: an existing store there opens read-only (open-store.ts says why).
 */
export function requireIndexDir(dir: string): string {
	const check = prepareIndexDir(dir);
	if (!check.ok && check.code !== "not_writable") throw new IndexDirError(check);
	return resolve(dir);
}
