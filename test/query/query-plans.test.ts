/**
 * Regression: without ANALYZE statistics SQLite chose the primary key (source_id) over the link and tool-call
 * indexes, so a trace scanned the whole session and its cost grew with session length. Every statement that reads
 * and traces prepare is recorded on the real store and explained; none may walk all events or fragments of a source.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryDb } from "../../src/query/db.js";
import { readEvent } from "../../src/query/read.js";
import { traceEvent } from "../../src/query/trace.js";
import { type Harness, openHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
	h = await openHarness();
});
afterAll(() => h.db.close());

/** The real connection, recording the SQL of every statement prepared through it. */
function recording(db: QueryDb): { db: QueryDb; sql: Set<string> } {
	const sql = new Set<string>();
	return {
		sql,
		db: {
			prepare(text: string) {
				sql.add(text);
				return db.prepare(text);
			},
		} as QueryDb,
	};
}

/** Plan steps that walk every row of one source (or a whole table) in events or fragments (a rowid seek does not). */
function wholeSourceWalks(sql: string): string[] {
	const params = (sql.match(/\?/g) ?? []).map(() => null);
	const plan = h.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
	return plan
		.map((p) => p.detail)
		.filter((d) => /^(SCAN|SEARCH) (e|f|events|fragments)\b/.test(d) && !/\(source_id=\? AND /.test(d))
		.filter((d) => !/^SEARCH \w+ USING INTEGER PRIMARY KEY \(rowid=\?\)$/.test(d))
		.filter((d) => !/USING INDEX events_(entry|parent)|USING INDEX fragments_event_ord/.test(d) || /SCAN/.test(d));
}

describe("read and trace stay bounded by the requested window (query plans)", () => {
	it("no statement of a read or a trace walks a whole source", () => {
		const { main } = h.corpus;
		const r = recording(h.db);
		for (const entryId of Object.values(main.entries)) {
			traceEvent(r.db, { sessionId: main.id, entryId }, h.caller());
			readEvent(r.db, { sessionId: main.id, entryId, before: 2, after: 2 }, h.caller());
		}
		expect(r.sql.size).toBeGreaterThan(5);
		const offenders = [...r.sql].map((s) => ({ s, walks: wholeSourceWalks(s) })).filter((x) => x.walks.length > 0);
		expect(offenders).toEqual([]);
	});
});
