/**
 * The CLI opens the index only through the extension's entry point (workspace-index.ts: openWorkspaceIndex and its
 * IndexManager) and the read-only maintenance view beside it (index-admin.ts): no module of src/cli/ imports the
 * store or ingest layers, or names a lock.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./cli-harness.js";

const CLI_DIR = join(ROOT, "src", "cli");
const sources = readdirSync(CLI_DIR)
	.filter((f) => f.endsWith(".ts"))
	.map((f) => ({ file: f, text: readFileSync(join(CLI_DIR, f), "utf8") }));

describe("the CLI's way into the index", () => {
	it("no src/cli module imports src/store or src/ingest", () => {
		const offending = sources.flatMap(({ file, text }) =>
			[...text.matchAll(/from "(\.\.\/(?:store|ingest)\/[^"]+)"/g)].map((m) => `${file}: ${m[1]}`),
		);
		expect(offending).toEqual([]);
	});

	it("no src/cli module names a lock, a generation file or opens a store", () => {
		const internals =
			/\b(?:CATCH_UP_LOCK|REBUILD_LOCK|STORE_LOCK|lockHolderInfo|openStore|rebuildStore|IndexManager\.open|pointerFileName|computeCoverage)\b/;
		const offending = sources.filter(({ text }) => internals.test(text)).map(({ file }) => file);
		expect(offending).toEqual([]);
	});

	it("the index is opened through openWorkspaceIndex", () => {
		const openers = sources.filter(({ text }) => /openWorkspaceIndex\(/.test(text)).map(({ file }) => file);
		expect(openers).toEqual(["reindex.ts"]);
	});
});
