/**
 * A named pipe (a real FIFO, mkfifo) in place of an indexed session file: the real program in a child process, so a
 * blocking open shows up as a timeout here instead of hanging the test runner.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectOutput } from "../helpers/children.js";
import { cli, hermeticEnv, json, makeAgentDir, startCli } from "./cli-harness.js";

let base: string;
let files: string[];
let env: Record<string, string>;
let g: string[];

/** Runs the program; a run still going after 60 s (a hang) is killed and reported as such. */
async function bounded(...args: string[]) {
	const r = await collectOutput(startCli([...args, ...g], { env }), { timeoutMs: 60_000 });
	return { ...r, code: r.exitCode };
}

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-fifo-"));
	const agentDir = join(base, "agent");
	files = makeAgentDir(agentDir);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--index-dir", join(base, "index"), "--workspace", "/home/dev"];
	const r = await cli(["reindex", ...g], { env });
	expect(r.code, r.stderr).toBe(0);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("a FIFO in place of a session file", () => {
	it("regression: reindex and search do not block on it; it counts as gone", async () => {
		const victim = files.find((f) => f.endsWith("errs.jsonl")) as string;
		rmSync(victim);
		execFileSync("mkfifo", [victim]);

		const re = await bounded("reindex", "--json");
		expect(re.timedOut, "reindex hung on the FIFO").toBe(false);
		expect(re.code, re.stderr).toBe(0);
		expect(
			json<{ result: { removed: number } }>({ code: re.code, stdout: re.stdout, stderr: re.stderr }).result.removed,
		).toBe(1);

		const search = await bounded("search", "kaboom", "--json", "--workspace", "/home/dev/errs");
		expect(search.timedOut, "search hung on the FIFO").toBe(false);
		expect(search.code, search.stderr).toBe(0);
		expect(json<{ hits: unknown[] }>({ code: search.code, stdout: search.stdout, stderr: search.stderr }).hits).toEqual(
			[],
		);
	});
});
