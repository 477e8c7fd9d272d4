/**
 * A fork whose parent file is no longer where its header says: Pi's `forkFrom` fixture records the parent as
 * `/home/dev/.pi/agent/sessions/…/2026-12-02T12-32-22-200Z_<parent id>.jsonl`, and here both files live in a temp
 * dir (an agent dir moved, synced from another machine, or archived under a root). The parent is still the session
 * whose id that file name carries: copies fold into one hit, and traces and lineage link both ways. Parents and
 * children are found through indexes, never a scan of every source (that scan cost 3 ms a read at 10,000 sessions).
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import type { QueryDb } from "../../../src/query/db.js";
import { traceSession } from "../../../src/query/lineage.js";
import { readEvent } from "../../../src/query/read.js";
import { searchEvents } from "../../../src/query/search.js";
import { traceEvent } from "../../../src/query/trace.js";
import { ALL_ROOTS_CALLER, type TempStore, tempStore } from "../../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../../fixtures/pi-0.73.1");
const PARENT = "01a236bd-dcb7-7287-9588-bf4e8d79a767"; // rich-tree-compaction.jsonl
const CHILD = "01a236bd-dce0-7166-9686-a20b6acb7c19"; // forkFrom-copy.jsonl, a full copy of the parent
const COMPACTION = "6d35745e"; // an entry both files hold

let store: TempStore;
const caller = ALL_ROOTS_CALLER;

beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "archive", "sessions");
	mkdirSync(dir, { recursive: true });
	for (const f of ["rich-tree-compaction.jsonl", "forkFrom-copy.jsonl"]) {
		copyFileSync(join(FIXTURES, f), join(dir, f));
		await new SourceSyncer(store.db).sync(join(dir, f));
	}
});
afterAll(() => store.cleanup());

/** A connection that records the SQL of every statement prepared through it. */
function recording(db: QueryDb, statements: string[]): QueryDb {
	return {
		prepare(sql: string) {
			statements.push(sql);
			return db.prepare(sql);
		},
	};
}

describe("a fork whose parent moved", () => {
	it("regression: shows a copied entry once, in the parent, naming the child's copy", () => {
		const r = searchEvents(store.db, { query: '"compaction summary"' }, caller);
		const copies = r.hits.filter((h) => h.entryId === COMPACTION);
		expect(copies.map((h) => h.sessionId)).toEqual([PARENT]);
		expect(copies[0]?.forkCopies).toEqual([{ sessionId: CHILD, entryId: COMPACTION }]);
	});

	it("regression: a folded copy does not come back among the hits matching only some terms", () => {
		const r = searchEvents(store.db, { query: "compaction summary" }, caller);
		expect(r.relaxed).toBe(true);
		const shown = r.hits.map((h) => `${h.sessionId}/${h.entryId}`);
		expect(shown.filter((k) => k.endsWith(COMPACTION))).toEqual([`${PARENT}/${COMPACTION}`]);
		expect(r.hits[0]?.forkCopies).toEqual([{ sessionId: CHILD, entryId: COMPACTION }]);
	});

	it("traces the fork both ways and lists it in the parent's lineage", () => {
		const fromChild = traceEvent(store.db, { sessionId: CHILD, entryId: COMPACTION }, caller);
		expect(fromChild.related.filter((e) => e.kind === "session-fork-parent").map((e) => e.node?.sessionId)).toEqual([
			PARENT,
		]);
		const fromParent = traceEvent(store.db, { sessionId: PARENT, entryId: COMPACTION }, caller);
		expect(fromParent.related.filter((e) => e.kind === "session-fork-child").map((e) => e.node?.sessionId)).toEqual([
			CHILD,
		]);
		const lineage = JSON.stringify(traceSession(store.db, { sessionId: PARENT }, caller));
		expect(lineage).toContain(CHILD);
	});

	it("finds parents and children through indexes, never by scanning every source", () => {
		const statements: string[] = [];
		const db = recording(store.db, statements);
		traceEvent(db, { sessionId: CHILD, entryId: COMPACTION }, caller);
		traceEvent(db, { sessionId: PARENT, entryId: COMPACTION }, caller);
		readEvent(db, { sessionId: PARENT, entryId: COMPACTION }, caller);
		traceSession(db, { sessionId: PARENT }, caller);
		const forkQueries = statements.filter((sql) => /parent_session/.test(sql) && /FROM sources s/.test(sql));
		expect(forkQueries.length).toBeGreaterThan(0);
		for (const sql of forkQueries) {
			const plan = store.db
				.prepare(`EXPLAIN QUERY PLAN ${sql}`)
				.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => "x"))
				.map((row) => (row as { detail: string }).detail);
			expect(
				plan.filter((step) => /^SCAN s\b/.test(step) && !/USING (COVERING )?INDEX/.test(step)),
				sql,
			).toEqual([]);
		}
	});
});
