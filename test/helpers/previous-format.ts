/**
 * The package as it was at the last commit of the previous index format, built from git into a cache folder once
 * per commit (node_modules/.cache/pei-previous-format/<commit>/): an older install of pi-event-index, still running
 * beside this one on the same agent dir, as a user's machines have it during an upgrade.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./pi-cli.js";

/** The last commit with index format 9 (the next one, b74ffd0, brought format 10: the full-text file). */
const PREVIOUS_FORMAT_COMMIT = "74f189a445179e9b09e62c75a74785c2b757e13c";
/** Its index format. */
export const PREVIOUS_FORMAT = 9;
/** Its catch-up lock: one name for every format then. */
export const PREVIOUS_CATCH_UP_LOCK = "catch-up";

const CACHE = join(REPO_ROOT, "node_modules", ".cache", "pei-previous-format");

/**
 * The root of the built package (its `bin/pi-event-index.js` runs), building it when the cache lacks it: `git archive`
 * of the commit, this checkout's node_modules linked in, then its own `tsc -p tsconfig.build.json`.
 */
export function previousFormatPackage(): string {
	const root = join(CACHE, PREVIOUS_FORMAT_COMMIT);
	if (existsSync(join(root, "dist", ".built"))) return root;
	const building = `${root}.${process.pid}`;
	rmSync(building, { recursive: true, force: true });
	mkdirSync(building, { recursive: true });
	const files = ["bin", "src", "migrations", "package.json", "tsconfig.json", "tsconfig.build.json"];
	const tar = join(building, "package.tar");
	execFileSync("git", ["-C", REPO_ROOT, "archive", "-o", tar, PREVIOUS_FORMAT_COMMIT, ...files]);
	execFileSync("tar", ["-xf", tar, "-C", building]);
	rmSync(tar);
	symlinkSync(join(REPO_ROOT, "node_modules"), join(building, "node_modules"), "dir");
	const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
	execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: building, stdio: "pipe" });
	writeFileSync(join(building, "dist", ".built"), `${PREVIOUS_FORMAT_COMMIT}\n`);
	// Another test process may have finished the same build first: then its copy is used.
	if (existsSync(root)) rmSync(building, { recursive: true, force: true });
	else renameSync(building, root);
	return root;
}
