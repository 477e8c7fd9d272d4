/**
 * Bulk-write costs that do not show in results: tree states planned before a file's first batch (state-plan.ts), so
 * no FTS row is tokenized twice, and bulk batches that never make FTS5 flush a segment before their group commits.
 * Real SQLite files, real session files.
 */

import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { catchUp } from "../../src/ingest/catch-up.js";
import { PLAN_MAX_LINE_BYTES, planTreeStates } from "../../src/ingest/state-plan.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { projectEntry } from "../../src/project/project-entry.js";
import { computeTreeStates, treeNodeOf } from "../../src/project/tree-states.js";
import { decodedSql } from "../../src/store/column-codes.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { lineFactory } from "../helpers/session-lines.js";
import { FIXTURE_DIR, listFixtures, parseWhole } from "../parse/helpers.js";
import { tempGeneration } from "../store/temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

const store = () => tempGeneration("pei-plan-", cleanups);

/** A session whose first 30 turns are left by a /tree branch in its last turns: their states change at the end. */
function branchedSession(path: string): { leftBehind: string } {
	const lines = lineFactory();
	let text = lines.header();
	const turn = (i: number) => {
		text += lines.user(`question ${i} about the deploy`);
		text += lines.assistant(`answer ${i}: ${"the deploy log says ok. ".repeat(20)}`);
	};
	for (let i = 0; i < 5; i++) turn(i);
	const fork = lines.leafId;
	for (let i = 5; i < 30; i++) turn(i);
	const leftBehind = lines.leafId as string;
	lines.branchFrom(fork);
	for (let i = 30; i < 34; i++) turn(i);
	writeFileSync(path, text);
	return { leftBehind };
}

function statesOf(db: SqliteDb): string[] {
	return (
		db
			.prepare(
				`SELECT entry_id || ' ' || ${decodedSql("branchState", "branch_state")} || ' ' ||
					${decodedSql("selectionState", "selection_state")} AS s FROM events ORDER BY entry_id`,
			)
			.all() as Array<{ s: string }>
	).map((r) => r.s);
}

const ftsRows = (db: SqliteDb) => (db.prepare("SELECT count(*) AS n FROM fragments_fts_data").get() as { n: number }).n;

