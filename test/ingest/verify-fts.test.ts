/**
 * `verify` checks the FTS index row by row, not by count: an FTS row missing for one fragment and another left for a
 * fragment that is gone keep the counts equal, and still are two differences (real store, rows edited behind it).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyIndex } from "../../src/ingest/verify.js";
import { lineFactory } from "../helpers/session-lines.js";
import { storeWithSession, type TempStore } from "../helpers/temp-store.js";

let store: TempStore;
const roots = () => [{ path: join(store.dir, "sessions"), subfolders: false }];

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	store = await storeWithSession([f.header(), f.user("the first question"), f.assistant("the first answer")]);
});
afterAll(() => store.cleanup());

describe("verify and the FTS index", () => {
	it("regression: reports an FTS row moved to an id no fragment has, though the counts agree", () => {
		expect(verifyIndex(store.db, roots()).differences).toEqual([]);
		const id = (store.db.prepare("SELECT max(id) AS id FROM fragments").get() as { id: number }).id;
		store.db.prepare("DELETE FROM fragments_fts WHERE rowid = ?").run(id);
		store.db.prepare("INSERT INTO fragments_fts (rowid, body, tags) VALUES (?, 'stray words', '')").run(id + 1_000_000);
		const fts = verifyIndex(store.db, roots()).differences.filter((d) => d.kind === "fts-differs");
		expect(fts.map((d) => d.detail)).toEqual(["1 fragment without its FTS row, 1 FTS row without a fragment"]);
	});
});
