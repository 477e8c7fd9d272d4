/**
 * Cross-process locks (proper-lockfile, mkdir-based) for heavy exclusive work: migration, generation swaps,
 * rebuild and catch-up. Short writes need no lock: SQLite serializes them (BEGIN IMMEDIATE + busy_timeout).
 *
 * Lock target: `<dir>/<name>.lock-target` (the lock itself is the directory `<target>.lock`). A holder refreshes
 * the lock's mtime every `stale/2`; a lock older than `stale` (a SIGKILLed holder) is taken over by the next
 * waiter. The refresh runs on the event loop, so a holder must not block it longer than `stale`.
 * proper-lockfile's default `onCompromised` throws inside a timer and kills the process; ours only marks the
 * handle compromised and logs.
 */
import * as nodeFs from "node:fs";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import lockfile from "proper-lockfile";
import { createLogger, errorFields, type StoreLogger } from "../files/log.js";
import { PRIVATE_DIR_MODE, readNoFollow, touchNoFollow, writeExclusive } from "../files/safe-files.js";
import { DEFAULT_STALE_MS, holderPath, targetPath } from "./lock-holder.js";

/**
 * The fs proper-lockfile uses: a plain object of our own. By default it takes graceful-fs and caches the mtime
 * precision on it with a non-configurable property; inside Pi's compiled (Bun) binary, whose loader hands modules
 * out behind a Proxy, reading that property back throws a Proxy invariant TypeError from a callback and kills Pi
 * at the second lock of the process.
 */
const LOCK_FS = {
	...nodeFs,
	// The lock directory is the person's alone (an index directory with a group-writable entry is refused).
	mkdir: (path: string, callback: (err: NodeJS.ErrnoException | null) => void) =>
		nodeFs.mkdir(path, PRIVATE_DIR_MODE, callback),
};

/** Options for taking a lock. */
export interface LockOptions {
	/** Wait for the lock: `true` waits long enough to cover a stale takeover (3 × stale); a number is ms. */
	wait?: boolean | number;
	/** Staleness threshold in ms (≥ 2000); lower values only for tests. */
	stale?: number;
	/** Where to log; defaults to the store log in `dir`. */
	logger?: StoreLogger;
}

/** A held lock. */
export interface LockHandle {
	/** Lock name. */
	readonly name: string;
	/** True once the lock was lost (its directory removed or not refreshed in time): stop exclusive work. */
	readonly compromised: boolean;
	/** Release (idempotent, never throws). */
	release(): Promise<void>;
}

/** Outcome of `withExclusiveLock`. */
export type LockedResult<T> =
	| { ok: true; value: T; compromised: boolean }
	| { ok: false; reason: "busy" | "unwritable" | "error"; error: string };

function ensureTarget(dir: string, name: string): string {
	const target = targetPath(dir, name);
	mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
	touchNoFollow(target);
	return target;
}

function retriesFor(wait: boolean | number | undefined, stale: number) {
	const waitMs = wait === true ? stale * 3 : typeof wait === "number" ? Math.max(0, wait) : 0;
	if (waitMs === 0) return 0;
	const interval = 100;
	return { retries: Math.ceil(waitMs / interval), factor: 1, minTimeout: interval, maxTimeout: interval };
}

/** Try to take lock `name` in `dir` (waiting per `options.wait`). Returns undefined when it is held elsewhere. */
export async function tryLock(dir: string, name: string, options: LockOptions = {}): Promise<LockHandle | undefined> {
	const result = await acquire(dir, name, options);
	return result.ok ? result.handle : undefined;
}

/**
 * Outcome of taking a lock. "busy": another process holds it; "unwritable": the lock cannot even be created (a
 * read-only index directory), which no amount of waiting changes; "error": anything else.
 */
export type LockAttempt =
	| { ok: true; handle: LockHandle }
	| { ok: false; reason: "busy" | "unwritable" | "error"; error: string };

/** Codes meaning the directory cannot be written. */
const UNWRITABLE = new Set(["EACCES", "EPERM", "EROFS"]);

/** Like tryLock, but says why a lock was not taken. */
export function takeLock(dir: string, name: string, options: LockOptions = {}): Promise<LockAttempt> {
	return acquire(dir, name, options);
}

async function acquire(dir: string, name: string, options: LockOptions): Promise<LockAttempt> {
	const logger = options.logger ?? createLogger(dir);
	const stale = Math.max(2000, options.stale ?? DEFAULT_STALE_MS);
	let target: string;
	try {
		target = ensureTarget(dir, name);
	} catch (err) {
		const reason = UNWRITABLE.has((err as { code?: string }).code ?? "") ? "unwritable" : "error";
		return { ok: false, reason, error: `cannot create lock file in ${dir}: ${errorFields(err).error}` };
	}
	let compromised = false;
	let released = false;
	let unlock: () => Promise<void>;
	try {
		unlock = await lockfile.lock(target, {
			fs: LOCK_FS,
			stale,
			update: stale / 2,
			realpath: false,
			retries: retriesFor(options.wait, stale),
			onCompromised: (err) => {
				compromised = true;
				logger.log("warn", "lock.compromised", { name, ...errorFields(err) });
			},
		});
	} catch (err) {
		const code = (err as { code?: unknown }).code;
		if (code === "ELOCKED") return { ok: false, reason: "busy", error: `lock "${name}" is held by another process` };
		return { ok: false, reason: "error", error: `cannot take lock "${name}": ${errorFields(err).error}` };
	}
	writeHolder(dir, name);
	logger.log("debug", "lock.acquired", { name });
	const handle: LockHandle = {
		name,
		get compromised() {
			return compromised;
		},
		async release() {
			if (released) return;
			released = true;
			if (!compromised) removeHolder(dir, name);
			try {
				await unlock();
			} catch (err) {
				// Already released or compromised: nothing left to give back.
				logger.log("debug", "lock.release_failed", { name, ...errorFields(err) });
			}
		},
	};
	return { ok: true, handle };
}

/**
 * Run `fn` while holding lock `name`. With `wait` unset or false, returns `{ok:false, reason:"busy"}` at once when
 * another process holds it. The lock is released when `fn` settles; errors thrown by `fn` propagate.
 */
export async function withExclusiveLock<T>(
	dir: string,
	name: string,
	fn: (handle: LockHandle) => T | Promise<T>,
	options: LockOptions = {},
): Promise<LockedResult<T>> {
	const got = await acquire(dir, name, options);
	if (!got.ok) return got;
	try {
		const value = await fn(got.handle);
		return { ok: true, value, compromised: got.handle.compromised };
	} finally {
		await got.handle.release();
	}
}

function writeHolder(dir: string, name: string): void {
	const file = holderPath(dir, name);
	const tmp = `${file}.${process.pid}.tmp`;
	try {
		// A temp file a crash left under this pid (or anything planted there) goes first: the new one is exclusive.
		rmSync(tmp, { force: true });
		writeExclusive(
			tmp,
			JSON.stringify({ pid: process.pid, hostname: hostname(), acquiredAt: new Date().toISOString() }),
		);
		renameSync(tmp, file);
	} catch {
		// The sidecar is informational only; a temp file a full disk cut short is not left behind.
		try {
			rmSync(tmp, { force: true });
		} catch {
			// Nothing more to do: the sweep of a later publish does not know this file, but it is empty.
		}
	}
}

function removeHolder(dir: string, name: string): void {
	try {
		const file = holderPath(dir, name);
		const holder = JSON.parse(readNoFollow(file)) as { pid?: number };
		if (holder.pid === process.pid) rmSync(file, { force: true });
	} catch {
		// Already gone or replaced by a newer holder.
	}
}
