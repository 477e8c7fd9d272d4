/**
 * Coded columns (src/store/column-codes.ts): known values are stored as small integers, unknown ones as themselves
 * (numeric-looking text as bytes, so INTEGER affinity cannot turn it into another value's code), and every value
 * reads back as the text it was, through a real SQLite file and through search, read and trace.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { BRANCH_STATES, ENTRY_TYPES, MESSAGE_ROLES, SELECTION_STATES, SEMANTIC_KINDS } from "../../src/contract.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import type { CallerContext } from "../../src/query/caller.js";
import { allViaJson } from "../../src/query/db.js";
import { readEvent } from "../../src/query/read.js";
import { searchEvents } from "../../src/query/search.js";
import {
	CODED_COLUMNS,
	type CodedColumn,
	codedJsonColumn,
	codeSql,
	decodedSql,
	decodedTimestampSql,
	encodeCode,
	encodeTimestamp,
	inCodesSql,
	type JsonColumn,
	timestampBoundSql,
	timestampJsonColumn,
} from "../../src/store/column-codes.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { createGeneration } from "../../src/store/generations.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "./temp-store.js";

let dir: { dir: string; cleanup: () => void };
let db: SqliteDb;

beforeAll(async () => {
	dir = tempDir("pei-column-codes-");
	db = (await createGeneration(dir.dir)).db;
	db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
});

afterAll(() => {
	db.close();
	dir.cleanup();
});

/** Stores `value` in an INTEGER-affinity column and reads it back decoded, with its storage class. */
function roundTrip(column: CodedColumn, value: string): { text: string; storage: string } {
	const { lastInsertRowid } = db.prepare("INSERT INTO t (v) VALUES (?)").run(encodeCode(column, value));
	return db
		.prepare(`SELECT ${decodedSql(column, "v")} AS text, typeof(v) AS storage FROM t WHERE id = ?`)
		.get(lastInsertRowid) as { text: string; storage: string };
}

describe("column codes", () => {
	it("list the contract's values, each once", () => {
		expect(CODED_COLUMNS).toEqual({
			entryType: ENTRY_TYPES,
			role: MESSAGE_ROLES,
			branchState: BRANCH_STATES,
			selectionState: SELECTION_STATES,
			kind: SEMANTIC_KINDS,
		});
		for (const values of Object.values(CODED_COLUMNS)) expect(new Set(values).size).toBe(values.length);
	});

	it("store every known value as an integer and read it back as its text", () => {
		for (const [column, values] of Object.entries(CODED_COLUMNS) as [CodedColumn, readonly string[]][]) {
			for (const value of values) expect(roundTrip(column, value)).toEqual({ text: value, storage: "integer" });
		}
	});

	it("keep an unknown value as itself, numeric-looking text as bytes", () => {
		expect(roundTrip("role", "narrator")).toEqual({ text: "narrator", storage: "text" });
		expect(roundTrip("entryType", "")).toEqual({ text: "", storage: "text" });
		// As text, INTEGER affinity would store these as the numbers 2 and 1: the codes of toolResult and compaction.
		expect(roundTrip("role", "2")).toEqual({ text: "2", storage: "blob" });
		expect(roundTrip("entryType", " 1.0 ")).toEqual({ text: " 1.0 ", storage: "blob" });
	});

	it("match known values in conditions and nothing for values without a code", () => {
		db.exec("DELETE FROM t");
		for (const role of ["user", "toolResult", "narrator"])
			db.prepare("INSERT INTO t (v) VALUES (?)").run(encodeCode("role", role));
		const count = (where: string) =>
			(db.prepare(`SELECT count(*) AS n FROM t WHERE ${where}`).get() as { n: number }).n;
		expect(count(`v = ${codeSql("role", "toolResult")}`)).toBe(1);
		expect(count(inCodesSql("role", "v", ["user", "toolResult"]))).toBe(2);
		expect(count(inCodesSql("role", "v", ["narrator"]))).toBe(0);
	});
});

