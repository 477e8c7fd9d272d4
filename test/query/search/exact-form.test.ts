/**
 * Issue #12, natural phrasing: inflected forms match, and an event with the word as typed ranks above one with only
 * an inflected form. Tier 1 adds the exact form's presence after bm25 (presence-window.ts, withPresenceBonus), or,
 * under a selective filter whose window is too long to walk, writes it twice for bm25 (ranked-window.ts): every path
 * of the ranked window must keep that order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSearchRequest } from "../../../src/contract.js";
import { MAX_RANKED_MATCHES, searchEvents } from "../../../src/query/search.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { ALL_ROOTS_CALLER, storeWithSession, type TempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const caller = ALL_ROOTS_CALLER;

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	// Both forms equally common (equal idf), more matches than the ranked window holds and none of them user turns:
	// a selective filter over a long window; the typed form is on one more fragment. Then the two user turns, the
	// inflected one newer: without the exact form counted, it would rank first.
	const lines = [f.header()];
	// Filler, so that the forms' idf is that of a word on a tenth of the history, not of half of it.
	for (let i = 0; i < 9 * MAX_RANKED_MATCHES; i++) lines.push(f.assistant(`routine note ${i}`));
	for (let i = 0; i <= MAX_RANKED_MATCHES; i++)
		lines.push(f.assistant(i % 2 ? `migrations batch ${i} of the backfill` : `migration step ${i} of the backfill`));
	lines.push(f.user("the migration failed again today"), f.user("the migrations failed again today"));
	// The same for a word on few fragments (a filtered window of few matches), the typed form again on one more.
	for (let i = 0; i < 21; i++) lines.push(f.assistant(i % 2 ? "rollbacks queued" : "rollback queued"));
	lines.push(f.user("the rollback finished"), f.user("the rollbacks finished"));
	store = await storeWithSession(lines);
});
afterAll(() => store.cleanup());

const texts = (req: EventSearchRequest) =>
	searchEvents(store.db, req, caller).hits.map((h) => h.snippet.replace(/[…]/gu, "").trim());

describe("the form as typed ranks first", () => {
	const cases: Array<[string, EventSearchRequest, string]> = [
		["no filter (a presence bonus after bm25)", { query: "migration" }, "migration"],
		[
			"a selective filter over a long window (the form written twice for bm25)",
			{ query: "migration", roles: ["user"] },
			"migration",
		],
		[
			"a filter over few matches (ids ranked by the terms alone, then the bonus)",
			{ query: "rollback", roles: ["user"] },
			"rollback",
		],
	];
	it.each(cases)("%s", (_, req, word) => {
		const hits = texts(req).filter((t) => t.startsWith("the "));
		expect(hits[0]).toMatch(new RegExp(`^the ${word} `));
		expect(hits[1]).toMatch(new RegExp(`^the ${word}s `));
	});
});
