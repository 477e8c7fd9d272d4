/**
 * The ranking's pure parts: kind weights, length factor, proximity, the final order, and the weighted bm25 of the
 * rank columns (evaluated by real SQLite on the table the migrations create).
 */
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SEMANTIC_KINDS } from "../../src/contract.js";
import {
	FTS_COLUMNS,
	kindWeight,
	lengthFactor,
	proximityBonus,
	proximityTargets,
	RANK_COLUMNS,
	type RankCandidate,
	RERANK_FRAGMENT_CHARS,
	RERANK_LIMIT,
	rankCandidates,
	rankColumnIndex,
	WEIGHTED_BM25_RANK,
} from "../../src/query/rank.js";
import { occurrences, proximitySlack } from "../../src/query/rank-proximity.js";
import { STORED_HEAD_CHARS } from "../../src/store/fragment-text.js";
import { knownMigrations } from "../../src/store/migrations.js";

const phrases = (q: string) => q.split(" ").map((t) => [t]);

function candidate(over: Partial<RankCandidate>): RankCandidate {
	return {
		fragmentId: 1,
		score: -5,
		charCount: 100,
		timestamp: "2026-01-01T00:00:00.000Z",
		sessionId: "s",
		sourceId: 1,
		seq: 0,
		ord: 0,
		kind: "user_text",
		...over,
	};
}

describe("weights and length", () => {
	it("orders kinds: conversation above tool calls above tool output", () => {
		for (const k of ["user_text", "assistant_text", "compaction_summary", "branch_summary", "custom_message"]) {
			expect(kindWeight(k)).toBeGreaterThan(kindWeight("tool_call"));
		}
		expect(kindWeight("session_name")).toBeGreaterThan(kindWeight("bash_command"));
		expect(kindWeight("tool_call")).toBeGreaterThan(kindWeight("tool_result"));
		expect(kindWeight("bash_command")).toBeGreaterThan(kindWeight("bash_output"));
		expect(kindWeight("a_future_kind")).toBe(kindWeight("tool_result"));
	});

	it("leaves short fragments alone and shrinks long ones by 1/√2 per doubling", () => {
		expect(lengthFactor(20)).toBe(1);
		expect(lengthFactor(1000)).toBe(1);
		expect(lengthFactor(1001)).toBeCloseTo(Math.SQRT1_2);
		expect(lengthFactor(40_000)).toBeCloseTo(0.125);
		expect(lengthFactor(10_000_000)).toBeLessThan(lengthFactor(600_000));
	});

	it("stores each fragment in the column weighted kindWeight × lengthFactor, as migration 0006 declares them", () => {
		for (const kind of [...SEMANTIC_KINDS, "unknown_kind"]) {
			for (const len of [0, 999, 1000, 1001, 4000, 40_000, 2_000_000]) {
				expect(RANK_COLUMNS[rankColumnIndex(kind, len)].weight).toBeCloseTo(kindWeight(kind) * lengthFactor(len), 12);
			}
		}
		const sql = readFileSync(new URL("../../migrations/0006_lean_rows.sql", import.meta.url), "utf8");
		expect(sql).toContain(`USING fts5(${FTS_COLUMNS.map((c) => c.name).join(", ")}, content=`);
		expect(FTS_COLUMNS[0]).toEqual({ name: "tags", weight: 0 });
	});

	it("real SQLite's weighted bm25 puts a 20-word statement above a 40,000-character output that plain bm25 prefers", () => {
		const db = new Database(":memory:");
		for (const { tag } of knownMigrations()) {
			const sql = readFileSync(new URL(`../../migrations/${tag}.sql`, import.meta.url), "utf8");
			for (const stmt of sql.split("--> statement-breakpoint")) db.exec(stmt);
		}
		const put = (id: number, kind: string, text: string) =>
			db
				.prepare(
					`INSERT INTO fragments_fts (rowid, ${RANK_COLUMNS[rankColumnIndex(kind, text.length)].name}) VALUES (?, ?)`,
				)
				.run(id, text);
		put(1, "user_text", "we agreed the lighthouse deploy waits for the staging sign off from ops before friday");
		put(2, "tool_result", `${"lighthouse deploy log line with other words ".repeat(900)}`);
		for (let i = 3; i < 40; i++) put(i, "assistant_text", `unrelated filler number ${i}`);
		const order = (rank: string) =>
			db
				.prepare(
					"SELECT rowid FROM fragments_fts WHERE fragments_fts MATCH 'lighthouse deploy' AND rank MATCH ? ORDER BY rank",
				)
				.pluck()
				.all(rank);
		expect(order("bm25()")).toEqual([2, 1]);
		expect(order(WEIGHTED_BM25_RANK)).toEqual([1, 2]);
		db.close();
	});
});

