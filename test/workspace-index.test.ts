import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openWorkspaceIndex } from "../src/workspace-index.js";
import { tempDir } from "./helpers/temp-store.js";

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("openWorkspaceIndex", () => {
	it("extra discovery roots are scanned but never widen authorization (regression)", async () => {
		root = await tempDir();
		const agentDir = join(root, "agent");
		const archive = join(root, "archive");
		mkdirSync(archive, { recursive: true });
		mkdirSync(agentDir, { recursive: true });
		writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ authorization: { extraRoots: ["/allowed"] } }));
		const w = await openWorkspaceIndex({ cwd: root, agentDir, env: {}, extraRoots: [archive], useWorker: false });
		try {
			expect(w.roots.map((r) => r.path)).toContain(archive);
			expect(w.caller().authorization).toEqual({ extraRoots: ["/allowed"], allRoots: false });
			expect(w.config.indexDir).toBe(join(agentDir, "event-index"));
		} finally {
			await w.manager.close();
		}
	});
});
