/**
 * The extension in Pi's own CLI running under Bun (what Pi's release binaries are), with the scripted faux
 * provider: the model's event_search → event_read → event_trace calls succeed on bun:sqlite. Then a Node Pi and a
 * Bun Pi at the same time on one agent dir share one index: both answer, the index equals the files exactly once,
 * one generation is ever created (no rebuild ping-pong), and later runs on either runtime re-index nothing. Last,
 * the pi-event-index CLI under Bun answers exactly as under Node.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventReadResult, EventSearchResult, EventTrace } from "../../src/contract.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { openStore } from "../../src/store/open-store.js";
import { EXTENSION, e2eDirs, expectOk, textOf, toolResults } from "../helpers/e2e.js";
import {
	FAUX_PROVIDER_EXTENSION,
	HAS_NODE22_PACKAGE,
	listSessionFiles,
	PI_1X_BUN_HOST,
	PI_1X_HOST,
	PI_073_HOST,
	PI_CLI,
	type PiHost,
	REPO_ROOT,
	type RunPiResult,
	readJsonl,
	runPi,
} from "../helpers/pi-cli.js";
import { BUN_BIN, CURRENT_RUNTIME, nodeBin, type Runtime, runCommand } from "../helpers/runtime.js";

/** One Pi on both runtimes: the Node the npm package runs on, and Bun (what Pi's release binaries embed). */
interface PiPair {
	name: string;
	node: PiHost;
	bun: PiHost;
}

const PAIRS: PiPair[] = [
	...(HAS_NODE22_PACKAGE ? [{ name: "Pi 1.x", node: PI_1X_HOST, bun: PI_1X_BUN_HOST }] : []),
	{
		name: "Pi 0.73",
		node: PI_073_HOST,
		bun: { name: "Pi 0.73 on Bun", command: [BUN_BIN, PI_CLI], label: "bun", faux: FAUX_PROVIDER_EXTENSION },
	},
];

const CLI = join(REPO_ROOT, "bin", "pi-event-index.cjs");
const MARKER_A = "quixoticpelican";
const MARKER_B = "lanternmarsupial";

