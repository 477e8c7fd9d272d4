/**
 * The ranked window of a filtered search (ranked-window.ts): however it is computed (the whole expression ranked, or
 * the filtered ids ranked by the terms alone), it holds the newest `cap` matches of the terms and the filters, in
 * the order of the weighted bm25 of the whole expression. Lists that share their joined rows (candidates.ts) keep
 * their own scores.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSearchRequest } from "../../../src/contract.js";
import type { QueryDb } from "../../../src/query/db.js";
import { findCandidates } from "../../../src/query/search/candidates.js";
import { matchExpression } from "../../../src/query/search/ranked-window.js";
import { planSearch } from "../../../src/query/search/request.js";
import { typedAsPhrase } from "../../../src/query/search/terms.js";
import { classWeightedBm25 } from "../../helpers/class-weighted-bm25.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { ALL_ROOTS_CALLER, storeWithSession, type TempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const caller = ALL_ROOTS_CALLER;
const CAP = 150;

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	const lines = [f.header()];
	// 600 events with the word, scores differing by count and length: every other one bash output (a broad filter),
	// one in ten a user message (a selective one), and `read` output sparse, then all of the newest 110 (a quarter).
	for (let i = 0; i < 600; i++) {
		const text = `${"cobalt ".repeat(1 + (i % 4))}${"filler word ".repeat((i * 7) % 50)}`;
		// `zinc` only in `read` output: more matches than CAP, all of them under the filter.
		if (i >= 490 || i % 10 === 3) lines.push(f.toolResult(`call${i}`, "read", `zinc ${text}`));
		else if (i % 2 === 0) lines.push(f.toolResult(`call${i}`, "bash", text));
		else if (i % 10 === 1) lines.push(f.user(text));
		else lines.push(f.assistant(text));
	}
	// The newest matches of all: retrieval-tool output, which a search without toolNames excludes inside the index.
	for (let i = 0; i < 20; i++) lines.push(f.toolResult(`search${i}`, "event_search", `cobalt cobalt cobalt ${i}`));
	// A word of fewer matches than CAP.
	for (let i = 0; i < 40; i++) lines.push(f.assistant(`${"nickel ".repeat(1 + (i % 3))}${"filler ".repeat(i)}`));
	store = await storeWithSession(lines);
});
afterAll(() => store.cleanup());

/** The database with the SQL of every statement run recorded. */
function recording(db: QueryDb, sql: string[]): QueryDb {
	return {
		prepare(s) {
			const statement = db.prepare(s);
			const run = <T>(f: () => T) => {
				sql.push(s);
				return f();
			};
			return {
				all: (...params) => run(() => statement.all(...params)),
				get: (...params) => run(() => statement.get(...params)),
			};
		},
	};
}

/** The reference: the newest CAP matches of the whole expression, by each class's weighted bm25, best first. */
function reference(req: EventSearchRequest): Array<{ id: number; score: number }> {
	const plan = planSearch(store.db, req, caller);
	const match = matchExpression(
		plan,
		plan.terms.map((t) => t.match),
	);
	const scores = classWeightedBm25(store.db, match);
	const newest = [...scores.keys()].sort((a, b) => b - a).slice(0, CAP);
	return newest.map((id) => ({ id, score: scores.get(id) as number })).sort((a, b) => a.score - b.score || a.id - b.id);
}

/** The ranked window of `req` as search computes it, asserted equal to the reference, with the SQL it ran. */
function rankedAsReference(req: EventSearchRequest, fewMatches = false) {
	const sql: string[] = [];
	const db = recording(store.db, sql);
	const plan = planSearch(db, req, caller);
	const found = findCandidates(
		db,
		plan,
		plan.terms.map((t) => t.match),
		{ cap: CAP, limit: 1000, typedPhrase: plan.terms.some(typedAsPhrase), fewMatches },
	);
	const rows = found.rows.map((r) => ({ id: r.fragmentId, score: r.score }));
	expect(rows).toEqual(reference(req));
	return { rows, capped: found.capped, sql };
}