describe("planned tree states", () => {
	it("plans exactly the states of the whole parse for every fixture (a Pi 1.x system message is read whole)", async () => {
		const { sessions } = await store();
		// A compaction that keeps a system message (Pi 1.x then sends its own systemMessage instead): summarized.
		const kept = join(sessions, "system-kept.jsonl");
		const ts = "2026-12-07T08:00:00.000Z";
		const lines = [
			{ type: "session", version: 3, id: "s1", timestamp: ts, cwd: "/p" },
			{ type: "message", id: "u1", parentId: null, timestamp: ts, message: { role: "user", content: "hi" } },
			{
				type: "message",
				id: "s1",
				parentId: "u1",
				timestamp: ts,
				message: { role: "system", content: "", sections: {} },
			},
			{ type: "compaction", id: "c1", parentId: "s1", timestamp: ts, summary: "x", firstKeptEntryId: "s1" },
		];
		writeFileSync(kept, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
		const wholeStates = (file: string) =>
			computeTreeStates(
				parseWhole(new Uint8Array(readFileSync(file)))
					.entries.map(projectEntry)
					.map(treeNodeOf),
			);
		expect(wholeStates(kept).get(1)).toEqual({ branchState: "selected", selectionState: "summarized" });
		for (const file of [...listFixtures().map((name) => join(FIXTURE_DIR, name)), kept]) {
			expect(planTreeStates(file)?.states, file).toEqual(wholeStates(file));
		}
	});

	it("a file longer than one batch gets its final states at insert: no older row is rewritten", async () => {
		const planned = await store();
		const unplanned = await store();
		const path = join(planned.sessions, "s.jsonl");
		const { leftBehind } = branchedSession(path);
		const o = { batchBytes: 4096, chunkBytes: 1024 };
		const withPlan = await new SourceSyncer(planned.db).sync(path, { ...o, statePlan: planTreeStates(path) });
		const withoutPlan = await new SourceSyncer(unplanned.db).sync(path, o);

		expect(withoutPlan.statesChanged).toBeGreaterThan(20);
		expect(withPlan.statesChanged).toBe(0);
		expect(statesOf(planned.db)).toEqual(statesOf(unplanned.db));
		expect(statesOf(planned.db)).toContain(`${leftBehind} alternate not-selected`);
		expect(verifyIndex(planned.db, [{ path: planned.sessions, subfolders: false }]).differences).toEqual([]);
	});

	it("a plan made before the file grew is not trusted: the states still come out right", async () => {
		const planned = await store();
		const path = join(planned.sessions, "s.jsonl");
		const lines = lineFactory();
		let text = lines.header();
		for (let i = 0; i < 40; i++) text += lines.user(`line ${i} ${"padding words ".repeat(30)}`);
		writeFileSync(path, text);
		const plan = planTreeStates(path);
		// Appended after planning: a branch back to the third entry leaves everything after it behind.
		const grown = lineFactory({ prefix: "x" });
		grown.branchFrom("e0000002");
		appendFileSync(path, grown.user("a branch written after the plan"));

		await new SourceSyncer(planned.db).sync(path, { batchBytes: 4096, chunkBytes: 1024, statePlan: plan });
		const after = statesOf(planned.db);
		expect(after).toContain("e0000027 alternate not-selected");
		expect(after).toContain("x0000000 selected direct");
		expect(verifyIndex(planned.db, [{ path: planned.sessions, subfolders: false }]).differences).toEqual([]);
	});

	it("a file with a line longer than PLAN_MAX_LINE_BYTES gets no plan (its chunks are not joined) and is indexed right", async () => {
		const planned = await store();
		const path = join(planned.sessions, "long.jsonl");
		const lines = lineFactory();
		writeFileSync(
			path,
			lines.header() +
				lines.user("short") +
				lines.toolResult("c1", "bash", "x".repeat(3 * PLAN_MAX_LINE_BYTES)) +
				lines.user("after"),
		);
		expect(planTreeStates(path)).toBeUndefined();
		const small = join(planned.sessions, "small.jsonl");
		branchedSession(small);
		expect(planTreeStates(small)?.states.size).toBe(2 * 34);
		const result = await catchUp(planned.db, {
			roots: [{ path: planned.sessions, subfolders: false }],
			groupMs: 60_000,
		});
		expect(result.indexed).toBe(2);
		expect(verifyIndex(planned.db, [{ path: planned.sessions, subfolders: false }]).differences).toEqual([]);
	});

	it("catch-up plans new multi-batch files and indexes them without rewriting states", async () => {
		const planned = await store();
		branchedSession(join(planned.sessions, "a.jsonl"));
		branchedSession(join(planned.sessions, "b.jsonl"));
		const result = await catchUp(planned.db, {
			roots: [{ path: planned.sessions, subfolders: false }],
			groupMs: 60_000,
			sync: { batchBytes: 4096, chunkBytes: 1024 },
		});
		expect(result.indexed).toBe(2);
		expect(result.statesChanged).toBe(0);
		expect(statesOf(planned.db).filter((s) => s.includes(" alternate "))).toHaveLength(2 * 50);
		expect(verifyIndex(planned.db, [{ path: planned.sessions, subfolders: false }]).differences).toEqual([]);
	});
});

describe("FTS segments of a bulk group", () => {
	// Regression: `INSERT … RETURNING` on `sources` ran as a statement transaction, and FTS5 flushes its pending
	// terms at every statement savepoint: one small segment per file of a bulk pass, merged again and again.
	it("syncing new files inside an open group writes no FTS segment until the group commits", async () => {
		const { db, sessions } = await store();
		const paths = ["a", "b", "c"].map((name) => {
			const lines = lineFactory({ prefix: name });
			const path = join(sessions, `${name}.jsonl`);
			writeFileSync(path, lines.header() + lines.user(`hello from ${name}`) + lines.assistant("hi there"));
			return path;
		});
		const syncer = new SourceSyncer(db);
		const before = ftsRows(db);
		db.exec("BEGIN IMMEDIATE");
		for (const path of paths) expect((await syncer.sync(path, { inTransaction: true })).status).toBe("indexed");
		expect(ftsRows(db)).toBe(before);
		db.exec("COMMIT");
		expect(ftsRows(db)).toBeGreaterThan(before);
	});
});
