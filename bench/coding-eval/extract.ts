/**
 * Copies the raw exports named in sources.json out of local git copies of their repositories:
 * `npx tsx bench/coding-eval/extract.ts --mirrors <dir> [--raw <dir>]`, where `<dir>/<owner>+<name>/repo` is a git
 * directory of each repository (any clone works: `git clone --bare`, then point --mirrors at the parent). Reads each
 * file at its recorded commit with `git show`; writes nothing into this repository.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CACHE_DIR, loadManifest, rawPathOf } from "./sources.js";

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const mirrors = option("--mirrors");
const rawDir = option("--raw") ?? join(CACHE_DIR, "raw");
if (!mirrors) {
	console.error("usage: extract.ts --mirrors <dir holding owner+name/repo git dirs> [--raw <dir>]");
	process.exit(2);
}
let written = 0;
const missing: string[] = [];
for (const project of loadManifest().projects) {
	const gitDir = join(mirrors, project.repo.replace("/", "+"), "repo");
	for (const file of project.files) {
		try {
			const text = execFileSync("git", ["-C", gitDir, "show", `${file.commit}:${file.path}`], {
				maxBuffer: 1 << 28,
				stdio: ["ignore", "pipe", "pipe"],
			});
			const out = rawPathOf(rawDir, project, file);
			mkdirSync(dirname(out), { recursive: true });
			writeFileSync(out, text);
			written++;
		} catch {
			missing.push(`${project.repo} ${file.commit.slice(0, 10)} ${file.path}`);
		}
	}
}
console.log(`wrote ${written} exports under ${rawDir}`);
if (missing.length > 0) {
	console.error(`could not read ${missing.length}:\n  ${missing.join("\n  ")}`);
	process.exitCode = 1;
}
