/**
 * better-sqlite3's JavaScript, required by its resolved path. One module of its own so that the CLI's one-script
 * build can put in its place one that carries the package (scripts/carried-better-sqlite3.cjs, swapped in by
 * scripts/bundle-cli.mjs): a `search` then loads none of its ten files one by one. The addon is still named by path.
 */
import type { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

/** The package's `Database` class, from `entry` (better-sqlite3's resolved main file) through `requireFrom`. */
export function betterSqlite3Module(
	requireFrom: ReturnType<typeof createRequire>,
	entry: string,
): typeof BetterSqlite3 {
	return requireFrom(entry) as typeof BetterSqlite3;
}
