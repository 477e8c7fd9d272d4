/**
 * Look-up by file (issue #44 item 4): `paths` finds the events whose tool calls read, edited or wrote a file, or
 * whose bash command named it, and those calls' results; by workspace-relative path, trailing part, base name or
 * absolute path; alone (an empty query) or with terms and every other filter.
 */
import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../../src/config/budgets.js";
import type { EventSearchRequest } from "../../../src/contract.js";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import type { CallerContext } from "../../../src/query/caller.js";
import { readEvent } from "../../../src/query/read.js";
import { searchEvents } from "../../../src/query/search.js";
import { traceEvent } from "../../../src/query/trace.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { type TempStore, tempStore } from "../../helpers/temp-store.js";
import { oracleSearch } from "./oracle.js";

const APP = "/home/dev/app";
const APP_ID = "0195b000-0000-7000-8000-0000000000a1";
const FIXTURE = resolve(import.meta.dirname, "../../../fixtures/pi-mono-v1/large-session.jsonl");
const FIXTURE_CWD = "/Users/badlogic/workspaces/pi-mono";
let store: TempStore;
let dir: string;
const syncer = () => new SourceSyncer(store.db);

const caller = (over: Partial<CallerContext> = {}): CallerContext => ({
	cwd: APP,
	authorization: { extraRoots: [], allRoots: true },
	budgets: { ...DEFAULT_BUDGETS, searchLimit: 50 },
	...over,
});

/** An assistant turn of tool calls, each [id, name, arguments]. */
function calls(...list: Array<[string, string, Record<string, unknown>]>): Record<string, unknown> {
	const content = list.map(([id, name, args]) => ({ type: "toolCall", id, name, arguments: args }));
	return {
		type: "message",
		message: { role: "assistant", content, provider: "faux", model: "f", stopReason: "toolUse" },
	};
}

const f = lineFactory({ sessionId: APP_ID, cwd: APP, prefix: "a" });
/** Entry ids by name, as the session below writes them. */
const ids: Record<string, string> = {};
function add(name: string, line: string, lines: string[]): void {
	lines.push(line);
	ids[name] = f.leafId as string;
}

/** A session in /home/dev/app that reads, edits and tests src/billing/retry.ts, among other files. */
function appSession(): string[] {
	const lines = [f.header()];
	add("ask", f.user("the retry budget in billing is wrong"), lines);
	add("read", f.other(calls(["c1", "read", { path: `${APP}/src/billing/retry.ts` }])), lines);
	add("readResult", f.toolResult("c1", "read", "export const RETRY_BUDGET_MS = 500;"), lines);
	add("prose", f.assistant("the retry budget lives in src/billing/retry.ts; I will raise it"), lines);
	add(
		"edit",
		f.other(calls(["c2", "edit", { path: "./src/billing/../billing/retry.ts", oldText: "500", newText: "900" }])),
		lines,
	);
	add("editResult", f.toolResult("c2", "edit", "Successfully replaced text in src/billing/retry.ts."), lines);
	add(
		"test",
		f.other(calls(["c3", "bash", { command: "npx tsc --noEmit src/billing/retry.ts 2>&1 | tail -5" }])),
		lines,
	);
	add("testResult", f.toolResult("c3", "bash", "error TS2322: Type 'string' is not assignable", true), lines);
	add(
		"vitest",
		f.other(calls(["c7", "bash", { command: "npx vitest run test/billing/retry.test.ts 2>&1 | tail -5" }])),
		lines,
	);
	add("vitestResult", f.toolResult("c7", "bash", "FAIL test/billing/retry.test.ts > retry budget", true), lines);
	// Parallel reads: each result belongs to its own call only.
	add(
		"pair",
		f.other(calls(["c4", "read", { path: "src/billing/invoice.ts" }], ["c5", "read", { path: "src/other/retry.ts" }])),
		lines,
	);
	add("invoiceResult", f.toolResult("c4", "read", "export function invoice() {}"), lines);
	add("otherResult", f.toolResult("c5", "read", "export const retry = 1;"), lines);
	add(
		"bang",
		f.other({
			type: "message",
			message: {
				role: "bashExecution",
				command: "git diff -- src/billing/retry.ts",
				output: "- 500\n+ 900",
				exitCode: 0,
				cancelled: false,
			},
		}),
		lines,
	);
	add("write", f.other(calls(["c6", "write", { path: "docs/billing.md", content: "retry budget: 900 ms" }])), lines);
	return lines;
}

beforeAll(async () => {
	store = await tempStore();
	dir = join(store.dir, "sessions");
	mkdirSync(dir);
	writeFileSync(join(dir, "app.jsonl"), appSession().join(""));
	copyFileSync(FIXTURE, join(dir, "fixture.jsonl"));
	for (const file of ["app.jsonl", "fixture.jsonl"]) {
		const r = await syncer().sync(join(dir, file));
		if (r.status !== "indexed") throw new Error(`sync ${file}: ${r.status} ${r.error ?? ""}`);
	}
}, 120_000);
afterAll(() => store.cleanup());

