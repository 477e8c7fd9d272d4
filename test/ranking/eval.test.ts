/**
 * The ranking over the evaluation set (bench/ranking): sessions written by real Pi with the real read and bash
 * tools, indexed by the real ingest path. Pins the order of a handful of queries and the set's figures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRankingCorpus, type RankingCorpus } from "../../bench/ranking/corpus.js";
import { evalCaller, evaluate, rankingFigureRows } from "../../bench/ranking/eval.js";
import { EVAL_QUERIES } from "../../bench/ranking/set.js";
import { searchEvents } from "../../src/query/search.js";

let corpus: RankingCorpus;
beforeAll(async () => {
	corpus = await buildRankingCorpus();
}, 120_000);
afterAll(() => corpus?.close());

const search = (query: string) =>
	searchEvents(
		corpus.db,
		{ query },
		{ ...evalCaller(corpus), budgets: { ...evalCaller(corpus).budgets, searchLimit: 5 } },
	).hits;
const key = (h: { sessionId: string; entryId: string }) => `${h.sessionId}/${h.entryId}`;
const target = (k: string) => corpus.targets.get(k);

describe("ranking order on the evaluation set", () => {
	it.each([
		["custom provider api key", "customProvider", "user_text"],
		["default model thinking level", "thinkingLevel", "assistant_text"],
		["export html", "compactionHtml", "compaction_summary"],
		["bash output truncated", "branchTruncated", "branch_summary"],
		["model cycling scoped", "sessionNameCycling", "session_name"],
	])("%s → the short statement first, then only tool output", (query, k, kind) => {
		const hits = search(query);
		expect(key(hits[0])).toBe(target(k));
		expect(hits[0].semanticKind).toBe(kind);
		expect(hits.length).toBe(5);
		// The long outputs that merely contain the words come after it, all of them.
		for (const h of hits.slice(1)) expect(["tool_result", "bash_output"]).toContain(h.semanticKind);
	});

	it.each([
		["setLockAsCompromised", "lockfileSource"],
		["parseTableDefinition", "tableSource"],
		["table definition", "tableSource"],
		["return callback", "lockfileSource"],
	])("%s → the file read that holds it first (tool output is not buried)", (query, k) => {
		const hits = search(query);
		expect(key(hits[0])).toBe(target(k));
		expect(hits[0]).toMatchObject({ semanticKind: "tool_result", toolName: "read" });
	});

	it("reaches recall@5 = 100 % and MRR ≥ 0.9, well above plain bm25 on the same set", () => {
		const r = evaluate(corpus);
		expect(r.problems).toEqual([]);
		expect(r.outcomes.filter((o) => o.shape === "statement").length).toBeGreaterThanOrEqual(20);
		expect(r.outcomes.filter((o) => o.shape === "tool-output").length).toBeGreaterThanOrEqual(5);
		// Every statement query's words are scattered through long outputs of several sessions.
		for (const o of r.outcomes.filter((x) => x.shape === "statement")) expect(o.longOutputSessions).toBeGreaterThan(1);
		const [ours, bm25] = r.rows;
		expect(ours.recallAt5).toBe(1);
		expect(ours.mrr).toBeGreaterThanOrEqual(0.9);
		expect(ours.recallAt1).toBeGreaterThan(bm25.recallAt1);
		expect(ours.mrr).toBeGreaterThan(bm25.mrr);
		// Plain bm25 really does bury statements (the set is not trivially easy).
		expect(r.outcomes.filter((o) => o.bm25Rank === null || o.bm25Rank > 5).length).toBeGreaterThanOrEqual(5);
		const rows = rankingFigureRows({
			queries: r.outcomes.length,
			statementQueries: 0,
			toolOutputQueries: 0,
			rows: r.rows,
			outcomes: r.outcomes,
			problems: r.problems,
			timings: { buildMs: 0, queryMs: 0, bm25Ms: 0 },
		});
		expect(rows.map((x) => x.met)).toEqual([null, true, true]);
		expect(EVAL_QUERIES.length).toBe(r.outcomes.length);
	});
});
