/**
 * The natural-question evaluator (bench/natural/eval.ts): its metrics, the bm25-OR peer, and one real run over the
 * set indexed by the project's ingest path and searched through `searchEvents`. The project's own goals (recall@5
 * ≥ bm25-OR + 15 points, zero hits ≤ 1 %) are reported by `npm run bench`, not asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBm25OrIndex, orExpression } from "../../bench/natural/baseline.js";
import { buildNaturalCorpus, type NaturalCorpus } from "../../bench/natural/corpus.js";
import { evaluateNatural, naturalFigureRows, scoreOutcomes } from "../../bench/natural/eval.js";
import { QUESTION_CLASSES } from "../../bench/natural/set.js";

describe("natural-question metrics", () => {
	it("scores recall@1, recall@5, MRR@10 and the zero-hit rate", () => {
		const s = scoreOutcomes("x", [
			{ rank: 1, hits: 10 },
			{ rank: 3, hits: 10 },
			{ rank: 7, hits: 10 },
			{ rank: null, hits: 4 },
			{ rank: null, hits: 0 },
		]);
		expect(s.recallAt1).toBeCloseTo(1 / 5);
		expect(s.recallAt5).toBeCloseTo(2 / 5);
		expect(s.mrr).toBeCloseTo((1 + 1 / 3 + 1 / 7) / 5);
		expect(s.zeroHit).toBeCloseTo(1 / 5);
	});
});

describe("bm25-OR peer", () => {
	it("ORs the content words and drops question and function words", () => {
		expect(orExpression("When did Caroline go to the support group?")).toBe(
			'"caroline" OR "go" OR "support" OR "group"',
		);
		expect(orExpression("what was the")).toBeNull();
	});

	it("finds an event that has only some of the words, best bm25 first", () => {
		const idx = buildBm25OrIndex([
			{ key: "s/1", session: "s", role: "user", text: "I went to an LGBTQ support group yesterday" },
			{ key: "s/2", session: "s", role: "user", text: "support for the group chat is broken, support ticket open" },
			{ key: "s/3", session: "s", role: "user", text: "nothing related here" },
		]);
		try {
			const keys = idx.search("When did Caroline go to the support group?", 10);
			expect(keys.sort()).toEqual(["s/1", "s/2"]);
			expect(idx.search("zebra", 10)).toEqual([]);
		} finally {
			idx.close();
		}
	});
});

describe("a real run over the set", () => {
	let corpus: NaturalCorpus;
	beforeAll(async () => {
		corpus = await buildNaturalCorpus();
	}, 120_000);
	afterAll(() => corpus?.close());

	it("asks every question of both searches and reports every class", () => {
		const r = evaluateNatural(corpus);
		expect(r.problems).toEqual([]);
		expect(r.questions).toBe(corpus.questions.length);
		expect(r.byClass.map((c) => c.cls)).toEqual([...QUESTION_CLASSES]);
		expect(r.byClass.reduce((n, c) => n + c.count, 0)).toBe(r.questions);
		// The project accepts every natural question (no query error reaches the evaluation).
		expect(r.outcomes.filter((o) => o.error !== undefined)).toEqual([]);
		// The peer is a real one: OR over content words always returns something and often finds the answer.
		const bm25 = r.rows[2];
		expect(bm25.zeroHit).toBe(0);
		expect(bm25.recallAt5).toBeGreaterThan(0.5);
		for (const o of r.outcomes) if (o.bm25Rank !== null) expect(o.bm25Hits).toBeGreaterThanOrEqual(o.bm25Rank);
		const rows = naturalFigureRows({ ...r, timings: { buildMs: 0, queryMs: 0, bm25Ms: 0 } });
		expect(rows.map((x) => x.figure.split(",")[0])).toEqual([
			"9 Natural questions recall@1",
			"9 Natural questions recall@5",
			"9 Natural questions MRR",
			"9 Natural questions zero-hit rate",
		]);
		expect(rows[1].met).toBe(r.rows[0].recallAt5 >= bm25.recallAt5 + 0.15);
		// How often the answer said its matches are weak (every question here has an answer).
		expect(rows[0].note).toMatch(/said "weak matches" for \d+\.\d % \(answer in the top 5: /);
	}, 120_000);
});