const search = (req: EventSearchRequest, who = caller()) => searchEvents(store.db, req, who);
const entries = (req: EventSearchRequest, who = caller()) =>
	search(req, who)
		.hits.filter((h) => h.sessionId === APP_ID)
		.map((h) => h.entryId);
const named = (...names: string[]) => names.map((n) => ids[n]);

describe("paths: what do we know about a file", () => {
	it("finds the reads, edits, failing test runs and bash commands of the file, and their results", () => {
		const got = entries({ query: "", paths: ["src/billing/retry.ts"] });
		expect(new Set(got)).toEqual(
			new Set(named("read", "readResult", "edit", "editResult", "test", "testResult", "bang")),
		);
		// Newest first: no terms to rank by.
		expect(got[0]).toBe(ids.bang);
	});

	it("takes a base name, a trailing part, an absolute path and ./ or .. in any of them", () => {
		const all = new Set(named("read", "readResult", "edit", "editResult", "test", "testResult", "bang"));
		expect(new Set(entries({ query: "", paths: ["billing/retry.ts"] }))).toEqual(all);
		expect(new Set(entries({ query: "", paths: [`${APP}/src/billing/retry.ts`] }))).toEqual(all);
		expect(new Set(entries({ query: "", paths: ["./src/x/../billing/retry.ts/"] }))).toEqual(all);
		// A base name matches every directory: the other retry.ts and its result too.
		expect(new Set(entries({ query: "", paths: ["retry.ts"] }))).toEqual(
			new Set([...all, ...named("pair", "otherResult")]),
		);
		// The test file is a file of its own.
		expect(new Set(entries({ query: "", paths: ["retry.test.ts"] }))).toEqual(new Set(named("vitest", "vitestResult")));
	});

	it("matches whole segments and case exactly", () => {
		expect(entries({ query: "", paths: ["ing/retry.ts"] })).toEqual([]);
		expect(entries({ query: "", paths: ["Retry.ts"] })).toEqual([]);
		expect(entries({ query: "", paths: ["src/billing"] })).toEqual([]);
	});

	it("gives a result the files of its own call only (parallel calls)", () => {
		expect(new Set(entries({ query: "", paths: ["src/billing/invoice.ts"] }))).toEqual(
			new Set(named("pair", "invoiceResult")),
		);
		expect(new Set(entries({ query: "", paths: ["src/other/retry.ts"] }))).toEqual(
			new Set(named("pair", "otherResult")),
		);
	});

	it("narrows a query: the terms and the file together", () => {
		expect(new Set(entries({ query: "budget", paths: ["docs/billing.md"] }))).toEqual(new Set(named("write")));
		// The assistant's prose names the file but touches nothing.
		expect(entries({ query: "raise", paths: ["retry.ts"] })).toEqual([]);
		expect(entries({ query: "raise" })).toEqual(named("prose"));
	});

	it("is exact under every other filter", () => {
		const file = ["src/billing/retry.ts"];
		expect(entries({ query: "", paths: file, errorOnly: true })).toEqual(named("testResult"));
		expect(new Set(entries({ query: "", paths: file, kinds: ["tool_result"] }))).toEqual(
			new Set(named("readResult", "editResult", "testResult")),
		);
		expect(new Set(entries({ query: "", paths: file, roles: ["bashExecution"] }))).toEqual(new Set(named("bang")));
		expect(new Set(entries({ query: "", paths: file, toolNames: ["edit"] }))).toEqual(
			new Set(named("edit", "editResult")),
		);
		expect(entries({ query: "", paths: file, sessionId: "0195b000-0000-7000-8000-0000000000ff" })).toEqual([]);
		expect(entries({ query: "", paths: file, cwd: "/elsewhere" })).toEqual([]);
		expect(entries({ query: "", paths: file, time: { to: "2025-12-31" } })).toEqual([]);
		expect(entries({ query: "", paths: file, branchStates: ["alternate"] })).toEqual([]);
		for (const req of [
			{ query: "", paths: file, errorOnly: true },
			{ query: "retry", paths: file, kinds: ["tool_result"] },
			{ query: "budget", paths: ["retry.ts"], roles: ["assistant"] },
		] as EventSearchRequest[]) {
			expect(new Set(entries(req)), JSON.stringify(req)).toEqual(
				new Set([...oracleSearch(store.db, req, APP)].map((k) => k.split("/")[1])),
			);
		}
	});

	it("is limited to the sessions the caller may read", () => {
		const who = caller({ cwd: "/home/dev/other", authorization: { extraRoots: [], allRoots: false } });
		expect(search({ query: "", paths: ["retry.ts"] }, who).hits).toEqual([]);
	});

	it("shows the file as a trace edge of a tool result (its call's files)", () => {
		const trace = traceEvent(store.db, { sessionId: APP_ID, entryId: ids.testResult }, caller());
		expect(trace.related.filter((e) => e.kind === "file").map((e) => e.file)).toEqual(["src/billing/retry.ts"]);
		const read = readEvent(store.db, { sessionId: APP_ID, entryId: ids.readResult }, caller());
		expect(read.event.toolName).toBe("read");
	});

	it("finds the reads, edits and commands of a file in a real Pi session", () => {
		const who = caller({ cwd: FIXTURE_CWD });
		const file = "packages/coding-agent/src/theme/theme.ts";
		const hits = search({ query: "", paths: [file] }, who).hits;
		const tools = new Set(hits.map((h) => `${h.role}:${h.toolName}`));
		expect(tools).toContain("assistant:read");
		expect(tools).toContain("toolResult:read");
		expect(tools).toContain("toolResult:edit");
		expect(tools).toContain("toolResult:bash");
		expect(hits.length).toBeGreaterThan(10);
		// The same hits by absolute path, and a query narrows them to hits holding its word.
		const abs = search({ query: "", paths: [`${FIXTURE_CWD}/${file}`] }, who).hits;
		expect(abs.map((h) => h.entryId)).toEqual(hits.map((h) => h.entryId));
		const narrowed = search({ query: "export", paths: [file] }, who).hits.filter((h) => !h.missingTerms);
		expect(narrowed.length).toBeGreaterThan(0);
		expect(narrowed.length).toBeLessThan(hits.length);
		// The oracle reads stored heads only (the first 1,000 characters): every event it finds is found.
		const found = new Set(narrowed.map((h) => `${h.sessionId}/${h.entryId}`));
		const expected = oracleSearch(store.db, { query: "export", paths: [file] }, FIXTURE_CWD);
		expect(expected.size).toBeGreaterThan(5);
		for (const key of expected) expect(found).toContain(key);
		const touching = oracleSearch(store.db, { query: "", paths: [file] }, FIXTURE_CWD);
		for (const key of found) expect(touching).toContain(key);
		for (const h of hits) expect(touching).toContain(`${h.sessionId}/${h.entryId}`);
	});
});

