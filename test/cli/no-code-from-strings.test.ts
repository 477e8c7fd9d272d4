/**
 * Regression: the query's row maker compiles each row shape once from its column aliases (query/db.ts); a Node run
 * with --disallow-code-generation-from-strings (through NODE_OPTIONS, as a locked-down host may set it) must still
 * answer, the same hits, through the plain maker.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_RUNTIME } from "../helpers/runtime.js";
import { cli, hermeticEnv, makeAgentDir } from "./cli-harness.js";

let home: string;
let agentDir: string;

beforeAll(() => {
	home = mkdtempSync(join(tmpdir(), "pei-no-eval-"));
	agentDir = join(home, "agent");
	makeAgentDir(agentDir);
});

afterAll(() => {
	rmSync(home, { recursive: true, force: true });
});

describe.runIf(CURRENT_RUNTIME === "node")("a Node that forbids code generation from strings", () => {
	it("answers a search with the same hits as a Node that allows it", async () => {
		const env = hermeticEnv(home, { PI_CODING_AGENT_DIR: agentDir });
		const built = await cli(["reindex", "--json"], { env });
		expect(built.code, built.stderr).toBe(0);
		const args = ["search", "--json", "--all", "--no-sync", "kaboom"];
		const allowed = await cli(args, { env });
		const forbidden = await cli(args, {
			env: { ...env, NODE_OPTIONS: "--disallow-code-generation-from-strings" },
		});
		expect(forbidden.code, forbidden.stderr).toBe(0);
		const hits = (run: { stdout: string }) => (JSON.parse(run.stdout) as { hits: unknown[] }).hits;
		expect(hits(allowed).length).toBeGreaterThan(0);
		expect(hits(forbidden)).toEqual(hits(allowed));
	});
});
