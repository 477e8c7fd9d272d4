/**
 * The driver for a Node without node:sqlite (Pi 0.73 on Node 20): better-sqlite3, a native addon. Statements are better-sqlite3's own
 * objects (their API already matches `SqliteStatement`), so hot paths pay no extra indirection.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type BetterSqlite3 from "better-sqlite3";
import { betterSqlite3Module } from "./better-sqlite3-module.js";
import {
	DriverLoadError,
	type DriverOpenRequest,
	type OpenDriver,
	type SqliteDb,
	type SqliteStatement,
} from "./driver.js";

/** The package's own folder, where `npm rebuild` / `npm install` must run (this file is dist/store/ in it). */
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");

/** The addon where better-sqlite3's install puts it, when it is there (else the package's own lookup finds it). */
const ADDON_FILE = "build/Release/better_sqlite3.node";

/**
 * Load better-sqlite3; returns the opener. Throws DriverLoadError when the addon is missing or built for another Node.
 * Loaded with require, not import: importing a CommonJS package makes Node scan its source for exports first, and
 * the addon is named by its path, which spares the `bindings` package's search of a dozen candidate folders (both
 * are paid by every process that opens the index, before its first answer).
 */
export async function loadBetterSqlite3(): Promise<OpenDriver> {
	// better-sqlite3 reads this once, when the addon loads, to allow `file:` URIs (needed for `immutable`).
	// Our own paths are absolute, so URI parsing changes nothing else.
	process.env.SQLITE_USE_URI ??= "1";
	const requireHere = createRequire(import.meta.url);
	let Database: typeof BetterSqlite3;
	let nativeBinding: string | undefined;
	try {
		const entry = requireHere.resolve("better-sqlite3");
		const addon = fileURLToPath(new URL(`../${ADDON_FILE}`, pathToFileURL(entry)));
		if (existsSync(addon)) nativeBinding = addon;
		Database = betterSqlite3Module(requireHere, entry, nativeBinding !== undefined);
	} catch (err) {
		throw loadFailure(err);
	}
	return (request: DriverOpenRequest): SqliteDb => {
		const name = request.immutable ? `${pathToFileURL(request.path).href}?immutable=1` : request.path;
		let raw: BetterSqlite3.Database;
		try {
			const options = { readonly: request.readonly, fileMustExist: request.fileMustExist };
			raw = new Database(name, nativeBinding === undefined ? options : { ...options, nativeBinding });
		} catch (err) {
			// The first connection loads the addon: a failure there is the install's, not the file's.
			throw isAddonFailure(err) ? loadFailure(err) : err;
		}
		try {
			for (const p of request.pragmas) raw.pragma(p);
		} catch (err) {
			raw.close();
			throw err;
		}
		return wrap(raw, request);
	};
}

function wrap(raw: BetterSqlite3.Database, request: DriverOpenRequest): SqliteDb {
	return {
		driver: "better-sqlite3",
		path: request.path,
		readonly: request.readonly,
		prepare<Params extends unknown[], Row>(sql: string) {
			return raw.prepare(sql) as unknown as SqliteStatement<Params, Row>;
		},
		exec(sql) {
			raw.exec(sql);
		},
		transaction<T>(fn: () => T): T {
			return raw.transaction(fn).immediate();
		},
		pragma(source) {
			return raw.pragma(source, { simple: true });
		},
		get isOpen() {
			return raw.open;
		},
		close() {
			if (raw.open) raw.close();
		},
	};
}

/** True for an error loading the native addon itself (missing, or built for another Node or platform). */
function isAddonFailure(err: unknown): boolean {
	const e = err as { code?: unknown; message?: unknown } | null;
	const message = typeof e?.message === "string" ? e.message : "";
	return e?.code === "ERR_DLOPEN_FAILED" || /NODE_MODULE_VERSION|bindings file|better_sqlite3\.node/.test(message);
}

/** What to run, in one line, for a better-sqlite3 that cannot load on this Node. */
function loadFailure(err: unknown): DriverLoadError {
	const message = err instanceof Error ? err.message : String(err);
	const node = `Node ${process.version} (NODE_MODULE_VERSION ${process.versions.modules})`;
	const builtFor = /using\s+NODE_MODULE_VERSION (\d+)/.exec(message)?.[1];
	const fix = builtFor
		? `better-sqlite3 was built for another Node (NODE_MODULE_VERSION ${builtFor}) than this ${node}: run "npm rebuild better-sqlite3"`
		: /Cannot find (package|module)|ERR_MODULE_NOT_FOUND/.test(message) ||
				(err as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND"
			? `better-sqlite3 is not installed, and this ${node} has no node:sqlite: run "npm install"`
			: `better-sqlite3 cannot load on this ${node}: run "npm rebuild better-sqlite3"`;
	return new DriverLoadError(`${fix} in ${PACKAGE_DIR} (or run Pi on Node >= 22.13, which needs no native module)`, {
		cause: err,
	});
}