describe("columns read through JSON", () => {
	/** Every stored form of `values` in a fresh table: what the SQL decoder reads, and what the JSON column reads. */
	function bothReads(stored: unknown[], sqlDecoder: string, json: JsonColumn) {
		db.exec("DROP TABLE IF EXISTS j; CREATE TABLE j (id INTEGER PRIMARY KEY, v INTEGER)");
		const put = db.prepare("INSERT INTO j (v) VALUES (?)");
		for (const v of stored) put.run(v);
		const bySql = db.prepare(`SELECT id, ${sqlDecoder} AS v FROM j ORDER BY id`).all();
		return { bySql, byJson: allViaJson(db, { id: "id", v: json }, "FROM j ORDER BY id") };
	}

	it("read every coded value, an unknown one and numeric-looking bytes as the SQL decoder does", () => {
		for (const column of Object.keys(CODED_COLUMNS) as CodedColumn[]) {
			const values = [...CODED_COLUMNS[column], "system", "42", "", "0"];
			const stored = [...values.map((v) => encodeCode(column, v)), null, 999];
			const { bySql, byJson } = bothReads(stored, decodedSql(column, "v"), codedJsonColumn(column, "v"));
			expect(byJson, column).toEqual(bySql);
			expect(byJson.slice(0, values.length).map((r) => (r as { v: unknown }).v)).toEqual(values);
		}
	});

	it("read timestamps, as numbers and as text or bytes, as the SQL decoder does", () => {
		const texts = [
			"2026-01-01T10:00:00.000Z",
			"0000-01-01T00:00:00.000Z",
			"9999-12-31T23:59:59.999Z",
			"yesterday",
			"1718000000",
		];
		const { bySql, byJson } = bothReads(
			[...texts.map(encodeTimestamp), null],
			decodedTimestampSql("v"),
			timestampJsonColumn("v"),
		);
		expect(byJson).toEqual(bySql);
		expect(byJson.slice(0, texts.length).map((r) => (r as { v: unknown }).v)).toEqual(texts);
	});
});

describe("timestamps", () => {
	/** Stores `text` as an entry timestamp and reads it back, with its storage class. */
	function timestampRoundTrip(text: string): { text: string; storage: string } {
		const { lastInsertRowid } = db.prepare("INSERT INTO t (v) VALUES (?)").run(encodeTimestamp(text));
		return db
			.prepare(`SELECT ${decodedTimestampSql("v")} AS text, typeof(v) AS storage FROM t WHERE id = ?`)
			.get(lastInsertRowid) as { text: string; storage: string };
	}

	it("store toISOString's form as epoch ms and read back the same text, for years 0000-9999", () => {
		const edges = [0, 1, 999, -1, -62_167_219_200_000, 253_402_300_799_999, 1_718_000_000_123, 951_782_400_000];
		let seed = 7;
		const random = () => {
			seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
			return seed / 2 ** 31;
		};
		const spread = Array.from({ length: 2_000 }, () =>
			Math.floor(-62_167_219_200_000 + random() * 315_569_520_000_000),
		);
		for (const ms of [...edges, ...spread]) {
			const iso = new Date(ms).toISOString();
			expect(timestampRoundTrip(iso), iso).toEqual({ text: iso, storage: "integer" });
		}
	});

	it("store exactly the texts Date round-trips as numbers (regression: the per-day fast path)", () => {
		// The reference: a Date for every text, as encodeTimestamp once did.
		const reference = (text: string) => {
			const ms = Date.parse(text);
			return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text) &&
				!Number.isNaN(ms) &&
				new Date(ms).toISOString() === text
				? ms
				: text;
		};
		const days = ["2024-02-29", "2023-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "0000-01-01", "0099-12-31"];
		const times = ["00:00:00.000", "23:59:59.999", "24:00:00.000", "12:60:00.000", "12:00:60.000", "07:08:09.010"];
		for (const day of days)
			for (const time of times) {
				const text = `${day}T${time}Z`;
				const want = reference(text);
				expect(encodeTimestamp(text), text).toEqual(typeof want === "number" ? want : text);
			}
	});

	it("keep any other form as it was written", () => {
		for (const text of [
			"2026-01-01T00:00:00Z",
			"2026-01-01T01:00:00.000+01:00",
			"+012345-01-01T00:00:00.000Z",
			"yesterday",
			"",
		])
			expect(timestampRoundTrip(text)).toEqual({ text, storage: "text" });
		expect(timestampRoundTrip("1718000000")).toEqual({ text: "1718000000", storage: "blob" });
	});

	it("bound instants by time and text timestamps by text", () => {
		db.exec("DELETE FROM t");
		for (const text of ["2026-01-01T10:00:00.000Z", "2026-01-02T10:00:00.000Z", "2026-01-01T12:00:00Z"])
			db.prepare("INSERT INTO t (v) VALUES (?)").run(encodeTimestamp(text));
		const within = (from: string, to: string) => {
			const a = timestampBoundSql("v", ">=", from);
			const b = timestampBoundSql("v", "<=", to);
			return (
				db
					.prepare(`SELECT ${decodedTimestampSql("v")} AS text FROM t WHERE ${a.sql} AND ${b.sql} ORDER BY id`)
					.all(...a.params, ...b.params) as { text: string }[]
			).map((r) => r.text);
		};
		expect(within("2026-01-01T10:00:00.000Z", "2026-01-01T23:59:59.999Z")).toEqual([
			"2026-01-01T10:00:00.000Z",
			"2026-01-01T12:00:00Z",
		]);
		expect(within("2026-01-01T10:00:00.001Z", "2026-01-02T10:00:00.000Z")).toEqual([
			"2026-01-02T10:00:00.000Z",
			"2026-01-01T12:00:00Z",
		]);
	});
});

