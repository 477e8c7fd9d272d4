/**
 * Node and Bun processes on ONE index at once (a Node Pi and a Bun Pi on the same agent dir): writers append while
 * syncing and catching-up indexers of both runtimes run, and a Bun indexer SIGKILLed while it holds the catch-up
 * lock is taken over by a Node one (and the other way round). Afterwards the index equals the files, every complete
 * line exactly once, in the one generation both started with. Reuses the real child scripts of
 * test/ingest/concurrency.test.ts, started through test/helpers/runtime.ts.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATCH_UP_LOCK } from "../../src/ingest/lock-names.js";
import { lockHolderInfo } from "../../src/store/lock-holder.js";
import { ChildGroup, waitFor } from "../helpers/children.js";
import { backlogCorpus, completeLines, exactlyOnceDirs, indexVsFiles } from "../helpers/exactly-once.js";
import { REPO_ROOT } from "../helpers/pi-cli.js";
import { CURRENT_RUNTIME, type Runtime, startScript } from "../helpers/runtime.js";

const CHILDREN = join(REPO_ROOT, "test", "ingest", "children");
const STALE_MS = 2000;

let root: string;
let sessions: string;
let indexDir: string;
let stopFile: string;
const children = new ChildGroup();

const child = (runtime: Runtime, script: string, args: string[]) =>
	children.watch(startScript(runtime, join(CHILDREN, script), args), `${runtime} ${script}`);

const indexer = (runtime: Runtime, mode: "sync" | "catch-up", batch: number) =>
	child(runtime, "indexer.ts", [indexDir, sessions, mode, stopFile, String(batch), String(STALE_MS)]);

/** Index vs files: `committedOnly` ignores bytes not indexed yet (a killed indexer). */
const check = (committedOnly = false) => indexVsFiles(indexDir, sessions, STALE_MS, committedOnly);

beforeEach(async () => {
	({ root, sessions, indexDir, stopFile } = await exactlyOnceDirs("pei-mixed-"));
});
afterEach(() => {
	children.killAll();
	rmSync(root, { recursive: true, force: true });
});

describe.skipIf(CURRENT_RUNTIME !== "node")("Node and Bun processes on one index", () => {
	it("writers and syncing / catching-up indexers of both runtimes at once: every line exactly once", async () => {
		// Create the store first, so the generation seen at the end must be the one everybody started on.
		const first = await check();
		const writers = [
			child("node", "writer.ts", [sessions, "wn", "3", "100", "1"]),
			child("bun", "writer.ts", [sessions, "wb", "3", "100", "2"]),
		];
		const indexers = [
			indexer("node", "sync", 4096),
			indexer("bun", "sync", 65536),
			indexer("node", "catch-up", 8192),
			indexer("bun", "catch-up", 16384),
		];
		expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
		// Let every indexer see the final bytes (two more passes each), then stop them.
		const passes = indexers.map((i) => i.out.filter((l) => l === "tick").length);
		await waitFor(() => indexers.every((i, k) => i.out.filter((l) => l === "tick").length >= passes[k] + 2), 30_000);
		writeFileSync(stopFile, "");
		const codes = await Promise.all(indexers.map((i) => i.exited));
		expect(codes, indexers.map((i) => i.err()).join("\n")).toEqual([0, 0, 0, 0]);
		for (const i of indexers) expect(i.err()).toBe("");
		const after = await check();
		expect(after.differences).toEqual([]);
		expect(after.dupes).toEqual([]);
		expect(after.events).toBe(completeLines(sessions));
		expect(after.events).toBe(6 * 100);
		expect(after.generation).toBe(first.generation);
	}, 90_000);

	it("an indexer SIGKILLed holding the catch-up lock is taken over by the other runtime", async () => {
		const addBacklog = backlogCorpus(sessions, 8, "m", "mixed");
		let killedWhileLocked = 0;
		const order: Runtime[] = ["bun", "node", "bun", "node"];
		for (const [pass, runtime] of order.entries()) {
			addBacklog(pass);
			const victim = indexer(runtime, "catch-up", 8192);
			await waitFor(() => victim.out.includes("progress") || victim.exitCode !== null, 30_000);
			if ((await lockHolderInfo(indexDir, CATCH_UP_LOCK)).locked) killedWhileLocked++;
			victim.kill("SIGKILL");
			await victim.exited;
			expect((await check(true)).differences).toEqual([]);
		}
		expect(killedWhileLocked).toBeGreaterThan(1);
		// A Bun indexer takes the last (Node) holder's stale lock over and completes a whole pass.
		const rescuer = indexer("bun", "catch-up", 65536);
		const passedAfterProgress = () => {
			const p = rescuer.out.indexOf("progress");
			return p >= 0 && rescuer.out.indexOf("tick", p) > p;
		};
		await waitFor(passedAfterProgress, 8 * STALE_MS);
		writeFileSync(stopFile, "");
		expect(await rescuer.exited, rescuer.err()).toBe(0);
		const after = await check();
		expect(after.differences).toEqual([]);
		expect(after.dupes).toEqual([]);
		expect(after.events).toBe(completeLines(sessions));
		expect(after.events).toBe(8 * 150 * order.length);
	}, 120_000);
});
