/**
 * What the relaxed tier reads to name an event's matched terms (tiers.ts, presentTerms): a term past the stored head
 * of a long fragment is looked up in the presence scoring's walks of its forms when one covered the fragment (a seek
 * of the index per fragment and term cost 0.3–1 ms on 1 GB), and a head proximity already read is not read again
 * (only a hit's, for its snippet), nor a row several candidate lists rank joined again.
 * The statements are counted on the real store through a QueryDb that passes every call on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchEvents } from "../../../src/query/search.js";
import { counted } from "../../helpers/counted-db.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { ALL_ROOTS_CALLER, storeWithSession, type TempStore } from "../../helpers/temp-store.js";

let store: TempStore;
/** More fragments than the relaxed tier counts a term's frequency up to: `gizmo` is scored by its presence. */
const COMMON = 10_050;

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	const lines = [f.header(), f.user("start the notes")];
	for (let i = 0; i < COMMON; i++) lines.push(f.assistant(`gizmo note ${i}`));
	// `gizmo` lies past the head the index stores of this text (1,000 characters), in few tokens.
	lines.push(f.assistant(`zyxel ${"lorem".repeat(250)} gizmo`));
	lines.push(f.assistant("zyxel alone here"));
	store = await storeWithSession(lines);
}, 120_000);
afterAll(() => store.cleanup());

describe("the relaxed tier's reads", () => {
	it("names a common term past a long fragment's head from the presence walks, with no seek per fragment", () => {
		const { wrapped, calls } = counted(store.db);
		const r = searchEvents(wrapped, { query: "zyxel gizmo quokka" }, ALL_ROOTS_CALLER);
		expect(r.relaxed).toBe(true);
		const long = r.hits.find((h) => h.snippet?.startsWith("zyxel lorem"));
		expect(long?.matchedTerms?.sort()).toEqual(["gizmo", "zyxel"]);
		expect(long?.missingTerms).toEqual(["quokka"]);
		expect(calls.filter((c) => /MATCH \? AND rowid = /.test(c.sql))).toEqual([]);
	});

	it("reads each fragment's head once, and a hit's once more for its snippet", () => {
		const { wrapped, calls } = counted(store.db);
		const r = searchEvents(wrapped, { query: "zyxel gizmo quokka" }, ALL_ROOTS_CALLER);
		expect(r.hits.length).toBeGreaterThan(1);
		const heads = calls
			.filter((c) => /FROM fragments WHERE id/.test(c.sql))
			.flatMap((c) => {
				const ids = c.params.find((p) => typeof p === "string" && p.startsWith("["));
				return ids === undefined ? c.params : (JSON.parse(ids as string) as unknown[]);
			});
		expect(heads.length).toBeGreaterThan(r.hits.length);
		expect(heads.length).toBeLessThanOrEqual(new Set(heads).size + r.hits.length);
	});

	it("joins a fragment that several candidate lists rank once", () => {
		const { wrapped, calls } = counted(store.db);
		const r = searchEvents(wrapped, { query: "zyxel gizmo quokka" }, ALL_ROOTS_CALLER);
		expect(r.hits.some((h) => h.snippet?.startsWith("zyxel alone"))).toBe(true);
		const joined = calls
			.filter((c) => c.sql.includes("CROSS JOIN events e") && c.sql.includes("json_each(?) j"))
			.flatMap((c) => JSON.parse(c.params[0] as string) as number[]);
		// The OR of the terms and zyxel's own list both rank the two zyxel fragments.
		expect(joined.length).toBeGreaterThan(2);
		expect(joined.length).toBe(new Set(joined).size);
	});
});
