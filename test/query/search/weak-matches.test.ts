/**
 * "Weak matches": a question about work the history never saw gets hits (never a silent empty) but none presented
 * as holding every term, and the answer says plainly that its best matches are weak; a question whose rarer words
 * some event holds is not called weak. Measured on the coding eval: docs/ranking.md, "Weak matches".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSearch } from "../../../src/cli/format.js";
import { searchEvents } from "../../../src/query/search.js";
import { renderSearchText } from "../../../src/tools/render-text.js";
import { searchCollapsed } from "../../../src/tools/screen-search.js";
import { UNPAINTED } from "../../../src/tools/screen-text.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { ALL_ROOTS_CALLER, storeWithSession, type TempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const caller = ALL_ROOTS_CALLER;
const search = (query: string) => searchEvents(store.db, { query }, caller);

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	const lines = [f.header()];
	// Everyday coding talk: "fixed" and "mismatch" are common words here, the others rare or absent.
	for (let i = 0; i < 100; i++) lines.push(f.assistant(`ran the build step ${i} and read the log`));
	for (let i = 0; i < 30; i++) {
		lines.push(f.user(`the checksum mismatch in batch ${i} needs a look`));
		lines.push(f.assistant(`fixed the mismatch in batch ${i}, the tests pass`));
	}
	lines.push(f.user("the zeppelin hangar export drops the last column"));
	lines.push(f.assistant("fixed the zeppelin hangar export: the writer closed the file too early"));
	store = await storeWithSession(lines);
});
afterAll(() => store.cleanup());

describe("weak matches", () => {
	const absent = "remind me how we fixed the stripe webhook signature mismatch";

	it("a question with no answer gets hits, none holding every term, and the notice", () => {
		const r = search(absent);
		expect(r.hits.length).toBeGreaterThan(0);
		expect(r.hits.every((h) => (h.missingTerms?.length ?? 0) > 0)).toBe(true);
		expect(r.weakMatches).toBeDefined();
		expect(r.weakMatches?.bestCoverage).toBeLessThan(0.3);
		expect(r.weakMatches?.unmatchedTerms).toEqual(["stripe", "webhook", "signature"]);
	});

	it("a question whose rarer words an event holds is not weak, though it misses a word", () => {
		const r = search("how did we fix the zeppelin hangar rollback");
		expect(r.relaxed).toBe(true);
		expect(r.hits[0].snippet).toContain("zeppelin hangar");
		expect(r.hits[0].matchedTerms).toEqual(expect.arrayContaining(["zeppelin", "hangar"]));
		expect(r.hits[0].missingTerms).toContain("rollback");
		expect(r.weakMatches).toBeUndefined();
	});

	it("a hit holding every term is never weak", () => {
		const r = search("fixed mismatch");
		expect(r.relaxed).toBeUndefined();
		expect(r.weakMatches).toBeUndefined();
	});

	it("the tool text, the screen and the CLI say so", () => {
		const r = search(absent);
		const text = renderSearchText(r, absent, { cwd: "/" });
		expect(text).toMatch(
			/\nWeak matches only: the best hits hold \d+ % of the query's weight \(rarer words weigh more\); no hit holds "stripe", "webhook", "signature"\. The history may not hold this: say so rather than answer from these hits\.\n/,
		);
		expect(searchCollapsed(r, 120, UNPAINTED)[0]).toContain("(weak matches only)");
		expect(formatSearch(absent, r)).toContain("weak matches only: the best hits hold");
		const good = search("how did we fix the zeppelin hangar rollback");
		expect(renderSearchText(good, "x", { cwd: "/" })).not.toContain("Weak matches");
		expect(formatSearch("x", good)).not.toContain("weak matches");
	});
});
