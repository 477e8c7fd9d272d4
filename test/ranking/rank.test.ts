/**
 * The ranking's pure parts: kind weights, length factor, proximity, the final order, and the weighted bm25 of the
 * row weights carried by fragment ids (evaluated by real SQLite on the table the migrations create).
 */
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SEMANTIC_KINDS } from "../../src/contract.js";
import {
	proximityBonus,
	proximityTargets,
	type RankCandidate,
	RERANK_FRAGMENT_CHARS,
	RERANK_LIMIT,
	rankCandidates,
} from "../../src/query/rank.js";
import { occurrences, proximitySlack } from "../../src/query/rank-proximity.js";
import type { SqliteDb } from "../../src/store/driver.js";
import {
	FTS_COLUMNS,
	ID_STRIDE,
	kindWeight,
	lengthFactor,
	rowWeight,
	rowWeightOfId,
	WEIGHT_CLASSES,
	WEIGHTED_BM25,
	weightClass,
} from "../../src/store/fragment-ids.js";
import { knownMigrations } from "../../src/store/migrations.js";
import { STORED_HEAD_CHARS } from "../../src/text/stored-head.js";
import { classWeightedBm25 } from "../helpers/class-weighted-bm25.js";

/** An in-memory database with every migration applied, as a store has. */
function migratedMemoryDb(): Database.Database {
	const db = new Database(":memory:");
	// Where every store connection has its full-text file (store/db.ts).
	db.exec("ATTACH ':memory:' AS fts");
	for (const { tag } of knownMigrations()) {
		const sql = readFileSync(new URL(`../../migrations/${tag}.sql`, import.meta.url), "utf8");
		for (const stmt of sql.split("--> statement-breakpoint")) db.exec(stmt);
	}
	return db;
}

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

	it("gives each fragment the weight class of kindWeight × lengthFactor, carried in its id (modulo ID_STRIDE)", () => {
		expect(WEIGHT_CLASSES).toHaveLength(ID_STRIDE);
		for (const kind of [...SEMANTIC_KINDS, "unknown_kind"]) {
			for (const len of [0, 999, 1000, 1001, 4000, 40_000, 2_000_000]) {
				const cls = weightClass(kind, len);
				expect(WEIGHT_CLASSES[cls]).toBeCloseTo(kindWeight(kind) * lengthFactor(len), 12);
				expect(rowWeightOfId(7 * ID_STRIDE + cls)).toBeCloseTo(kindWeight(kind) * lengthFactor(len), 12);
			}
		}
		const sql = readFileSync(new URL("../../migrations/0012_fts_file.sql", import.meta.url), "utf8");
		expect(sql).toContain(`USING fts5(${FTS_COLUMNS.join(", ")}, content=`);
		expect(FTS_COLUMNS).toEqual(["body", "tags"]);
	});

	it("weights each row in SQL (WEIGHTED_BM25) by its id's class, as bm25 with that weight as a literal does", () => {
		const db = migratedMemoryDb();
		const insert = db.prepare("INSERT INTO fragments_fts (rowid, body, tags) VALUES (?, ?, ?)");
		// One row per class: the same text, different weights.
		const classes = [...WEIGHT_CLASSES.keys()];
		for (const cls of classes) insert.run((cls + 1) * ID_STRIDE + cls, "alpha beta gamma", "zzt1");
		// Rows without the word, so its idf is above bm25's floor and the weights show in the scores.
		for (let slot = 100; slot < 200; slot++) insert.run(slot * ID_STRIDE, "delta epsilon", "zzt1");
		const scores = db
			.prepare(`SELECT rowid AS id, ${WEIGHTED_BM25} AS score FROM fragments_fts WHERE fragments_fts MATCH 'alpha'`)
			.all() as Array<{ id: number; score: number }>;
		expect(scores).toHaveLength(classes.length);
		const literal = classWeightedBm25(db as unknown as SqliteDb, "alpha");
		for (const { id, score } of scores) expect(score).toBeCloseTo(literal.get(id) ?? Number.NaN, 12);
		// The weights differ, so the scores do: each row's own class weight was applied.
		expect(new Set(scores.map((r) => r.score.toFixed(9))).size).toBeGreaterThan(WEIGHT_CLASSES.length / 2);
		expect(rowWeight(WEIGHT_CLASSES.length)).toBe(kindWeight("a_future_kind"));
		db.close();
	});

	it("real SQLite's weighted bm25 puts a 20-word statement above a 40,000-character output that plain bm25 prefers", () => {
		const db = migratedMemoryDb();
		const put = (slot: number, kind: string, text: string) =>
			db
				.prepare("INSERT INTO fragments_fts (rowid, body) VALUES (?, ?)")
				.run(slot * ID_STRIDE + weightClass(kind, text.length), text);
		put(1, "user_text", "we agreed the lighthouse deploy waits for the staging sign off from ops before friday");
		put(2, "tool_result", `${"lighthouse deploy log line with other words ".repeat(900)}`);
		for (let i = 3; i < 40; i++) put(i, "assistant_text", `unrelated filler number ${i}`);
		const order = (score: string) =>
			(
				db
					.prepare(`SELECT rowid FROM fragments_fts WHERE fragments_fts MATCH 'lighthouse deploy' ORDER BY ${score}`)
					.pluck()
					.all() as number[]
			).map((id) => Math.floor(id / ID_STRIDE));
		expect(order("bm25(fragments_fts)")).toEqual([2, 1]);
		expect(order(WEIGHTED_BM25)).toEqual([1, 2]);
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
