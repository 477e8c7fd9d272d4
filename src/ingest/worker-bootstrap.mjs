// Worker entry in plain JavaScript, for every thread of the index: the catch-up worker (catch-up-worker.ts), and a
// bulk pass's prefetch thread (prefetch-worker.ts) and full-text thread (fts-worker.ts), named by `workerData.entry`.
// In the built package (dist/) the compiled module sits beside this file and is imported directly; in a source
// checkout (tests) Bun imports the TypeScript itself and Node goes through tsx, which is then a dev dependency.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { workerData } from "node:worker_threads";

const ENTRIES = ["prefetch-worker", "fts-worker"];
const entry = ENTRIES.includes(workerData?.entry) ? workerData.entry : "catch-up-worker";
const compiled = new URL(`./${entry}.js`, import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
	await import(compiled.href);
} else {
	const source = new URL(`./${entry}.ts`, import.meta.url).href;
	if (typeof globalThis.Bun !== "undefined") {
		await import(source);
	} else {
		const { tsImport } = await import("tsx/esm/api");
		await tsImport(source, import.meta.url);
	}
}
