/**
 * Regression (issue #12, "filters before bounds"): the ranked-match cap used to apply before the filters, so with
 * 25,000 newer events containing `error` and a handful of older ones, `error` + any filter selecting the old ones
 * returned nothing. Every filter (and authorization) must now return exactly the filtered events, as an unbounded
 * brute-force oracle computes them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../../src/config/budgets.js";
import type { EventSearchRequest } from "../../../src/contract.js";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import type { CallerContext } from "../../../src/query/caller.js";
import { SEARCH_FILTERS } from "../../../src/query/search/filters.js";
import { MAX_RANKED_MATCHES, searchEvents } from "../../../src/query/search.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { type TempStore, tempStore } from "../../helpers/temp-store.js";
import { oracleSearch } from "./oracle.js";

const NEW_EVENTS = 25_000;
const OLD_ID = "0195a000-0000-7000-8000-000000000001";
let store: TempStore;
const caller = (over: Partial<CallerContext> = {}): CallerContext => ({
	cwd: "/",
	authorization: { extraRoots: [], allRoots: true },
	budgets: { ...DEFAULT_BUDGETS, searchLimit: 50 },
	...over,
});

/** The old session: 2025, /work/old, with an assistant answer, a failed read, an abandoned branch and a compaction. */
function oldSession(): string {
	const f = lineFactory({ sessionId: OLD_ID, cwd: "/work/old", prefix: "a" });
	const lines = [f.header(), f.user("error in the old parser")];
	lines.push(f.assistant("the error came from the tokenizer"));
	const call = [{ type: "toolCall", id: "call-1", name: "read", arguments: { path: "src/parser.ts" } }];
	lines.push(f.other({ type: "message", message: { role: "assistant", content: call, stopReason: "toolUse" } }));
	lines.push(f.toolResult("call-1", "read", "error: file not found", true));
	const beforeBranch = f.leafId;
	lines.push(f.user("second error attempt on a branch"));
	f.branchFrom(beforeBranch);
	const kept = f.nextId;
	lines.push(f.user("kept error after the branch"));
	const compaction = {
		type: "compaction",
		id: "acompact",
		parentId: f.leafId,
		timestamp: "2026-01-01T00:10:00.000Z",
		summary: "earlier parser work",
		firstKeptEntryId: kept,
		tokensBefore: 1000,
	};
	lines.push(`${JSON.stringify(compaction)}\n`);
	return lines.join("").replaceAll('"timestamp":"2026-', '"timestamp":"2025-');
}

beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir);
	writeFileSync(join(dir, "old.jsonl"), oldSession());
	const f = lineFactory({ cwd: "/work/new", prefix: "b" });
	const lines = [f.header()];
	for (let i = 0; i < NEW_EVENTS; i++) lines.push(f.user(`error number ${i}`));
	writeFileSync(join(dir, "new.jsonl"), lines.join(""));
	// Old first: the new events are the most recently indexed, the ones a cap keeps.
	const syncer = new SourceSyncer(store.db);
	for (const file of ["old.jsonl", "new.jsonl"]) {
		const r = await syncer.sync(join(dir, file));
		if (r.status !== "indexed") throw new Error(`sync ${file}: ${r.status} ${r.error ?? ""}`);
	}
}, 240_000);
afterAll(() => store.cleanup());

const fullKeys = (req: EventSearchRequest, who = caller()) =>
	new Set(
		searchEvents(store.db, req, who)
			.hits.filter((h) => h.missingTerms === undefined)
			.map((h) => `${h.sessionId}/${h.entryId}`),
	);

/** One request per declared filter, each selecting old events only. */
const CASES: Record<string, EventSearchRequest> = {
	sessionId: { query: "error", sessionId: OLD_ID },
	cwd: { query: "error", cwd: "/work/old" },
	kinds: { query: "error", kinds: ["assistant_text"] },
	roles: { query: "error", roles: ["assistant"] },
	toolNames: { query: "error", toolNames: ["read"] },
	paths: { query: "error", paths: ["parser.ts"] },
	errorOnly: { query: "error", errorOnly: true },
	time: { query: "error", time: { to: "2025-12-31" } },
	branchStates: { query: "error", branchStates: ["alternate"] },
	selectionStates: { query: "error", selectionStates: ["summarized"] },
};

describe("filters before bounds", () => {
	it("the unfiltered word matches more than the cap, so the old events are outside it", () => {
		const r = searchEvents(store.db, { query: "error" }, caller());
		expect(r.rankedMatchCap).toBe(MAX_RANKED_MATCHES);
		expect(r.hits.every((h) => h.sessionId !== OLD_ID)).toBe(true);
	});

	it("covers every declared filter", () => {
		expect(Object.keys(CASES).sort()).toEqual(SEARCH_FILTERS.map((f) => f.field).sort());
	});

	for (const [name, req] of Object.entries(CASES)) {
		it(`${name}: returns exactly the filtered old events`, () => {
			const expected = oracleSearch(store.db, req);
			expect(expected.size).toBeGreaterThan(0);
			for (const key of expected) expect(key.startsWith(`${OLD_ID}/`)).toBe(true);
			expect(fullKeys(req)).toEqual(expected);
		});
	}

	it("authorization: a caller in the old workspace sees exactly its events", () => {
		const who = caller({ cwd: "/work/old", authorization: { extraRoots: [], allRoots: false } });
		const expected = oracleSearch(store.db, { query: "error", sessionId: OLD_ID });
		expect(fullKeys({ query: "error" }, who)).toEqual(expected);
	});
});
