/**
 * A tiny local logger: JSON lines appended to `<dir>/event-index.log`, rotated to `.log.1` at ~1 MB. Never writes
 * to stdout/stderr (Pi's TUI owns the terminal) and never throws: a log that cannot be written is dropped, and so is
 * one whose file is a symlink (never followed: safe-files.ts).
 */
import { lstatSync, renameSync } from "node:fs";
import { join } from "node:path";
import { appendNoFollow } from "../files/safe-files.js";

/** File name of the store log inside the store directory. */
export const LOG_FILE = "event-index.log";
/** Size at which the log is rotated. */
const LOG_MAX_BYTES = 1024 * 1024;

/** Log severity. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Appends one structured event. */
export interface StoreLogger {
	log(level: LogLevel, event: string, fields?: Record<string, unknown>): void;
	/** Absolute path of the log file. */
	readonly file: string;
}

const checkEvery = 64;

/** A logger writing into `dir` (which may not exist or be writable: then logging is a no-op). */
export function createLogger(dir: string): StoreLogger {
	const file = join(dir, LOG_FILE);
	let writes = 0;
	return {
		file,
		log(level, event, fields) {
			try {
				// Checking the size on every write would double the syscalls; a few KB over the bound is fine.
				if (writes++ % checkEvery === 0) rotateIfLarge(file);
				const line = JSON.stringify({ time: new Date().toISOString(), pid: process.pid, level, event, ...fields });
				appendNoFollow(file, `${line}\n`);
			} catch {
				// Logging must never break the caller (read-only or vanished directory).
			}
		},
	};
}

function rotateIfLarge(file: string): void {
	try {
		if (lstatSync(file).size >= LOG_MAX_BYTES) renameSync(file, `${file}.1`);
	} catch {
		// Missing file: nothing to rotate.
	}
}

/** Turn an unknown thrown value into loggable fields (message, code and any `detail` it carries; no stack). */
export function errorFields(err: unknown): { error: string; code?: string; detail?: string } {
	if (err instanceof Error) {
		const { code, detail } = err as { code?: unknown; detail?: unknown };
		return {
			error: err.message,
			...(typeof code === "string" ? { code } : {}),
			...(typeof detail === "string" ? { detail } : {}),
		};
	}
	return { error: String(err) };
}
