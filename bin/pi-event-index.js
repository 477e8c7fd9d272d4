#!/usr/bin/env node
// Launcher of the pi-event-index program: runs the compiled dist/cli/main.js (built by `npm run build`, which
// `prepare` runs on install), bundled into dist/cli/bundle/ when the build could (scripts/bundle-cli.mjs: a few files
// load faster than a hundred). main.ts sets the exit code and exits; nothing to forward here except a failure to
// load the program at all.
import { existsSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

// Node >= 22.1 keeps the program's compiled code between runs (in the OS temp dir; NODE_DISABLE_COMPILE_CACHE=1 turns
// it off): a run does not compile again what the last one did. Older Nodes and Bun have no such cache.
module.enableCompileCache?.();

const bundled = new URL("../dist/cli/bundle/main.js", import.meta.url);
const entry = existsSync(fileURLToPath(bundled)) ? bundled : new URL("../dist/cli/main.js", import.meta.url);

if (!existsSync(fileURLToPath(entry))) {
	process.stderr.write("pi-event-index: not built yet: run `npm run build` in the package folder\n");
	process.exit(1);
}
try {
	await import(entry.href);
} catch (err) {
	process.stderr.write(`pi-event-index: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
	if (process.env.PI_EVENT_INDEX_DEBUG === "1" && err instanceof Error) process.stderr.write(`${err.stack}\n`);
	process.exit(1);
}
