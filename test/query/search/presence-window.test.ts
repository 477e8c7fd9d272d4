/**
 * The presence-scored window (presence-window.ts): a common term of a relaxed OR adds what FTS5's weighted bm25 adds
 * for one occurrence, computed from FTS5's own docsize and averages records instead of bm25's doclist scans. Where
 * every term occurs at most once per fragment and the window holds every fragment, the scores are bm25's exactly:
 * the column weight (kind and length step), the fragment's length in tokens (varints past 127), the averages and
 * the idf all have to be right.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idsWithin, presenceRankedWindow } from "../../../src/query/search/presence-window.js";
import { classWeightedBm25 } from "../../helpers/class-weighted-bm25.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { storeWithSession, type TempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const EVENTS = 300;
const OR = '("alpha" OR "beta" OR "gamma")';

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	const lines = [f.header()];
	// Every fragment holds alpha or beta once (gamma, rarer, too on some), at lengths from a few tokens to
	// thousands of characters (length steps; sizes past one varint byte), as user, assistant and tool text.
	for (let i = 0; i < EVENTS; i++) {
		const words = [i % 3 !== 0 ? "alpha" : "", i % 2 === 0 || i % 3 === 0 ? "beta" : "", i % 17 === 0 ? "gamma" : ""];
		const text = `${words.filter(Boolean).join(" ")} ${"filler word ".repeat((i * 13) % 400)}`;
		if (i % 3 === 0) lines.push(f.toolResult(`call${i}`, "bash", text));
		else if (i % 3 === 1) lines.push(f.user(text));
		else lines.push(f.assistant(text));
	}
	store = await storeWithSession(lines);
});
afterAll(() => store.cleanup());

/** FTS5's own weighted bm25 over the whole OR, by fragment id. */
function reference(): Map<number, number> {
	return classWeightedBm25(store.db, OR);
}

describe("presence-scored window", () => {
	it("gives bm25's scores when each term occurs once per fragment", () => {
		const exact = reference();
		const fragments = (store.db.prepare("SELECT count(*) AS n FROM fragments").get() as { n: number }).n;
		// The window is every fragment, so the density estimate of each df is the count itself.
		expect(exact.size).toBe(fragments);
		const { ranked, capped } = presenceRankedWindow(
			store.db,
			OR,
			{ ranked: ['"gamma"'], present: ['"alpha"', '"beta"'] },
			1000,
			1000,
		);
		expect(capped).toBe(false);
		expect(ranked).toHaveLength(exact.size);
		for (const { id, score } of ranked) expect(score).toBeCloseTo(exact.get(id) ?? Number.NaN, 9);
		const order = [...exact].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([id]) => id);
		expect(ranked.map((r) => r.id)).toEqual(order);
	});

	it("keeps the newest `cap` matches and says the cap applied", () => {
		const { ranked, capped } = presenceRankedWindow(
			store.db,
			OR,
			{ ranked: [], present: ['"alpha"', '"beta"'] },
			50,
			1000,
		);
		expect(capped).toBe(true);
		const newest = (
			store.db.prepare("SELECT id FROM fragments ORDER BY id DESC LIMIT 50").all() as Array<{ id: number }>
		).map((r) => r.id);
		expect(ranked.map((r) => r.id).sort((a, b) => a - b)).toEqual(newest.sort((a, b) => a - b));
	});

	it("walks a range near the newest id newest first, with the same ids in the same order", () => {
		const ids = (store.db.prepare("SELECT id FROM fragments ORDER BY id").all() as Array<{ id: number }>).map(
			(r) => r.id,
		);
		const hi = ids[ids.length - 1];
		const lo = ids[Math.floor(ids.length * 0.6)];
		const expected = ids.filter((id) => id >= lo && id <= hi);
		const holding = (
			store.db.prepare(`SELECT rowid AS id FROM fragments_fts WHERE fragments_fts MATCH '"alpha"'`).all() as Array<{
				id: number;
			}>
		).map((r) => r.id);
		const alpha = expected.filter((id) => holding.includes(id));
		expect(alpha.length).toBeGreaterThan(10);
		// Newest first when the index's newest id is near the range (2 × (newest − lo) < hi), oldest first otherwise.
		expect(idsWithin(store.db, '"alpha"', lo, hi, hi)).toEqual(alpha);
		expect(idsWithin(store.db, '"alpha"', lo, hi, 10 * hi)).toEqual(alpha);
	});
});
