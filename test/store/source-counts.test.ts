/**
 * Coverage (src/store/source-counts.ts) is computed for every search and every tool call: its statements are prepared
 * once per connection, and a coverage taken after a sync on that connection still counts what the sync did.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { computeCoverage, KNOWN_SOURCES_KEY } from "../../src/store/source-counts.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempGeneration } from "./temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

/** `db` with every prepare counted (the statements themselves are the connection's own). */
function countingPrepares(db: SqliteDb) {
	const prepared: string[] = [];
	const wrapped = {
		prepare(sql: string) {
			prepared.push(sql);
			return db.prepare(sql);
		},
	};
	return { wrapped, prepared };
}

describe("coverage", () => {
	it("prepares its statements once per connection and counts each sync", async () => {
		const { db, sessions } = await tempGeneration("pei-coverage-", cleanups);
		db.prepare("INSERT INTO meta (key, value) VALUES (?, '2')").run(KNOWN_SOURCES_KEY);
		const { wrapped, prepared } = countingPrepares(db);
		const lines = lineFactory({ prefix: "a" });
		const a = join(sessions, "a.jsonl");
		writeFileSync(a, lines.header() + lines.user("the first question"));

		expect(computeCoverage(wrapped)).toMatchObject({ known: 2, indexed: 0, pending: 2, partial: true });
		const first = prepared.length;
		expect(first).toBeGreaterThan(0);
		expect((await new SourceSyncer(db).sync(a)).status).toBe("indexed");
		expect(computeCoverage(wrapped)).toMatchObject({ known: 2, indexed: 1, pending: 1, partial: true });
		const b = join(sessions, "b.jsonl");
		const other = lineFactory({ prefix: "b" });
		writeFileSync(b, other.header() + other.user("the second question"));
		expect((await new SourceSyncer(db).sync(b)).status).toBe("indexed");
		expect(computeCoverage(wrapped)).toMatchObject({ known: 2, indexed: 2, pending: 0, partial: false });
		expect(prepared.length).toBe(first);
	});
});
