/** Bounded work for very broad queries: a word matching more than MAX_RANKED_MATCHES fragments ranks only the newest. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { MAX_RANKED_MATCHES, searchEvents } from "../../src/query/search.js";
import { lineFactory } from "../helpers/session-lines.js";
import { storeWithSession, type TempStore } from "../helpers/temp-store.js";

let store: TempStore;
const caller = {
	cwd: "/home/dev/project",
	authorization: { extraRoots: [], allRoots: false },
	budgets: DEFAULT_BUDGETS,
};

beforeAll(async () => {
	const f = lineFactory();
	const lines = [f.header()];
	for (let i = 0; i <= MAX_RANKED_MATCHES; i++)
		lines.push(f.user(`ubiquitous word number ${i}${i === 7 ? " rarity" : ""}`));
	store = await storeWithSession(lines, "broad.jsonl");
}, 60_000);
afterAll(() => store.cleanup());

describe("broad queries", () => {
	it("rank only the most recently indexed matches and say so", () => {
		const r = searchEvents(store.db, { query: "ubiquitous" }, caller);
		expect(r.rankedMatchCap).toBe(MAX_RANKED_MATCHES);
		expect(r.truncated).toBe(true);
		expect(r.hits).toHaveLength(DEFAULT_BUDGETS.searchLimit);
		// The oldest match (entry 0) is outside the ranked window.
		expect(r.hits.map((h) => h.snippet)).not.toContain("ubiquitous word number 0");
	});

	it("a narrower query is ranked in full; the rest of the page is the relaxed tier, saying what it misses", () => {
		const r = searchEvents(store.db, { query: "ubiquitous rarity" }, caller);
		expect(r.rankedMatchCap).toBeUndefined();
		expect(r.hits[0].snippet).toBe("ubiquitous word number 7 rarity");
		expect(r.hits[0].missingTerms).toBeUndefined();
		expect(r.tiers).toEqual({ allTerms: 1, someTerms: DEFAULT_BUDGETS.searchLimit - 1 });
		for (const hit of r.hits.slice(1)) expect(hit.missingTerms).toEqual(["rarity"]);
	});
});
