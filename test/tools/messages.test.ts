/**
 * Messages that must be true: coverage worded one way (with when to retry when partial), a reindex with nothing to
 * do says the index was up to date, and a read whose offset was moved says so (real store, real service).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import type { Coverage } from "../../src/contract.js";
import { reindexSummary, runtimeStatusText } from "../../src/extension/command.js";
import { type CatchUpResult, emptyCatchUpResult } from "../../src/ingest/catch-up-plan.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { readEvent } from "../../src/query/index.js";
import { computeCoverage } from "../../src/store/source-counts.js";
import { coverageText, retryAfterMs, roughDuration } from "../../src/text/coverage-text.js";
import { renderReadText, renderSearchText } from "../../src/tools/render-text.js";
import { lineFactory } from "../helpers/session-lines.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

const result = (over: Partial<CatchUpResult>): CatchUpResult => ({ ...emptyCatchUpResult(0), ...over });

const coverage = (over: Partial<Coverage>): Coverage => ({
	known: 400,
	indexed: 400,
	pending: 0,
	failed: 0,
	rebuilding: false,
	partial: false,
	...over,
});

describe("coverage, worded one way", () => {
	it("complete and partial coverage from the store's own computation read the same in the tools and the status", async () => {
		const s = await tempStore();
		try {
			const c = computeCoverage(s.db, { catchingUp: true });
			const line = coverageText(c);
			// A fresh index has had no discovery: partial, with what it means and when to retry.
			expect(line).toBe(
				"coverage: partial: 0 session files indexed, no discovery yet, catch-up running (results may be incomplete; try again in a few seconds)",
			);
			const tool = renderSearchText({ hits: [], truncated: false, limit: 10, coverage: c }, "x", { cwd: "/" });
			expect(tool.split("\n").at(-1)).toBe(line);
			const status = runtimeStatusText({
				open: true,
				indexDir: "/i",
				generation: "g1",
				coverage: c,
				catchUpRunning: true,
				problems: [],
			});
			expect(status.split("\n")).toContain(line);
		} finally {
			s.cleanup();
		}
	});

	it("partial coverage says roughly when to retry: from this process's pace when known, else a nominal rate", () => {
		const running = coverage({
			indexed: 100,
			pending: 300,
			partial: true,
			note: "partial: 100 of 400 session files indexed, 300 pending, catch-up running",
		});
		// 100 files done in 20 s, 300 to go: about a minute.
		const pace = {
			total: 400,
			done: 100,
			indexed: 100,
			failed: 0,
			removed: 0,
			bytesRead: 0,
			entriesAdded: 0,
			statesChanged: 0,
			elapsedMs: 20_000,
		};
		expect(retryAfterMs(running, pace)).toBe(60_000);
		expect(coverageText(running, pace)).toMatch(/\(results may be incomplete; try again in about 1 min\)$/);
		expect(coverageText(running)).toMatch(/try again in a few seconds\)$/);
		const rebuilding = coverage({
			known: 10_000,
			indexed: 0,
			pending: 10_000,
			rebuilding: true,
			partial: true,
			note: "partial: 0 of 10000 session files indexed, 10000 pending, rebuild running",
		});
		expect(coverageText(rebuilding)).toMatch(/try again in about 2 min\)$/);
		// Waiting does not fix a file that cannot be indexed, and nothing indexes when catch-up is off.
		const failedOnly = coverage({
			indexed: 398,
			failed: 2,
			partial: true,
			note: "partial: 398 of 400 session files indexed, 2 failed (unreadable or not indexable)",
		});
		expect(retryAfterMs(failedOnly)).toBeUndefined();
		expect(coverageText(failedOnly)).toMatch(/waiting will not change this\)$/);
		const idle = coverage({
			indexed: 100,
			pending: 300,
			partial: true,
			note: "partial: 100 of 400 session files indexed, 300 pending",
		});
		expect(coverageText(idle)).toMatch(/indexing is not running now \(a reindex catches up\)\)$/);
		expect(coverageText(coverage({ note: "complete: 400 of 400 session files indexed" }))).toBe(
			"coverage: complete: 400 of 400 session files indexed",
		);
		expect([roughDuration(3_000), roughDuration(42_000), roughDuration(300_000)]).toEqual([
			"a few seconds",
			"about 40 s",
			"about 5 min",
		]);
	});
});

describe("reindex summaries", () => {
	it("a catch-up with nothing to do says the index was already up to date", () => {
		expect(reindexSummary("catch-up", result({}))).toBe(
			"event index: catch-up done: already up to date (no session file is new or changed since it was indexed)",
		);
		expect(reindexSummary("catch-up", result({ total: 3, done: 3, indexed: 2, failed: 1 }))).toBe(
			"event index: catch-up done: 2 of 3 new or changed session files indexed, 1 failed",
		);
		expect(reindexSummary("rebuild", result({ total: 417, done: 417, indexed: 417 }))).toBe(
			"event index: rebuild done: 417 of 417 session files indexed",
		);
	});
});

describe("a clamped read offset is said", () => {
	let tmp: string;
	let store: TempStore;
	const cwd = "/home/dev/clamp";
	const long = "x".repeat(10_000);

	beforeAll(async () => {
		tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-clamp-")));
		store = await tempStore(tmp);
		const f = lineFactory({ sessionId: "c1a4c1a4-0000-4000-8000-000000000001", cwd });
		mkdirSync(join(tmp, "s"));
		const file = join(tmp, "s", "c.jsonl");
		writeFileSync(file, f.header() + f.user("read it") + f.toolResult("call_1", "read", long));
		expect((await new SourceSyncer(store.db).sync(file)).status).toBe("indexed");
	});

	afterAll(() => {
		store.db.close();
		rmSync(tmp, { recursive: true, force: true });
	});

	const read = (offset: number) =>
		readEvent(
			store.db,
			{ sessionId: "c1a4", entryId: "e0000001", matchingFragmentId: "e0000001#0", offset },
			{ cwd, authorization: { extraRoots: [], allRoots: false }, budgets: DEFAULT_BUDGETS },
		);

	it("past the end: the window is the last characters and the text says the offset was clamped", () => {
		const r = read(99_999);
		expect(r.window).toMatchObject({ offset: 6000, requestedOffset: 99_999, range: { start: 6000, end: 10_000 } });
		expect(renderReadText(r, { cwd })).toContain(
			"(offset 99999 is past the end (10000 characters): clamped to 6000, the last 4000 characters; more before)",
		);
	});

	it("an offset inside the text that fits a full window is not clamped and nothing is said", () => {
		const r = read(2000);
		expect(r.window?.offset).toBe(2000);
		expect(r.window?.requestedOffset).toBeUndefined();
		expect(renderReadText(r, { cwd })).not.toContain("clamped");
	});
});