describe.each(PAIRS)("$name on Node and on Bun", (pair) => {
	let tmp: string;
	let agentDir: string;
	let cwd: string;
	let indexDir: string;
	const script = join(REPO_ROOT, "test", "bun", "scripts", "search-read-trace.mjs");
	let seedA: RunPiResult;
	let seedB: RunPiResult;

	/** A Pi run with this extension loaded on `runtime`. */
	function pi(runtime: Runtime, args: string[], env: Record<string, string> = {}) {
		return runPi({ host: pair[runtime], agentDir, cwd, args, script, extensions: [EXTENSION], env, timeoutMs: 90_000 });
	}

	/** Index generation files in the shared index directory. */
	const generations = () => readdirSync(indexDir).filter((f) => f.endsWith(".sqlite"));

	/** How many generations were ever created (the store logs each one). */
	function generationsCreated(): number {
		const log = readFileSync(join(indexDir, "event-index.log"), "utf8");
		return log.split("\n").filter((line) => line.includes('"store.generation_created"')).length;
	}

	/** Asserts a search → read → trace run found the seed written with `marker`; returns what the tools returned. */
	function expectSearchReadTrace(run: RunPiResult, seed: RunPiResult, runtime: Runtime) {
		expectOk(run);
		const seedId = seed.reports[0].sessionId;
		expect(run.stdout).toContain(`finished ${seedId}`);
		expect(run.stdout).toContain(`runtime=${runtime}`);
		const results = toolResults(readJsonl(run.sessionFile as string));
		expect(results.map((r) => r.toolName)).toEqual(["event_search", "event_read", "event_trace"]);
		for (const r of results) expect(r.isError, textOf(r)).toBe(false);
		const [search, read, trace] = results;
		const found = search.details as EventSearchResult;
		expect(found.hits).toHaveLength(1);
		expect(found.hits[0]).toMatchObject({ sessionId: seedId, role: "user", cwd });
		const event = (read.details as EventReadResult).event;
		expect(event).toMatchObject({ sessionId: seedId, entryId: found.hits[0].entryId, role: "user" });
		expect(textOf(read)).toContain(seed === seedA ? MARKER_A : MARKER_B);
		const target = (trace.details as EventTrace).target;
		expect(target).toMatchObject({ sessionId: seedId, entryId: found.hits[0].entryId });
		return { found, run };
	}

	/** Every indexed row, to prove later runs re-index nothing. */
	async function snapshot() {
		const opened = await openStore({ dir: indexDir, readonly: true });
		if (!opened.ok) throw new Error(opened.error);
		try {
			const db = opened.store.db;
			const report = verifyIndex(db, [{ path: join(agentDir, "sessions"), subfolders: true }]);
			const dupes = db
				.prepare("SELECT source_id, entry_id, count(*) AS n FROM events GROUP BY source_id, entry_id HAVING n > 1")
				.all();
			return {
				generation: opened.store.generation,
				differences: report.differences,
				indexedSources: report.sources,
				dupes,
				sources: db
					.prepare("SELECT id, path, dev, ino, size, mtime_ms, offset, line_count FROM sources ORDER BY id")
					.all(),
				// Fragment ids are rowids: a re-indexed event's fragments come back with new ones.
				fragments: db.prepare("SELECT id, source_id, event_seq, ord FROM fragments ORDER BY id").all(),
			};
		} finally {
			opened.store.close();
		}
	}

	beforeAll(async () => {
		({ tmp, agentDir, cwd, indexDir } = e2eDirs("pei-bun-"));
		mkdirSync(join(tmp, "barrier"));
		// Earlier sessions written WITHOUT the extension, one by each runtime: only catch-up can know them.
		[seedA, seedB] = await Promise.all([
			runPi({ host: pair.node, agentDir, cwd, args: [`remember the ${MARKER_A} rollout plan`] }),
			runPi({ host: pair.bun, agentDir, cwd, args: [`the ${MARKER_B} migration was slow`] }),
		]);
		expectOk(seedA);
		expectOk(seedB);
	}, 120_000);

	afterAll(() => {
		rmSync(tmp, { recursive: true, force: true });
	});

	describe.skipIf(CURRENT_RUNTIME !== "node")("the extension in Pi's CLI under Bun", () => {
		it("a Bun Pi creates the index on bun:sqlite and the model's search → read → trace calls succeed", async () => {
			const run = await pi("bun", ["what was the rollout plan"], { E2E_MARKER: MARKER_A });
			const { found } = expectSearchReadTrace(run, seedA, "bun");
			expect(found.coverage.partial).toBe(false);
			expect(generations()).toHaveLength(1);
			expect(generationsCreated()).toBe(1);
		});

		it("a Node Pi and a Bun Pi at once share one index: both answer, every line indexed once, no rebuild", async () => {
			const barrier = join(tmp, "barrier");
			const before = generations();
			const [onNode, onBun] = await Promise.all([
				pi("node", ["node asks"], { E2E_MARKER: MARKER_B, BARRIER_DIR: barrier, BARRIER_ME: "n", BARRIER_OTHER: "b" }),
				pi("bun", ["bun asks"], { E2E_MARKER: MARKER_A, BARRIER_DIR: barrier, BARRIER_ME: "b", BARRIER_OTHER: "n" }),
			]);
			expectSearchReadTrace(onNode, seedB, "node");
			expectSearchReadTrace(onBun, seedA, "bun");
			expect(onNode.stdout).toContain("barrier=met");
			expect(onBun.stdout).toContain("barrier=met");
			// The same generation all along: neither runtime found the other's index unusable.
			expect(generations()).toEqual(before);
			expect(generationsCreated()).toBe(1);
			const snap = await snapshot();
			expect(snap.differences).toEqual([]);
			expect(snap.dupes).toEqual([]);
			expect(snap.indexedSources).toBe(listSessionFiles(agentDir).length);
		});

		it("later runs on either runtime re-index nothing the other one indexed (no ping-pong)", async () => {
			const before = await snapshot();
			const known = new Set((before.sources as Array<{ path: string }>).map((s) => s.path));
			for (const runtime of ["node", "bun", "node"] as const) {
				expectOk(await pi(runtime, [`${runtime} says hello`]));
			}
			const after = await snapshot();
			expect(after.generation).toBe(before.generation);
			expect(after.differences).toEqual([]);
			// Every row of every earlier file is still the very same row (a re-index would delete and re-insert).
			expect((after.sources as Array<{ path: string }>).filter((s) => known.has(s.path))).toEqual(before.sources);
			const oldIds = new Set((before.sources as Array<{ id: number }>).map((s) => s.id));
			expect(after.fragments.filter((f) => oldIds.has((f as { source_id: number }).source_id))).toEqual(
				before.fragments,
			);
			expect(after.sources.length).toBe(before.sources.length + 3);
			expect(generationsCreated()).toBe(1);
		});

		it("the pi-event-index CLI under Bun answers exactly as under Node", async () => {
			const cli = (bin: string, args: string[]) =>
				runCommand(bin, [CLI, ...args, "--agent-dir", agentDir, "--workspace", cwd], {
					env: { ...process.env, PI_CODING_AGENT_DIR: agentDir },
				});
			const search = ["search", MARKER_A, "--json"];
			// One after the other: a run beside another's catch-up says "catch-up running" in its coverage note.
			const nodeSearch = await cli(nodeBin(), search);
			const bunSearch = await cli(BUN_BIN, search);
			expect(nodeSearch.exitCode, nodeSearch.stderr).toBe(0);
			expect(bunSearch.exitCode, bunSearch.stderr).toBe(0);
			const hits = JSON.parse(bunSearch.stdout) as EventSearchResult;
			expect(hits.hits.map((h) => h.sessionId)).toContain(seedA.reports[0].sessionId);
			expect(hits).toEqual(JSON.parse(nodeSearch.stdout));

			const bunVerify = await cli(BUN_BIN, ["verify"]);
			expect(bunVerify.exitCode, bunVerify.stdout + bunVerify.stderr).toBe(0);
			const bunRebuild = await cli(BUN_BIN, ["reindex", "--full"]);
			expect(bunRebuild.exitCode, bunRebuild.stderr).toBe(0);
			expect(generationsCreated()).toBe(2);
			const after = await snapshot();
			expect(after.differences).toEqual([]);
			expect(after.indexedSources).toBe(listSessionFiles(agentDir).length);
			const nodeAfter = await cli(nodeBin(), search);
			expect(JSON.parse(nodeAfter.stdout)).toEqual(hits);
		});
	});
});