describe("an unknown role through ingest, search and read", () => {
	const session = tempDir("pei-column-codes-session-");
	const cwd = "/home/dev/project";
	const caller: CallerContext = { cwd, authorization: { extraRoots: [], allRoots: true }, budgets: DEFAULT_BUDGETS };

	afterAll(() => session.cleanup());

	it("reads back the role and kind the file gave", async () => {
		const lines = lineFactory({ cwd });
		const header = lines.header();
		const userId = lines.nextId;
		const user = lines.user("the ocelot question");
		// A message of a role this version has no code for, numeric-looking on purpose.
		const oddId = lines.nextId;
		const odd = lines.user("an ocelot answer").replace('"role":"user"', '"role":"2"');
		const file = join(session.dir, "odd-role.jsonl");
		writeFileSync(file, header + user + odd);
		expect((await new SourceSyncer(db).sync(file)).status).toBe("indexed");
		const sessionId = (JSON.parse(header) as { id: string }).id;

		const found = searchEvents(db, { query: "ocelot" }, caller);
		expect(new Map(found.hits.map((h) => [h.entryId, h.role]))).toEqual(
			new Map([
				[userId, "user"],
				[oddId, "2"],
			]),
		);
		// The role filter matches known roles by code; the odd one is not a toolResult.
		expect(searchEvents(db, { query: "ocelot", roles: ["toolResult"] }, caller).hits).toEqual([]);
		expect(searchEvents(db, { query: "ocelot", roles: ["user"] }, caller).hits.map((h) => h.entryId)).toEqual([userId]);
		const read = readEvent(db, { sessionId, entryId: userId }, caller);
		expect(read.event.role).toBe("user");
		expect(read.event.entryType).toBe("message");
		expect(read.fragments[0]?.semanticKind).toBe("user_text");
		expect(read.event.branchState).toBe("selected");
		expect(read.event.selectionState).toBe("direct");
		expect(read.event.timestamp).toBe((JSON.parse(user) as { timestamp: string }).timestamp);
		const day = read.event.timestamp.slice(0, 10);
		const inDay = { from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z` };
		expect(searchEvents(db, { query: "ocelot", time: inDay }, caller).hits).toHaveLength(2);
		const justBefore = new Date(Date.parse(read.event.timestamp) - 1).toISOString();
		expect(searchEvents(db, { query: "ocelot", time: { to: justBefore } }, caller).hits).toEqual([]);
		const atFirst = { to: read.event.timestamp };
		expect(searchEvents(db, { query: "ocelot", time: atFirst }, caller).hits.map((h) => h.entryId)).toEqual([userId]);
	});
});
