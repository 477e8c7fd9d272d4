/** The demo (`npm start`) in a real child process: indexes the bundled fixtures, shows a hit, a read and a trace. */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { finished, hermeticEnv, ROOT } from "./cli-harness.js";

const base = mkdtempSync(join(tmpdir(), "pei-demo-"));

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

it("npm start's demo indexes the fixtures, prints a search hit, a read and a trace, and cleans up", async () => {
	// A PI_* variable in the user's environment must not leak into the demo's temporary index.
	const env = hermeticEnv(join(base, "home"), { PI_EVENT_INDEX_DIR: join(base, "must-not-exist") });
	const started = Date.now();
	const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src", "cli", "demo.ts")], {
		cwd: ROOT,
		env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	const r = await finished(child);
	expect(r.code, r.stderr).toBe(0);
	expect(r.stderr).toBe("");
	expect(Date.now() - started).toBeLessThan(30_000);
	expect(r.stdout).toMatch(/caught up the index: 13 files synced \(13 indexed, 0 removed, 0 failed\)/);
	expect(r.stdout).toContain("$ pi-event-index search 'compaction summary'");
	expect(r.stdout).toMatch(/^1\. 01a236bd-d\S+ 6d35745e {2}compaction/m);
	expect(r.stdout).toContain("$ pi-event-index read 01a236bd-");
	expect(r.stdout).toContain("[6d35745e#0] compaction_summary");
	expect(r.stdout).toContain("trace of 6d35745e in session 01a236bd-");
	expect(r.stdout).toMatch(/compaction-kept\s+be0b1611/);
	expect(existsSync(join(base, "must-not-exist"))).toBe(false);
	// The temporary agent dir and index are gone.
	const agentDir = /agent dir {2}(\S+)\/agent /.exec(r.stdout)?.[1];
	expect(agentDir).toMatch(/pi-event-index-demo-/);
	expect(existsSync(agentDir as string)).toBe(false);
});
