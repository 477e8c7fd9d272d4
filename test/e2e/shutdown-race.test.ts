/**
 * Regression: Pi's print mode emits session_shutdown as soon as prompt() resolves, while its extension event queue
 * may still hold the run's last message_end, the event after which Pi appends the final entry to the session file.
 * The extension's shutdown sync ran first and the final line stayed unindexed until some later catch-up (the
 * two-runtime e2e test failed this way about one run in three on a loaded machine). A test extension delays that
 * message_end, so the window is open on every run: the index must still hold every line once Pi has exited.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyIndex } from "../../src/ingest/verify.js";
import { openStore } from "../../src/store/open-store.js";
import { type E2eDirs, EXTENSION, e2eDirs, expectOk } from "../helpers/e2e.js";
import { listSessionFiles, REPO_ROOT, runPi } from "../helpers/pi-cli.js";

const SLOW_FINAL_MESSAGE = join(REPO_ROOT, "test", "e2e", "scripts", "slow-final-message.mjs");
const SEARCH_ONLY = join(REPO_ROOT, "test", "fixtures", "e2e-scripts", "search-only.mjs");
let dirs: E2eDirs;

beforeAll(() => {
	dirs = e2eDirs("pei-shutdown-");
});
afterAll(() => {
	rmSync(dirs.tmp, { recursive: true, force: true });
});

/** Runs Pi with the extension and the delaying one; asserts the index then holds every line of its one session. */
async function expectIndexedAtExit(args: string[], script?: string): Promise<void> {
	const run = await runPi({
		agentDir: dirs.agentDir,
		cwd: dirs.cwd,
		args,
		script,
		extensions: [EXTENSION, SLOW_FINAL_MESSAGE],
		env: { E2E_MARKER: "periwinkle" },
		timeoutMs: 60_000,
	});
	expectOk(run);
	const opened = await openStore({ dir: dirs.indexDir, readonly: true });
	if (!opened.ok) throw new Error(opened.error);
	try {
		const report = verifyIndex(opened.store.db, [{ path: join(dirs.agentDir, "sessions"), subfolders: true }]);
		expect(report.sources).toBe(listSessionFiles(dirs.agentDir).length);
		expect(report.differences).toEqual([]);
	} finally {
		opened.store.close();
	}
}

it("regression: a run's final line, written after session_shutdown began, is indexed before Pi exits", async () => {
	await expectIndexedAtExit(["the periwinkle ledger reconciliation"], SEARCH_ONLY);
});

it("a run without tool calls, whose session file only appears after session_shutdown began, is indexed too", async () => {
	await expectIndexedAtExit(["a quick question about the ledger"]);
});
