/**
 * A named pipe (a real FIFO, mkfifo) in place of an indexed session file: the real program, and the extension's
 * runtime as a Pi process holds it, each in a child process, so a blocking open shows up as a timeout here
 * instead of hanging the test runner.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChildGroup, collectOutput } from "../helpers/children.js";
import { ask, startLiveRuntime } from "../ingest/live-runtime.js";
import { cli, hermeticEnv, json, makeAgentDir, startCli } from "./cli-harness.js";

const children = new ChildGroup();
let base: string;
let agentDir: string;
let indexDir: string;
let files: string[];
let env: Record<string, string>;
let g: string[];

/** Runs the program; a run still going after 60 s (a hang) is killed and reported as such. */
async function bounded(...args: string[]) {
	const r = await collectOutput(startCli([...args, ...g], { env }), { timeoutMs: 60_000 });
	return { ...r, code: r.exitCode };
}

/** Replaces the indexed errs.jsonl session with a FIFO of the same name. */
function fifoInPlace(): void {
	const victim = files.find((f) => f.endsWith("errs.jsonl")) as string;
	rmSync(victim);
	execFileSync("mkfifo", [victim]);
}

beforeEach(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-fifo-"));
	agentDir = join(base, "agent");
	indexDir = join(base, "index");
	files = makeAgentDir(agentDir);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--index-dir", indexDir, "--workspace", "/home/dev"];
	const r = await cli(["reindex", ...g], { env });
	expect(r.code, r.stderr).toBe(0);
});
afterEach(() => {
	children.killAll();
	rmSync(base, { recursive: true, force: true });
});
afterAll(() => children.killAll());

describe("a FIFO in place of a session file", () => {
	it("regression: reindex and search do not block on it; it counts as gone", async () => {
		fifoInPlace();
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

	it("regression: in Pi's runtime the tool answers (no endless 'catch-up running') and closing returns", async () => {
		// The FIFO replaces a file whose rows are indexed: the runtime's catch-up visits its stored path.
		fifoInPlace();
		const live = await startLiveRuntime(
			children,
			"/home/dev/errs",
			{ PI_CODING_AGENT_DIR: agentDir, PI_EVENT_INDEX_DIR: indexDir, HOME: join(base, "home") },
			"catch-up",
		);
		// Each call answers at once; the first may still show the old rows, until catch-up has removed them.
		const deadline = Date.now() + 30_000;
		let answer = await ask(live, "search kaboom", 30_000);
		while (answer.hits !== 0 && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 100));
			answer = await ask(live, "search kaboom", 30_000);
		}
		expect(answer.hits, "catch-up never got past the FIFO").toBe(0);
		expect(String(answer.note)).toMatch(/^complete/);
		expect(await ask(live, "close", 30_000)).toEqual({ closed: true });
		expect(await live.exited).toBe(0);
	});
});
