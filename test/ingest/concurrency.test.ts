/**
 * Exactly once under concurrency and crashes, with real processes: writers append (some lines in two writes),
 * several indexer processes sync and catch up at once, and indexers are SIGKILLed at random moments.
 * After all of it the index equals the files: every complete line once, nothing else.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCatchUpJob } from "../../src/ingest/catch-up-job.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { lockHolderInfo } from "../../src/store/lock.js";
import { openStore } from "../../src/store/open-store.js";
import { ChildGroup, waitFor } from "../helpers/children.js";
import { CURRENT_RUNTIME, startScript } from "../helpers/runtime.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../helpers/temp-store.js";

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

/** Verify the index against the files; `committedOnly` ignores bytes not yet indexed (a crash mid-way). */
async function differences(committedOnly = false) {
	const opened = await openStore({ dir: indexDir, lockStaleMs: STALE_MS });
	if (!opened.ok) throw new Error(opened.error);
	try {
		const report = verifyIndex(opened.store.db, [{ path: sessions, subfolders: false }]);
		const dupes = opened.store.db
			.prepare("SELECT source_id, entry_id, count(*) AS n FROM events GROUP BY source_id, entry_id HAVING n > 1")
			.all();
		expect(dupes).toEqual([]);
		return committedOnly
			? report.differences.filter((d) => d.kind !== "behind" && d.kind !== "not-indexed")
			: report.differences;
	} finally {
		opened.store.close();
	}
}

function completeLines(): number {
	let n = 0;
	for (const f of readdirSync(sessions)) {
		const text = readFileSync(join(sessions, f), "utf8");
		n += text.split("\n").length - 2; // minus the header and the (empty or partial) tail
	}
	return n;
}

async function finalCatchUp() {
	// A killed holder leaves its lock behind; it goes stale and is taken over.
	const end = Date.now() + 6 * STALE_MS;
	for (;;) {
		const outcome = await runCatchUpJob({
			indexDir,
			roots: [{ path: sessions, subfolders: false }],
			extraFiles: [],
			workspaceDirs: [],
			lockStaleMs: STALE_MS,
		});
		if (outcome.kind === "done") return outcome.result;
		if (Date.now() > end) throw new Error(`catch-up never got the lock: ${JSON.stringify(outcome)}`);
		await new Promise((r) => setTimeout(r, 200));
	}
}

beforeEach(async () => {
	root = await tempDir();
	sessions = join(root, "sessions");
	indexDir = join(root, "index");
	stopFile = join(root, "stop");
	mkdirSync(sessions);
	mkdirSync(indexDir);
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
		await waitFor(
			() => indexers.every((i, k) => i.out.filter((l) => l === "tick").length > 0 && i.out.length > ticks[k] + 1),
			20_000,
		);
		writeFileSync(stopFile, "");
		expect(await Promise.all(indexers.map((i) => i.exited))).toEqual([0, 0, 0]);
		await finalCatchUp();
		expect(await differences()).toEqual([]);
		const opened = await openStore({ dir: indexDir });
		if (!opened.ok) throw new Error(opened.error);
		const events = (opened.store.db.prepare("SELECT count(*) AS c FROM events").get() as { c: number }).c;
		opened.store.close();
		expect(events).toBe(completeLines());
		expect(events).toBe(6 * 120);
	}, 90_000);
});

describe("crash safety", () => {
	it("an indexer SIGKILLed at random moments leaves a consistent index, and its lock is taken over", async () => {
		// A corpus large enough that catch-up spans many small transactions.
		const corpus = Array.from({ length: 12 }, (_, i) => {
			const f = lineFactory({ prefix: `c${i}` });
			const path = join(sessions, `c-${i}.jsonl`);
			writeFileSync(path, f.header());
			return { f, path, i };
		});
		// Every iteration adds backlog, so each killed indexer is busy (holding the lock, mid-transaction).
		const addBacklog = (iteration: number) => {
			for (const c of corpus) {
				let body = "";
				for (let n = 0; n < 150; n++)
					body += c.f.user(`crash corpus ${c.i} pass ${iteration} line ${n} ${"text ".repeat(40)}`);
				appendFileSync(c.path, body);
			}
		};
		let seed = 7;
		const rand = () => {
			seed = (seed * 1664525 + 1013904223) >>> 0;
			return seed / 2 ** 32;
		};
		let killedWhileLocked = 0;
		for (let iteration = 0; iteration < 6; iteration++) {
			addBacklog(iteration);
			const writer =
				iteration % 2 === 0 ? child("writer.ts", [sessions, `w${iteration}`, "1", "40", String(iteration)]) : undefined;
			const indexer = child("indexer.ts", [indexDir, sessions, "catch-up", stopFile, "8192", String(STALE_MS)]);
			// Kill after some progress at a random moment: inside transactions, between them, holding the lock.
			await waitFor(() => indexer.out.includes("progress") || indexer.exitCode !== null, 30_000);
			await new Promise((r) => setTimeout(r, Math.floor(rand() * 300)));
			if ((await lockHolderInfo(indexDir, "catch-up")).locked) killedWhileLocked++;
			indexer.kill("SIGKILL");
			await indexer.exited;
			await writer?.exited;
			expect(await differences(true)).toEqual([]);
		}
		expect(killedWhileLocked).toBeGreaterThan(0);
		await finalCatchUp();
		expect(await differences()).toEqual([]);
	}, 120_000);
});