describe("paths: validation", () => {
	it("an empty query needs paths", () => {
		expect(() => search({ query: "" })).toThrow(/query/i);
		expect(() => search({ query: "  ", errorOnly: true })).toThrow(/query/i);
	});

	it("rejects values that name no file", () => {
		expect(() => search({ query: "", paths: ["./"] })).toThrow(/"paths" has "\.\/", which names no file/);
		expect(() => search({ query: "", paths: "retry.ts" as never })).toThrow(/"paths" must be a list of strings/);
		expect(() => search({ query: "", paths: ["x".repeat(401)] })).toThrow(/longer than 400/);
	});
});

describe("paths: a result synced after its call", () => {
	it("takes its files from the call already in the index", async () => {
		const g = lineFactory({ cwd: APP, prefix: "b" });
		const file = join(dir, "split.jsonl");
		writeFileSync(
			file,
			[g.header(), g.user("check the ledger"), g.other(calls(["d1", "read", { path: "ledger.py" }]))].join(""),
		);
		expect((await syncer().sync(file)).status).toBe("indexed");
		appendFileSync(file, g.toolResult("d1", "read", "class Ledger: pass"));
		const result = g.leafId;
		expect((await syncer().sync(file)).status).toBe("indexed");
		const hits = search({ query: "", paths: ["ledger.py"] }).hits;
		expect(hits.map((h) => h.entryId)).toEqual([result, hits[1]?.entryId]);
		expect(hits[0]?.role).toBe("toolResult");
		expect(hits).toHaveLength(2);
	});

	it("keeps its path tags when a compaction rewrites its tags", async () => {
		const g = lineFactory({ cwd: APP, prefix: "c" });
		const file = join(dir, "compacted.jsonl");
		const lines = [g.header(), g.user("start"), g.other(calls(["e1", "read", { path: "summarized.rs" }]))];
		const call = g.leafId;
		lines.push(g.toolResult("e1", "read", "fn main() {}"));
		const result = g.leafId;
		lines.push(g.user("more"));
		const kept = g.leafId;
		writeFileSync(file, lines.join(""));
		expect((await syncer().sync(file)).status).toBe("indexed");
		appendFileSync(
			file,
			g.other({ type: "compaction", summary: "read main", firstKeptEntryId: kept, tokensBefore: 9 }),
		);
		expect((await syncer().sync(file)).status).toBe("indexed");
		const summarized = search({ query: "", paths: ["summarized.rs"], selectionStates: ["summarized"] }).hits;
		expect(new Set(summarized.map((h) => h.entryId))).toEqual(new Set([call, result]));
	});
});
