/**
 * Fork copies whose original is gone: two forks of one parent (Pi 0.73.1's `createBranchedSession` and `forkFrom`
 * fixtures; the parent file is not on disk) each hold a verbatim copy of the parent's first question. A search shows
 * it once, in the earlier fork, naming the other copy; each copy stays findable in its own session.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import { searchEvents } from "../../../src/query/search.js";
import { ALL_ROOTS_CALLER, type TempStore, tempStore } from "../../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../../fixtures/pi-0.73.1");
const BRANCHED = "01a236bd-dcdd-7461-8f45-9c840ed959e6"; // header timestamp 12:32:22.238Z
const FORK_FROM = "01a236bd-dce0-7166-9686-a20b6acb7c19"; // 12:32:22.240Z

let store: TempStore;
const caller = ALL_ROOTS_CALLER;

beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir);
	for (const f of ["createBranchedSession-fork.jsonl", "forkFrom-copy.jsonl"]) {
		copyFileSync(join(FIXTURES, f), join(dir, f));
		await new SourceSyncer(store.db).sync(join(dir, f));
	}
});
afterAll(() => store.cleanup());

describe("fork siblings", () => {
	it("regression: a copy in two forks of a missing parent shows once, in the earlier fork, naming the other", () => {
		const r = searchEvents(store.db, { query: '"first question"' }, caller);
		expect(r.hits.map((h) => h.sessionId)).toEqual([BRANCHED]);
		expect(r.hits[0].forkCopies).toEqual([{ sessionId: FORK_FROM, entryId: "a1f8265b" }]);
	});

	it("each copy stays findable in its own session", () => {
		const r = searchEvents(store.db, { query: '"first question"', sessionId: FORK_FROM }, caller);
		expect(r.hits.map((h) => `${h.sessionId}/${h.entryId}`)).toEqual([`${FORK_FROM}/a1f8265b`]);
	});
});
