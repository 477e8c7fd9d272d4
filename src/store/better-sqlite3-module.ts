/**
 * better-sqlite3's JavaScript. The build makes it one file beside this module (dist/store/better-sqlite3.cjs,
 * scripts/bundle-cli.mjs): required by path, it is one file to load instead of the package's fourteen, about 8 ms of
 * every Node 20 process that opens the index. Without it (a checkout's sources, a build without esbuild) the package is
 * required by its resolved path. The CLI's one-script build carries the package and puts
 * scripts/carried-better-sqlite3.cjs in this module's place.
 */
import { existsSync } from "node:fs";
import type { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type BetterSqlite3 from "better-sqlite3";

/** The build's one-file copy of the package's JavaScript. */
const ONE_FILE = fileURLToPath(new URL("./better-sqlite3.cjs", import.meta.url));

/**
 * The package's `Database` class through `requireFrom`: the one-file copy when the build made it and the addon is
 * where its install puts it (`addonByPath`: the copy cannot search other folders for it), else from `entry`
 * (better-sqlite3's resolved main file).
 */
export function betterSqlite3Module(
	requireFrom: ReturnType<typeof createRequire>,
	entry: string,
	addonByPath: boolean,
): typeof BetterSqlite3 {
	return requireFrom(addonByPath && existsSync(ONE_FILE) ? ONE_FILE : entry) as typeof BetterSqlite3;
}
