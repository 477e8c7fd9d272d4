/**
 * `reindex` runs its pass in the index worker, as Pi does, so the worker's heap limits (index-manager.ts) bound a
 * bulk pass's memory; on the main thread V8 sized the heap for throughput and a cold build of 1 GB peaked about
 * 30 MiB higher (docs/benchmarks.md, "Where the time goes"). A query's catch-up stays on the main thread. Real child
 * processes of the built program, each thread recording its job and heap limit (scripts/log-threads.mjs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_RUNTIME, runCommand } from "../helpers/runtime.js";
import { BIN, hermeticEnv, makeAgentDir, ROOT } from "./cli-harness.js";

const LOG_THREADS = join(ROOT, "test", "cli", "scripts", "log-threads.mjs");

let base: string;
let env: Record<string, string>;
let g: string[];

/** The threads one run of the program started: each one's job and heap limit. */
async function threadsOf(args: string[]) {
	const log = join(base, `threads-${Math.random().toString(36).slice(2)}.txt`);
	const r = await runCommand(process.execPath, ["--import", LOG_THREADS, BIN, ...args, ...g], {
		env: { ...env, THREAD_LOG: log },
	});
	expect(r.exitCode, r.stderr).toBe(0);
	const lines = readFileSync(log, "utf8").trim().split("\n");
	return lines.map((l) => JSON.parse(l) as { job: string; heapLimitMiB: number; youngMb?: number });
}

beforeAll(() => {
	base = mkdtempSync(join(tmpdir(), "pei-reindex-worker-"));
	const agentDir = join(base, "agent");
	makeAgentDir(agentDir);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--workspace", "/home/dev"];
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

// Node's `--import` in every thread; Bun runs the same code without it.
describe.skipIf(CURRENT_RUNTIME !== "node")("where a catch-up runs", () => {
	it("reindex runs its pass in the index worker, under that worker's heap limit", async () => {
		const threads = await threadsOf(["reindex"]);
		const main = threads.find((t) => t.job === "main");
		const pass = threads.filter((t) => t.job === "catch-up");
		expect(pass).toHaveLength(1);
		// WORKER_YOUNG_GENERATION_MB + WORKER_OLD_GENERATION_MB and V8's own share; the main thread's is gigabytes.
		expect(pass[0]?.heapLimitMiB).toBeLessThanOrEqual(160);
		expect(main?.heapLimitMiB).toBeGreaterThan(160);
		// A two-thread pass's worker: the young generation that keeps its time (WORKER_YOUNG_GENERATION_MB).
		expect(pass[0]?.youngMb).toBe(16);
	});

	it("a search's catch-up stays on the main thread (no worker to start)", async () => {
		const threads = await threadsOf(["search", "kaboom", "--json"]);
		expect(threads.map((t) => t.job)).toEqual(["main"]);
	});
});
