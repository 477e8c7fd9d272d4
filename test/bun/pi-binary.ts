/**
 * A compiled Pi binary (what Pi's GitHub releases ship: Pi bundled into one Bun executable) for end-to-end tests,
 * built once per Pi and Bun version into node_modules/.cache by test/bun/build-pi-binary.ts.
 */
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { HARNESS_CACHE_DIR, REPO_ROOT } from "../helpers/pi-cli.js";
import { BUN_BIN, runCommand } from "../helpers/runtime.js";

const BUILD_SCRIPT = join(REPO_ROOT, "test", "bun", "build-pi-binary.ts");

function version(packageJson: string): string {
	return (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;
}

/** Path of the compiled `pi` executable, building it first when this Pi/Bun pair has none yet. */
export async function piBinary(): Promise<string> {
	const pi = version(join(REPO_ROOT, "node_modules", "@mariozechner", "pi-coding-agent", "package.json"));
	const bun = version(join(REPO_ROOT, "node_modules", "bun", "package.json"));
	const dir = join(HARNESS_CACHE_DIR, `pi-binary-${pi}-bun-${bun}`);
	const binary = join(dir, "pi");
	if (existsSync(binary)) return binary;
	// Build beside, then rename: a half-written build is never mistaken for a finished one.
	const building = `${dir}.building-${process.pid}`;
	rmSync(building, { recursive: true, force: true });
	const built = await runCommand(BUN_BIN, [BUILD_SCRIPT, building], { timeoutMs: 180_000 });
	if (built.exitCode !== 0) throw new Error(`building the Pi binary failed: ${built.stderr || built.stdout}`);
	try {
		renameSync(building, dir);
	} catch (err) {
		rmSync(building, { recursive: true, force: true });
		if (!existsSync(binary)) throw err;
	}
	return binary;
}
