/**
 * Builds dist/ before the tests when a source is newer than the last build: the e2e, install and CLI tests run
 * the compiled package as users get it, never a stale one. Installs the Node 22 that runs Pi 1.x.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
	const root = fileURLToPath(new URL("..", import.meta.url));
	execFileSync(process.execPath, [join(root, "scripts", "ensure-built.mjs")], { cwd: root, stdio: "inherit" });
	// The Node 22 that the Pi 1.x end-to-end tests run Pi on (installed once, from the npm registry).
	execFileSync(process.execPath, [join(root, "scripts", "ensure-node22.mjs")], {
		cwd: root,
		stdio: ["ignore", "ignore", "inherit"],
	});
}
