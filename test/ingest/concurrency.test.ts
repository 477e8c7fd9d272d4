/**
 * Exactly once under concurrency and crashes, with real processes: writers append (some lines in two writes),
 * several indexer processes sync and catch up at once, and indexers are SIGKILLed at random moments.
 * After all of it the index equals the files: every complete line once, nothing else.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATCH_UP_LOCK } from "../../src/ingest/lock-names.js";
import { lockHolderInfo } from "../../src/store/lock-holder.js";
import { openStore } from "../../src/store/open-store.js";
import { ChildGroup, waitFor } from "../helpers/children.js";
import {
	backlogCorpus,
	completeLines,
	exactlyOnceDirs,
	finalCatchUp,
	indexVsFiles,
	seededRandom,
} from "../helpers/exactly-once.js";
import { CURRENT_RUNTIME, startScript } from "../helpers/runtime.js";

const CHILDREN = join(import.meta.dirname, "children");
const STALE_MS = 2000;

let root: string;
let sessions: string;
let indexDir: string;
let stopFile: string;
const children = new ChildGroup();

/** A child script on this process's runtime (Node: tsx loader; Bun runs .ts itself). */
const child = (script: string, args: string[]) =>
	children.watch(startScript(CURRENT_RUNTIME, join(CHILDREN, script), args), script);

/** Verify the index against the files (no line twice); `committedOnly` ignores bytes not yet indexed (a crash mid-way). */
async function differences(committedOnly = false) {
	const { differences, dupes } = await indexVsFiles(indexDir, sessions, STALE_MS, committedOnly);
	expect(dupes).toEqual([]);
	return differences;
}

beforeEach(async () => {
	({ root, sessions, indexDir, stopFile } = await exactlyOnceDirs());
});
afterEach(() => {
	children.killAll();
	rmSync(root, { recursive: true, force: true });
});

describe("exactly once", () => {
	it("with two writers, two syncing indexers and a catching-up indexer running at once", async () => {
		const writers = [
			child("writer.ts", [sessions, "wa", "3", "120", "1"]),
			child("writer.ts", [sessions, "wb", "3", "120", "2"]),
		];
		const indexers = [
			child("indexer.ts", [indexDir, sessions, "sync", stopFile, "4096"]),
			child("indexer.ts", [indexDir, sessions, "sync", stopFile, "65536"]),
			child("indexer.ts", [indexDir, sessions, "catch-up", stopFile, "8192", String(STALE_MS)]),
		];
		expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
		// Let the indexers see the final bytes, then stop them.
		const ticks = indexers.map((i) => i.out.length);
		// The bound only ends a run that hangs: on a busy machine (the Node 22 suite beside other process tests) the
		// indexers' next ticks took over 20 s.
		await waitFor(
			() => indexers.every((i, k) => i.out.filter((l) => l === "tick").length > 0 && i.out.length > ticks[k] + 1),
			60_000,
		);
		writeFileSync(stopFile, "");
		expect(await Promise.all(indexers.map((i) => i.exited))).toEqual([0, 0, 0]);
		await finalCatchUp(indexDir, sessions, STALE_MS);
		expect(await differences()).toEqual([]);
		const opened = await openStore({ dir: indexDir });
		if (!opened.ok) throw new Error(opened.error);
		const events = (opened.store.db.prepare("SELECT count(*) AS c FROM events").get() as { c: number }).c;
		opened.store.close();
		expect(events).toBe(completeLines(sessions));
		expect(events).toBe(6 * 120);
	}, 90_000);
});

describe("crash safety", () => {
	it("an indexer SIGKILLed at random moments leaves a consistent index, and its lock is taken over", async () => {
		// A corpus large enough that catch-up spans many small transactions; every iteration adds backlog, so each
		// killed indexer is busy (holding the lock, mid-transaction).
		const addBacklog = backlogCorpus(sessions, 12, "c", "crash corpus");
		const rand = seededRandom(7);
		let killedWhileLocked = 0;
		for (let iteration = 0; iteration < 6; iteration++) {
			addBacklog(iteration);
			const writer =
				iteration % 2 === 0 ? child("writer.ts", [sessions, `w${iteration}`, "1", "40", String(iteration)]) : undefined;
			const indexer = child("indexer.ts", [indexDir, sessions, "catch-up", stopFile, "8192", String(STALE_MS)]);
			// Kill after some progress at a random moment: inside transactions, between them, holding the lock.
			await waitFor(() => indexer.out.includes("progress") || indexer.exitCode !== null, 30_000);
			await new Promise((r) => setTimeout(r, Math.floor(rand() * 300)));
			if ((await lockHolderInfo(indexDir, CATCH_UP_LOCK)).locked) killedWhileLocked++;
			indexer.kill("SIGKILL");
			await indexer.exited;
			await writer?.exited;
			expect(await differences(true)).toEqual([]);
		}
		expect(killedWhileLocked).toBeGreaterThan(0);
		await finalCatchUp(indexDir, sessions, STALE_MS);
		expect(await differences()).toEqual([]);
	}, 120_000);
});
