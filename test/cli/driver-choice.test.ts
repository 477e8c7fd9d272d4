/**
 * Which SQLite driver a real process gets, and what it says when the native one cannot load: Node 22 (Pi 1.x's Node)
 * uses the built-in node:sqlite and needs no native addon, Node 20 uses better-sqlite3; a better-sqlite3 built for
 * another Node (here: this checkout's Node 20 build, loaded by Node 22) fails in ONE line that names the running
 * Node and what to run where, from the CLI and through the model's tool path alike.
 */

import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectOutput } from "../helpers/children.js";
import { EXTENSION, expectOk } from "../helpers/e2e.js";
import { HAS_NODE22_PACKAGE, NODE22, PI_1X_HOST, runPi } from "../helpers/pi-cli.js";
import { BIN, hermeticEnv, ROOT } from "./cli-harness.js";

let home: string;
let agentDir: string;

beforeAll(() => {
	home = mkdtempSync(join(tmpdir(), "pei-driver-choice-"));
	agentDir = join(home, "agent");
	const sessions = join(agentDir, "sessions", "--home-dev-project--");
	mkdirSync(sessions, { recursive: true });
	copyFileSync(
		join(ROOT, "fixtures", "pi-0.73.1", "cli-print-tool-call.jsonl"),
		join(sessions, "cli-print-tool-call.jsonl"),
	);
});

afterAll(() => {
	rmSync(home, { recursive: true, force: true });
});

/** Runs the CLI on `node` with `args` (and extra environment). */
async function run(node: string, args: string[], extra: Record<string, string> = {}) {
	const child = spawn(node, [BIN, ...args], {
		cwd: ROOT,
		env: hermeticEnv(home, { PI_CODING_AGENT_DIR: agentDir, ...extra }),
		stdio: ["ignore", "pipe", "pipe"],
	});
	return collectOutput(child, { timeoutMs: 120_000 });
}

describe.runIf(HAS_NODE22_PACKAGE)("the SQLite driver of a real process", () => {
	it("Node 22 indexes and answers on node:sqlite; Node 20 reads the same index on better-sqlite3", async () => {
		const built = await run(NODE22, ["reindex", "--json"]);
		expect(built.exitCode, built.stderr).toBe(0);
		const status = await run(NODE22, ["status", "--json"]);
		expect(JSON.parse(status.stdout)).toMatchObject({ driver: "node:sqlite" });
		const onNode20 = await run(process.execPath, ["status", "--json"]);
		expect(JSON.parse(onNode20.stdout)).toMatchObject({ driver: "better-sqlite3" });
		const search = await run(process.execPath, ["search", "--json", "--all", "tool"]);
		expect(search.exitCode, search.stderr).toBe(0);
		expect((JSON.parse(search.stdout) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
	});

	it("a better-sqlite3 built for another Node fails in one line: the running Node, what to run, where", async () => {
		const failed = await run(NODE22, ["reindex"], { PEI_SQLITE_DRIVER: "better-sqlite3" });
		expect(failed.exitCode).toBe(1);
		const lines = failed.stderr.trimEnd().split("\n");
		expect(lines, failed.stderr).toHaveLength(1);
		expect(lines[0]).toMatch(
			/better-sqlite3 was built for another Node \(NODE_MODULE_VERSION \d+\) than this Node v22\./,
		);
		expect(lines[0]).toContain(`run "npm rebuild better-sqlite3" in ${ROOT.replace(/\/$/, "")}`);
		expect(lines[0]).not.toMatch(/internal error|\bat .+:\d+:\d+/);
	});

	it("through Pi 1.x, the model gets that line whole (paths shortened), never a cut-off loader message", async () => {
		const cwd = join(home, "project");
		const result = await runPi({
			host: PI_1X_HOST,
			agentDir,
			cwd,
			args: ["search please"],
			script: join(ROOT, "test", "fixtures", "e2e-scripts", "search-only.mjs"),
			extensions: [EXTENSION],
			env: { PEI_SQLITE_DRIVER: "better-sqlite3", E2E_MARKER: "anything" },
			timeoutMs: 90_000,
		});
		expectOk(result);
		const answer = result.stdout.trim();
		expect(answer).toMatch(
			/^RESULT event index unavailable: better-sqlite3 was built for another Node \(NODE_MODULE_VERSION \d+\) than this Node v22\.[\d.]+ \(NODE_MODULE_VERSION \d+\): run "npm rebuild better-sqlite3" in …\/\S+ \(or run Pi on Node >= 22\.13, which needs no native module\)$/,
		);
	});
});
