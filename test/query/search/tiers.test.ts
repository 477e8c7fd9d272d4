/**
 * Tiered semantics: every-term events first; when too few, events matching some terms fill the page, best
 * rarity-weighted coverage first, each naming what it matched and missed; phrases stay required; never a silent
 * empty while some term matches.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchEvents } from "../../../src/query/search.js";
import { renderSearchText } from "../../../src/tools/render-text.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { ALL_ROOTS_CALLER, storeWithSession, type TempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const caller = ALL_ROOTS_CALLER;
const search = (query: string) => searchEvents(store.db, { query }, caller);

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	const lines = [f.header()];
	lines.push(f.user("the zeppelin migration needs a rollback plan"));
	lines.push(f.assistant("the zeppelin hangar is ready"));
	lines.push(f.user("rollback of the schema worked"));
	for (let i = 0; i < 40; i++) lines.push(f.assistant(`routine rollback note ${i}`));
	lines.push(f.user("Caroline went to the support group yesterday"));
	// Longer than the prefix tiers.ts reads to name matched terms: the rest is asked of the index.
	lines.push(f.user(`quasar ${"lorem ".repeat(50_000)} pulsar`));
	lines.push(f.assistant("the nebulon drive hums"));
	store = await storeWithSession(lines);
});
afterAll(() => store.cleanup());

describe("tiers", () => {
	it("a full match is tier 1 and is not relaxed when enough events contain every term", () => {
		const r = search("routine rollback");
		expect(r.relaxed).toBeUndefined();
		expect(r.hits.every((h) => h.missingTerms === undefined)).toBe(true);
	});

	it("fills the page with partial matches, rare terms first, naming matched and missing terms", () => {
		const r = search("zeppelin rollback hangar");
		expect(r.relaxed).toBe(true);
		expect(r.tiers).toEqual({ allTerms: 0, someTerms: r.hits.length });
		// Two of three terms (both rare ones) beat rollback-only events.
		expect(r.hits[0].snippet).toContain("zeppelin");
		expect(r.hits[0].matchedTerms?.length).toBe(2);
		expect(r.hits[0].missingTerms?.length).toBe(1);
		const covered = r.hits.map((h) => h.matchedTerms?.length ?? 0);
		expect([...covered].sort((a, b) => b - a)).toEqual(covered);
		for (const h of r.hits) {
			expect([...(h.matchedTerms ?? []), ...(h.missingTerms ?? [])].sort()).toEqual(["hangar", "rollback", "zeppelin"]);
		}
		const text = renderSearchText(r, "zeppelin rollback hangar", { cwd: "/" });
		expect(text).toContain('No event contains all of "zeppelin rollback hangar"; the closest match 2 of 3 terms');
		expect(text).toContain("missing=");
	});

	it("names the terms of a fragment longer than the scanned prefix by asking the index, not by guessing", () => {
		const r = search("quasar nebulon pulsar");
		expect(r.relaxed).toBe(true);
		const long = r.hits.find((h) => h.matchedTerms?.includes("quasar"));
		// pulsar lies past the scanned prefix; nebulon is only in another event.
		expect(long?.matchedTerms?.sort()).toEqual(["pulsar", "quasar"]);
		expect(long?.missingTerms).toEqual(["nebulon"]);
	});

	it("full matches come first, then partial ones", () => {
		const r = search("zeppelin rollback");
		expect(r.relaxed).toBe(true);
		expect(r.tiers?.allTerms).toBe(1);
		expect(r.hits[0].snippet).toContain("zeppelin migration needs a rollback");
		expect(r.hits[0].missingTerms).toBeUndefined();
		expect(r.hits.slice(1).every((h) => h.missingTerms?.length === 1)).toBe(true);
	});

	it("a natural question finds the event despite question words and a word it does not contain", () => {
		const r = search("When did Caroline go to the support group?");
		expect(r.hits[0].snippet).toContain("Caroline went to the support group");
	});

	it("quoted phrases stay required in every tier", () => {
		const r = search('"rollback plan" hangar');
		expect(r.hits.length).toBeGreaterThan(0);
		for (const h of r.hits) expect(h.snippet).toContain("rollback plan");
		expect(r.hits[0].missingTerms).toEqual(["hangar"]);
	});

	it("is never a silent empty while some term matches, and empty only when none does", () => {
		expect(search("zeppelin qwertyuiopnothing").hits.length).toBeGreaterThan(0);
		const none = search("qwertyuiopnothing asdfghjklnothing");
		expect(none.hits).toEqual([]);
		expect(none.relaxed).toBeUndefined();
	});
});
