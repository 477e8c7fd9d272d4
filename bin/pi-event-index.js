#!/usr/bin/env node
// Launcher of the pi-event-index program: runs src/cli/main.ts (TypeScript) under Node through tsx's API, or
// directly under Bun, which imports .ts itself. main.ts sets the exit code and exits; nothing to forward here
// except a failure to load the program at all.
const entry = new URL("../src/cli/main.ts", import.meta.url);

try {
	if (globalThis.Bun) {
		await import(entry.href);
	} else {
		const { tsImport } = await import("tsx/esm/api");
		await tsImport(entry.href, import.meta.url);
	}
} catch (err) {
	process.stderr.write(`pi-event-index: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
	if (process.env.PI_EVENT_INDEX_DEBUG === "1" && err instanceof Error) process.stderr.write(`${err.stack}\n`);
	process.exit(1);
}
