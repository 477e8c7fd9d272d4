/**
 * The plan a catch-up makes before it writes or locks anything (catch-up-plan.ts), on a real index of real files:
 * empty only when a pass would change nothing, so a caller that skips the pass on an empty plan never misses a line.
 */
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { catchUp } from "../../src/ingest/catch-up.js";
import { planIsEmpty, planPass } from "../../src/ingest/catch-up-plan.js";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { isStoreDamage } from "../../src/store/db.js";
import { KNOWN_SOURCES_KEY } from "../../src/store/source-counts.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/pi-0.73.1");

let root: string;
let folder: string;
let manager: IndexManager;

const roots = () => [{ path: folder, subfolders: false }];
const plan = () => planPass(manager.store.db, { roots: roots() });

beforeEach(async () => {
	root = await tempDir();
	folder = join(root, "sessions", "--home-dev-project--");
	mkdirSync(folder, { recursive: true });
	for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(folder, f));
	manager = await IndexManager.open({ indexDir: join(root, "event-index"), roots: roots(), useWorker: false });
	expect((await manager.startCatchUp()).kind).toBe("done");
});
afterEach(async () => {
	await manager.close();
	rmSync(root, { recursive: true, force: true });
});

describe("the catch-up plan", () => {
	it("is empty on an index a pass just caught up, and names an appended, a new and a gone file", () => {
		expect(planIsEmpty(manager.store.db, plan())).toBe(true);
		const [first, second] = readdirSync(folder).map((f) => join(folder, f));
		appendFileSync(first as string, lineFactory({ prefix: "p" }).user("one more line"));
		unlinkSync(second as string);
		const fresh = lineFactory({ prefix: "f" });
		appendFileSync(join(folder, "fresh.jsonl"), fresh.header() + fresh.user("new session"));
		const p = plan();
		expect(p.work.map((f) => f.path).sort()).toEqual([first, join(folder, "fresh.jsonl")].sort());
		expect(p.vanished).toEqual([second]);
		expect(planIsEmpty(manager.store.db, p)).toBe(false);
	});

	it("regression: is empty after a pass over files whose names hold a newline, a tab, quotes and a backslash (node:sqlite cut the stored paths at a NUL)", async () => {
		for (const name of ["odd\nname.jsonl", 'tab\tand "quotes".jsonl', "back\\slash 'é'.jsonl"]) {
			const lines = lineFactory({ prefix: name.slice(0, 3) });
			appendFileSync(join(folder, name), lines.header() + lines.user(`in ${name}`));
		}
		expect(plan().work).toHaveLength(3);
		expect((await manager.startCatchUp()).kind).toBe("done");
		expect(planIsEmpty(manager.store.db, plan())).toBe(true);
	});

	it("is not empty while the store's two files disagree, or the stored count of files is not discovery's", () => {
		const db = manager.store.db;
		const seq = db.prepare("SELECT value FROM main.meta WHERE key = 'fts_seq'").get() as { value: string };
		db.prepare("UPDATE main.meta SET value = ? WHERE key = 'fts_seq'").run(String(Number(seq.value) + 1));
		expect(planIsEmpty(db, plan())).toBe(false);
		db.prepare("UPDATE main.meta SET value = ? WHERE key = 'fts_seq'").run(seq.value);
		expect(planIsEmpty(db, plan())).toBe(true);
		db.prepare("UPDATE meta SET value = '999' WHERE key = ?").run(KNOWN_SOURCES_KEY);
		expect(plan().countChanged).toBe(true);
		expect(planIsEmpty(db, plan())).toBe(false);
	});

	it("handed to the pass, is its discovery; after a torn transaction is repaired the pass discovers again", async () => {
		const db = manager.store.db;
		const [first] = readdirSync(folder).map((f) => join(folder, f));
		appendFileSync(first as string, lineFactory({ prefix: "p" }).user("planned line"));
		const planned = plan();
		expect(planned.work.map((f) => f.path)).toEqual([first]);
		// Started after the plan: this pass leaves it to the next, as one started just after discovery.
		const late = lineFactory({ prefix: "q" });
		appendFileSync(join(folder, "late.jsonl"), late.header() + late.user("late session"));
		const rowOf = (path: string) => db.prepare("SELECT synced_at AS syncedAt FROM sources WHERE path = ?").get(path);
		const passed = await catchUp(db, { roots: roots() }, planned);
		expect(passed.indexed).toBe(1);
		expect(rowOf(join(folder, "late.jsonl"))).toBeUndefined();
		expect(planIsEmpty(db, plan())).toBe(false);
		// A torn transaction repaired by the pass may have dropped sources the plan took as synced: it is not used.
		const seq = db.prepare("SELECT value FROM main.meta WHERE key = 'fts_seq'").get() as { value: string };
		db.prepare("UPDATE main.meta SET value = ? WHERE key = 'fts_seq'").run(String(Number(seq.value) + 1));
		const stale = { ...planned, work: [] };
		await catchUp(db, { roots: roots() }, stale);
		expect(rowOf(join(folder, "late.jsonl"))).toMatchObject({ syncedAt: expect.any(Number) });
		expect(planIsEmpty(db, plan())).toBe(true);
	});

	it("a catch-up in the worker thread (Pi's, at session start) that finds nothing to do writes nothing", async () => {
		const version = () =>
			(manager.store.db.prepare("PRAGMA data_version").get() as { data_version: number }).data_version;
		const before = version();
		const pi = await IndexManager.open({ indexDir: join(root, "event-index"), roots: roots() });
		try {
			const outcome = await pi.startCatchUp();
			expect(outcome).toMatchObject({ kind: "done", result: { total: 0, indexed: 0 } });
			// No other connection committed anything: not even the count of files.
			expect(version()).toBe(before);
			appendFileSync(
				readdirSync(folder).map((f) => join(folder, f))[0] as string,
				lineFactory({ prefix: "w" }).user("more"),
			);
			expect(await pi.startCatchUp()).toMatchObject({ kind: "done", result: { indexed: 1 } });
			expect(version()).not.toBe(before);
		} finally {
			await pi.close();
		}
	});

	it("regression: a BLOB read from a damaged sources page is store damage, not a failed catch-up (JSON cannot hold it)", () => {
		const db = manager.store.db;
		db.prepare("UPDATE sources SET confined_to = x'00ff' WHERE id = (SELECT min(id) FROM sources)").run();
		let thrown: unknown;
		try {
			plan();
		} catch (err) {
			thrown = err;
		}
		expect(isStoreDamage(thrown)).toBe(true);
	});

	it("takes a symbolic link in a session folder for no session file, as a listing of the folder does", () => {
		const target = join(root, "elsewhere.jsonl");
		const f = lineFactory({ prefix: "l" });
		appendFileSync(target, f.header() + f.user("linked"));
		symlinkSync(target, join(folder, "linked.jsonl"));
		expect(plan().work).toEqual([]);
		expect(planIsEmpty(manager.store.db, plan())).toBe(true);
	});
});
