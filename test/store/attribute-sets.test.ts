/**
 * Shared attribute objects (src/store/attribute-sets.ts): stored once and referenced by id, per-event ones inline,
 * and every event reads back the object its line gave, through a real SQLite file, ingest and read.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import type { CallerContext } from "../../src/query/caller.js";
import { readEvent } from "../../src/query/read.js";
import { AttributeSetWriter, isSharedAttributeSet } from "../../src/store/attribute-sets.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { createGeneration } from "../../src/store/generations.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "./temp-store.js";

let dir: { dir: string; cleanup: () => void };
let db: SqliteDb;

beforeAll(async () => {
	dir = tempDir("pei-attribute-sets-");
	db = (await createGeneration(dir.dir)).db;
});

afterAll(() => {
	db.close();
	dir.cleanup();
});

describe("attribute sets", () => {
	it("share objects of shared keys only", () => {
		expect(isSharedAttributeSet({ provider: "faux", model: "faux-1", stopReason: "stop" })).toBe(true);
		expect(isSharedAttributeSet({})).toBe(false);
		expect(isSharedAttributeSet({ provider: "faux", errorMessage: "boom" })).toBe(false);
		expect(isSharedAttributeSet({ label: "checkpoint" })).toBe(false);
		expect(isSharedAttributeSet({ tokensBefore: 51234 })).toBe(false);
	});

	it("stores a shared object once and reads every event's object back", async () => {
		const cwd = "/home/dev/project";
		const caller: CallerContext = { cwd, authorization: { extraRoots: [], allRoots: true }, budgets: DEFAULT_BUDGETS };
		const lines = lineFactory({ cwd });
		const header = lines.header();
		const ids: string[] = [];
		let body = "";
		for (let i = 0; i < 5; i++) {
			ids.push(lines.nextId);
			body += lines.assistant(`answer ${i}`);
		}
		const failedId = lines.nextId;
		body += lines
			.assistant("the failed turn")
			.replace('"stopReason":"stop"', '"stopReason":"error","errorMessage":"boom"');
		const file = join(dir.dir, "shared.jsonl");
		writeFileSync(file, header + body);
		expect((await new SourceSyncer(db).sync(file)).status).toBe("indexed");

		const sets = db.prepare("SELECT id, json FROM attribute_sets").all() as Array<{ id: number; json: string }>;
		expect(sets.map((s) => JSON.parse(s.json))).toEqual([{ provider: "faux", model: "faux-1", stopReason: "stop" }]);
		const stored = db.prepare("SELECT attributes FROM events ORDER BY seq").all() as Array<{ attributes: string }>;
		expect(stored.slice(0, 5).map((r) => r.attributes)).toEqual(Array(5).fill(String(sets[0]?.id)));
		expect(JSON.parse(stored[5]?.attributes ?? "")).toEqual({
			provider: "faux",
			model: "faux-1",
			stopReason: "error",
			errorMessage: "boom",
		});

		const sessionId = (JSON.parse(header) as { id: string }).id;
		for (const entryId of ids)
			expect(readEvent(db, { sessionId, entryId }, caller).event.attributes).toEqual({
				provider: "faux",
				model: "faux-1",
				stopReason: "stop",
			});
		expect(readEvent(db, { sessionId, entryId: failedId }, caller).event.attributes).toMatchObject({
			stopReason: "error",
			errorMessage: "boom",
		});

		// verify reads the stored objects too: a set that no longer says what the line said is a difference.
		const roots = [{ path: dir.dir, subfolders: false }];
		expect(verifyIndex(db, roots).differences).toEqual([]);
		db.prepare("UPDATE attribute_sets SET json = ? WHERE id = ?").run('{"provider":"other"}', sets[0]?.id);
		const found = verifyIndex(db, roots).differences;
		expect(found.map((d) => d.kind)).toEqual(Array(5).fill("event-differs"));
		expect(found[0]?.detail).toContain('{"provider":"other"}');
		db.prepare("UPDATE attribute_sets SET json = ? WHERE id = ?").run(sets[0]?.json, sets[0]?.id);
	});

	it("regression: a rolled-back batch's sets are not referenced by a later batch", () => {
		const writer = new AttributeSetWriter(db);
		const set = { provider: "rolled", model: "back-1" };
		expect(() =>
			db.transaction(() => {
				writer.batch()(JSON.stringify(set), true);
				throw new Error("the batch fails");
			}),
		).toThrow("the batch fails");
		const id = db.transaction(() => writer.batch()(JSON.stringify(set), true));
		const row = db.prepare("SELECT json FROM attribute_sets WHERE id = ?").get(Number(id)) as { json: string };
		expect(JSON.parse(row.json)).toEqual(set);
	});
});
