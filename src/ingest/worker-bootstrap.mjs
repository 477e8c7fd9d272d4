// Worker entry in plain JavaScript. In the built package (dist/) the compiled worker sits beside this file and is
// imported directly; in a source checkout (tests) Bun imports the TypeScript itself and Node goes through tsx,
// which is then a dev dependency.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const compiled = new URL("./catch-up-worker.js", import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
	await import(compiled.href);
} else {
	const source = new URL("./catch-up-worker.ts", import.meta.url).href;
	if (typeof globalThis.Bun !== "undefined") {
		await import(source);
	} else {
		const { tsImport } = await import("tsx/esm/api");
		await tsImport(source, import.meta.url);
	}
}
