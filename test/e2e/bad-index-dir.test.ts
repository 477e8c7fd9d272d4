/**
 * Regression: `PI_EVENT_INDEX_DIR=/proc/nope` froze `pi -p` at full CPU (Node 20's recursive mkdir loops on
 * procfs). An index dir that cannot be created now fails at once, in the real pi CLI: the run ends by itself, the
 * model's event_search gets a clear, path-free error, `/event-index status` says why, and Pi carries on.
 */
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTENSION, e2eDirs, expectOk, textOf, toolResults } from "../helpers/e2e.js";
import { REPO_ROOT, readJsonl, runPi } from "../helpers/pi-cli.js";

const SEARCH_ONLY = join(REPO_ROOT, "test", "fixtures", "e2e-scripts", "search-only.mjs");

let dirs: ReturnType<typeof e2eDirs>;

beforeAll(() => {
	dirs = e2eDirs("pei-bad-index-dir-");
	writeFileSync(join(dirs.tmp, "a-file"), "a file where the index directory should be");
});

afterAll(() => {
	rmSync(dirs.tmp, { recursive: true, force: true });
});

function piWithIndexDir(indexDir: string, args: string[], script?: string) {
	return runPi({
		agentDir: dirs.agentDir,
		cwd: dirs.cwd,
		args,
		script,
		extensions: [EXTENSION],
		env: { PI_EVENT_INDEX_DIR: indexDir, E2E_MARKER: "anything" },
		// A hang is the bug: the harness kills the run after this and the test fails on timedOut.
		timeoutMs: 45_000,
	});
}

const cases = [
	...(existsSync("/proc/self") ? [{ name: "a procfs path (/proc/nope)", dir: "/proc/nope/index" }] : []),
	{ name: "a file in the way", dir: "<tmp>/a-file/index" },
];

describe("an index dir that cannot be created", () => {
	for (const c of cases) {
		it(`${c.name}: the tool fails clearly, the run ends, pi carries on`, async () => {
			const indexDir = c.dir.replace("<tmp>", dirs.tmp);
			const run = await piWithIndexDir(indexDir, ["search please"], SEARCH_ONLY);
			expectOk(run);
			const [result] = toolResults(readJsonl(run.sessionFile as string));
			expect(result.isError).toBe(true);
			expect(textOf(result)).toMatch(
				/^event index unavailable: (the index directory cannot be created|a file is in the way of the index directory)/,
			);
			expect(textOf(result)).not.toContain(dirs.tmp);
			expect(textOf(result)).not.toContain("/proc");
			// Pi went on to the model's next turn, which echoes the tool's text.
			expect(run.stdout).toContain("RESULT event index unavailable");

			const status = await piWithIndexDir(indexDir, ["/event-index status"]);
			expectOk(status);
			expect(status.stderr).toMatch(
				/event index: not open \((the index directory cannot be created|a file is in the way)/,
			);
		}, 120_000);
	}
});
