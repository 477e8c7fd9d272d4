/**
 * Reads and traces of sessions written by real Pi 1.6 (fixtures/pi-1.6): the system message every Pi 1.x session
 * starts with and the usage entries Pi writes between turns are no part of the conversation. Neither is ever shown as
 * an event's parent, child, sibling or neighbour; both can still be read by id.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { readEvent } from "../../src/query/read.js";
import { traceEvent } from "../../src/query/trace.js";
import { ALL_ROOTS_CALLER, type TempStore, tempStore } from "../helpers/temp-store.js";

const FIXTURE = join(import.meta.dirname, "../../fixtures/pi-1.6/sdk-retry-tree-compact.jsonl");
const caller = ALL_ROOTS_CALLER;

/** The fixture's entries in file order (their ids change when the fixture is regenerated). */
const lines = readFileSync(FIXTURE, "utf8")
	.split("\n")
	.filter((l) => l.trim() !== "")
	.map((l) => JSON.parse(l) as { type: string; id: string; message?: { role: string } });
const sessionId = lines[0].id;
const entries = lines.slice(1);
const idOf = (pick: (e: (typeof entries)[number]) => boolean) => entries.filter(pick)[0].id;
const systemId = idOf((e) => e.message?.role === "system");
const usageId = idOf((e) => e.type === "usage");
const firstUser = idOf((e) => e.message?.role === "user");
const beforeSystem = entries[entries.findIndex((e) => e.id === systemId) - 1].id;
const lastAnswer = entries[entries.length - 2].id;
const hidden = new Set([systemId, usageId]);

let store: TempStore;
beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir);
	copyFileSync(FIXTURE, join(dir, "s.jsonl"));
	const r = await new SourceSyncer(store.db).sync(join(dir, "s.jsonl"));
	expect(r.status, r.error).not.toBe("failed");
});
afterAll(() => store.cleanup());

const read = (entryId: string, order: "branch" | "append", before: number, after: number) =>
	readEvent(store.db, { sessionId, entryId, order, before, after }, caller);
const neighbourIds = (entryId: string, order: "branch" | "append") =>
	read(entryId, order, 5, 5).neighbors.map((n) => n.event.entryId);

describe("Pi 1.x's system message and usage entries are no part of the conversation", () => {
	it("regression: the first user message's parent is what precedes the system message, never the system message", () => {
		const t = traceEvent(store.db, { sessionId, entryId: firstUser }, caller);
		expect(t.parent?.node?.entryId).toBe(beforeSystem);
		expect(t.parent?.inferred).toBe(true);
		const above = traceEvent(store.db, { sessionId, entryId: beforeSystem }, caller);
		expect(above.children.map((c) => c.node?.entryId)).toEqual([firstUser]);
	});

	it("branch and append neighbours step over them", () => {
		for (const id of [firstUser, beforeSystem, lastAnswer]) {
			for (const order of ["branch", "append"] as const) {
				const ids = neighbourIds(id, order);
				expect(
					ids.filter((n) => hidden.has(n)),
					`${id} ${order}`,
				).toEqual([]);
			}
		}
		expect(neighbourIds(firstUser, "branch").slice(0, 2)).toEqual([entries[0].id, beforeSystem]);
		// The usage entry is the file's last line: the last answer has nothing after it.
		expect(read(lastAnswer, "append", 0, 3).neighbors).toEqual([]);
		expect(read(lastAnswer, "branch", 0, 3).neighbors).toEqual([]);
	});

	it("both can still be read by id: events without text", () => {
		for (const id of hidden) {
			const r = read(id, "branch", 0, 0);
			expect(r.event.entryId).toBe(id);
			expect(r.fragments).toEqual([]);
		}
	});
});
