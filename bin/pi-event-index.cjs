#!/usr/bin/env node
// Launcher of the pi-event-index program, in CommonJS: an ES module entry costs a process Node's module loader
// (several milliseconds of a search that takes tens). The build (`npm run build`, which `prepare` runs) makes the
// whole program one script, dist/cli/program.cjs (scripts/bundle-cli.mjs), which dist/cli/launch.cjs runs with a code
// cache kept between runs; without it (esbuild was not installed) the compiled modules of dist/cli/main.js run as they
// are. main.ts sets the exit code and exits; nothing to forward here except a failure to load the program at all.
"use strict";
const { existsSync } = require("node:fs");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

const dist = join(__dirname, "..", "dist", "cli");
const program = join(dist, "program.cjs");
const modules = join(dist, "main.js");

function cannotStart(err) {
	process.stderr.write(`pi-event-index: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
	if (process.env.PI_EVENT_INDEX_DEBUG === "1" && err instanceof Error) process.stderr.write(`${err.stack}\n`);
	process.exit(1);
}

try {
	if (existsSync(program)) require(join(dist, "launch.cjs")).runProgram(program, process.argv.slice(2), process.env);
	else if (existsSync(modules)) import(pathToFileURL(modules).href).catch(cannotStart);
	else {
		process.stderr.write("pi-event-index: not built yet: run `npm run build` in the package folder\n");
		process.exit(1);
	}
} catch (err) {
	cannotStart(err);
}