describe("ranked window of a filtered search", () => {
	it("a broad filter: the filtered ids ranked by the terms alone, the same rows and scores", () => {
		const r = rankedAsReference({ query: "cobalt", toolNames: ["bash"] });
		expect(r.capped).toBe(true);
		expect(r.sql.some((s) => s.includes("+rowid IN (SELECT value FROM json_each(?))"))).toBe(true);
	});

	it("a selective filter: the whole expression ranked, the same rows and scores", () => {
		const r = rankedAsReference({ query: "cobalt", roles: ["user"] });
		expect(r.sql.some((s) => s.includes("+rowid IN"))).toBe(false);
	});

	it("a filter that passes all of the newest matches but few fragments overall: the whole expression ranked", () => {
		const r = rankedAsReference({ query: "cobalt", toolNames: ["read"] });
		expect(r.capped).toBe(true);
		expect(r.sql.some((s) => s.includes("+rowid IN"))).toBe(false);
	});

	it("a word found only under a selective filter: the filtered ids ranked by the terms alone (few matches to walk)", () => {
		const r = rankedAsReference({ query: "zinc", toolNames: ["read"] });
		expect(r.capped).toBe(true);
		expect(r.sql.some((s) => s.includes("+rowid IN (SELECT value FROM json_each(?))"))).toBe(true);
	});

	it("no filter: the newest CAP by bm25, retrieval output excluded, ranked without the exclusion's idf scan", () => {
		const r = rankedAsReference({ query: "cobalt" });
		expect(r.capped).toBe(true);
		const retrieval = store.db
			.prepare(
				`SELECT f.id FROM fragments f JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
				WHERE coalesce(f.tool_name, e.tool_name) = 'event_search'`,
			)
			.all() as Array<{
			id: number;
		}>;
		expect(retrieval).toHaveLength(20);
		expect(r.rows.filter((row) => retrieval.some((x) => x.id === row.id))).toEqual([]);
		// bm25 ran on the terms alone: no statement both ranks and carries the NOT.
		expect(r.sql.some((s) => s.includes("+rowid IN (SELECT value FROM json_each(?))"))).toBe(true);
	});

	it("no filter, a phrase: the whole expression ranked in one pass (its positions are evaluated once)", () => {
		const r = rankedAsReference({ query: '"cobalt cobalt"' });
		expect(r.sql.some((s) => s.includes("+rowid IN"))).toBe(false);
	});

	const OLDEST_FIRST = /MATCH \? LIMIT \?\)/;
	const NEWEST_FIRST = /MATCH \? ORDER BY rowid DESC LIMIT \?\)/;

	it("few matches expected, and fewer than CAP: walked oldest first only, the same rows and scores", () => {
		const r = rankedAsReference({ query: "nickel" }, true);
		expect(r.capped).toBe(false);
		expect(r.rows).toHaveLength(40);
		expect(r.sql.some((s) => OLDEST_FIRST.test(s))).toBe(true);
		expect(r.sql.some((s) => NEWEST_FIRST.test(s))).toBe(false);
		expect(rankedAsReference({ query: "nickel" }).sql.some((s) => NEWEST_FIRST.test(s))).toBe(true);
	});

	it("few matches expected, but more than CAP: walked newest first after all, the same rows and scores", () => {
		const r = rankedAsReference({ query: "cobalt" }, true);
		expect(r.capped).toBe(true);
		expect(r.sql.some((s) => OLDEST_FIRST.test(s))).toBe(true);
		expect(r.sql.some((s) => NEWEST_FIRST.test(s))).toBe(true);
	});
});

describe("candidate lists that share joined rows (the relaxed tier's)", () => {
	it("regression: a later list's scores never overwrite an earlier list's rows", () => {
		const joined = new Map();
		const list = (query: string) => {
			const plan = planSearch(store.db, { query }, caller);
			return findCandidates(
				store.db,
				plan,
				plan.terms.map((t) => t.match),
				{ cap: CAP, limit: 1000, joined },
			);
		};
		const scores = (rows: Array<{ fragmentId: number; score: number }>) =>
			rows.map((r) => ({ id: r.fragmentId, score: r.score }));
		const cobalt = list("cobalt");
		const before = scores(cobalt.rows);
		const zinc = list("zinc");
		const cobaltScore = new Map(before.map((r) => [r.id, r.score]));
		const shared = zinc.rows.filter((r) => cobaltScore.has(r.fragmentId));
		// The two lists rank some of the same fragments, by different expressions.
		expect(shared.some((r) => r.score !== cobaltScore.get(r.fragmentId))).toBe(true);
		expect(scores(cobalt.rows)).toEqual(before);
	});
});