describe("proximity", () => {
	it("measures extra tokens between the terms in the tightest window", () => {
		expect(proximitySlack("run the schema migration lock now", phrases("schema migration lock"))).toBe(0);
		expect(proximitySlack("schema, then the migration under the lock", phrases("schema migration lock"))).toBe(4);
		// The tightest window wins over the first occurrences.
		expect(proximitySlack(`lock ${"word ".repeat(50)} schema lock`, phrases("schema lock"))).toBe(0);
	});

	it("is undefined for one phrase, a missing term, or a window too wide to be close", () => {
		expect(proximitySlack("schema migration", [["schema", "migration"]])).toBeUndefined();
		expect(proximitySlack("schema only", phrases("schema lock"))).toBeUndefined();
		expect(proximitySlack(`schema ${"filler ".repeat(800)} lock`, phrases("schema lock"))).toBeUndefined();
	});

	it("matches whole tokens only, folds case and accents, and finds CJK bigrams inside runs", () => {
		expect(occurrences("block lock locks lock_x", "lock")).toEqual([6, 17]);
		expect(proximitySlack("the CAFÉ Menu", phrases("cafe menu"))).toBe(0);
		expect(proximitySlack("我们的数据库连接失败了", phrases("数据 连接"))).toBe(0);
	});

	it("gives the full bonus to adjacent terms and none outside the window", () => {
		expect(proximityBonus(0)).toBe(1);
		expect(proximityBonus(6)).toBeCloseTo(0.5);
		expect(proximityBonus(12)).toBe(0);
		expect(proximityBonus(undefined)).toBe(0);
	});

	it("reads text for a bounded prefix of the candidates only, and none for a one-term query", () => {
		const many = Array.from({ length: 500 }, (_, i) => candidate({ fragmentId: i, charCount: 10 }));
		expect(proximityTargets(many, 1)).toEqual([]);
		expect(proximityTargets(many, 2)).toEqual(many.slice(0, RERANK_LIMIT).map((c) => c.fragmentId));
		// Long texts cost no more: proximity reads the head the index stores of each, never the session file.
		expect(RERANK_FRAGMENT_CHARS).toBe(STORED_HEAD_CHARS);
	});
});

describe("rankCandidates", () => {
	it("lets proximity lift the output that holds the terms side by side over one that scatters them", () => {
		const scattered = candidate({ fragmentId: 1, score: -6, charCount: 3000, kind: "tool_result" });
		const adjacent = candidate({ fragmentId: 2, score: -5, charCount: 3000, kind: "tool_result" });
		const texts = new Map([
			[1, `table ${"x ".repeat(40)} definition`],
			[2, "the table definition is checked"],
		]);
		expect(rankCandidates([scattered, adjacent], phrases("table definition"), texts).map((c) => c.fragmentId)).toEqual([
			2, 1,
		]);
		// Without text (beyond the re-rank bound) bm25 order stands.
		expect(rankCandidates([scattered, adjacent], phrases("table definition")).map((c) => c.fragmentId)).toEqual([1, 2]);
	});

	it("breaks ties by newer timestamp, then session id, then file order", () => {
		const a = candidate({ fragmentId: 1, timestamp: "2026-01-01T00:00:00.000Z", sessionId: "b" });
		const b = candidate({ fragmentId: 2, timestamp: "2026-02-01T00:00:00.000Z", sessionId: "b" });
		const c = candidate({ fragmentId: 3, timestamp: "2026-01-01T00:00:00.000Z", sessionId: "a" });
		const d = candidate({ fragmentId: 4, timestamp: "2026-01-01T00:00:00.000Z", sessionId: "a", seq: 1 });
		expect(rankCandidates([d, a, c, b]).map((x) => x.fragmentId)).toEqual([2, 3, 4, 1]);
	});
});
