// Builds dist/ only when a source file is newer than the last build (npm start, the test setup): a full `tsc`
// takes ~15 s, an up-to-date check a few milliseconds.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleCli } from "./bundle-cli.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "dist", ".built");

/** Newest modification time of the files under `dir` (plus the build's own configuration). */
function newestSource(dir) {
	let newest = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
	}
	for (const file of ["tsconfig.json", "tsconfig.build.json", "package.json", "scripts/bundle-cli.mjs"]) {
		newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
	}
	return newest;
}

if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestSource(join(root, "src"))) {
	execFileSync(
		process.execPath,
		[join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
		{
			cwd: root,
			stdio: "inherit",
		},
	);
	await bundleCli(root);
	writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
