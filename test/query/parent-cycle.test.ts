/**
 * Parent cycles in a session file (hand-edited or written by a broken tool; Pi never writes one): a self-parent S,
 * and A→B→A. Pi's session tree takes a self-parent for a root and gives a longer cycle no root. A read's branch walk
 * and a trace report the cycle once and never list an event as its own neighbour, parent or child, nor repeat a fork.
 * Real files, indexed through the real sync, read through the services and the tools' text.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { readEvent } from "../../src/query/read.js";
import { traceEvent } from "../../src/query/trace.js";
import { renderReadText, renderTraceText } from "../../src/tools/render-text.js";
import { ALL_ROOTS_CALLER, type TempStore, tempStore } from "../helpers/temp-store.js";

const SELF = "5e1f0000-0000-4000-8000-000000000001";
const LOOP = "5e1f0000-0000-4000-8000-000000000002";
const LONE = "5e1f0000-0000-4000-8000-000000000003";
const FORK = "5e1f0000-0000-4000-8000-000000000004";
const caller = ALL_ROOTS_CALLER;
let store: TempStore;

function line(id: string, parentId: string | null, text: string, second: number): string {
	const timestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
	const message = { role: "user", content: [{ type: "text", text }], timestamp: second };
	return `${JSON.stringify({ type: "message", id, parentId, timestamp, message })}\n`;
}

function header(id: string, parentSession?: string): string {
	const h = { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w", parentSession };
	return `${JSON.stringify(h)}\n`;
}

beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir, { recursive: true });
	const files = {
		// S names itself as parent; T is its child.
		"self.jsonl": header(SELF) + line("s0000001", "s0000001", "self", 1) + line("t0000001", "s0000001", "tee", 2),
		// A's parent is B, B's parent is A.
		"loop.jsonl": header(LOOP) + line("a0000001", "b0000001", "ay", 1) + line("b0000001", "a0000001", "bee", 2),
		// A lone self-parent L, and a session forked from it at L.
		"lone.jsonl": header(LONE) + line("l0000001", "l0000001", "lone", 1),
		"fork.jsonl":
			header(FORK, join(dir, "lone.jsonl")) +
			line("l0000001", "l0000001", "lone", 1) +
			line("f0000001", "l0000001", "eff", 2),
	};
	for (const [name, text] of Object.entries(files)) {
		writeFileSync(join(dir, name), text);
		expect((await new SourceSyncer(store.db).sync(join(dir, name))).status).toBe("indexed");
	}
});
afterAll(() => store.cleanup());

const read = (sessionId: string, entryId: string) =>
	readEvent(store.db, { sessionId, entryId, before: 4, after: 4 }, caller);
const neighbours = (r: ReturnType<typeof read>) => r.neighbors.map((n) => `${n.relation} ${n.event.entryId}`);

describe("a parent cycle", () => {
	it("regression: a self-parent is no neighbour of itself, its fork is not repeated, the cycle is said once", () => {
		const r = read(SELF, "s0000001");
		expect(neighbours(r)).toEqual(["after t0000001"]);
		expect(r.forks).toEqual([]);
		expect(r.parentCycle).toEqual({ at: { sessionId: SELF, entryId: "s0000001" }, parentId: "s0000001" });
		const text = renderReadText(r, { cwd: "/" });
		expect(text.match(/parent cycle/g)).toHaveLength(1);
		expect(text).not.toMatch(/before entryId=s0000001/);
		// From the child, the walk goes up to S and stops there.
		expect(neighbours(read(SELF, "t0000001"))).toEqual(["before s0000001"]);
	});

	it("regression: a session fork at a self-parent does not name it as its own continuation", () => {
		const r = readEvent(store.db, { sessionId: LONE, entryId: "l0000001", after: 0 }, caller);
		expect(r.forks).toEqual([
			{
				kind: "session-fork",
				at: { sessionId: LONE, entryId: "l0000001" },
				candidates: [{ sessionId: FORK, entryId: "f0000001" }],
			},
		]);
	});

	it("regression: A→B→A lists B once and never A beside itself", () => {
		for (const [target, other] of [
			["a0000001", "b0000001"],
			["b0000001", "a0000001"],
		]) {
			const r = read(LOOP, target);
			expect(neighbours(r)).toEqual([`before ${other}`]);
			expect(r.forks).toEqual([]);
			expect(r.parentCycle?.at.entryId).toBe(other);
		}
	});

	it("regression: a self-parent's trace has no parent, is not its own child, and says so once", () => {
		const t = traceEvent(store.db, { sessionId: SELF, entryId: "s0000001" }, caller);
		expect(t.parent).toBeUndefined();
		expect(t.children.map((e) => e.node?.entryId)).toEqual(["t0000001"]);
		expect(t.branchSiblings).toEqual([]);
		expect(t.parentCycle).toEqual({ at: { sessionId: SELF, entryId: "s0000001" }, parentId: "s0000001" });
		expect(renderTraceText(t, { cwd: "/" }).match(/parent cycle/g)).toHaveLength(1);
		const loop = traceEvent(store.db, { sessionId: LOOP, entryId: "a0000001" }, caller);
		expect(loop.parent?.node?.entryId).toBe("b0000001");
		expect(loop.parentCycle).toEqual({ at: { sessionId: LOOP, entryId: "a0000001" }, parentId: "b0000001" });
	});
});
