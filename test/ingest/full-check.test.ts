/**
 * A plan before an answer trusts the last full check that found nothing to do (full-check.ts) for files idle an hour,
 * within its window, and only while nothing it recorded changed: the folders, the recent files, the stored sources,
 * the scope, the generation and the store's two files. Real files and a real index; a file made idle by setting its
 * mtime two hours back. Each test first appends to an idle file (which the trusted check does not see) and then
 * shows that its change sends the plan to a full check (which does).
 */
import {
	appendFileSync,
	copyFileSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type IdleTrust, type PlanOptions, planUnlessIdle } from "../../src/ingest/catch-up-plan.js";
import { fullCheckFile, readFullCheck, scopeOf } from "../../src/ingest/full-check.js";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/pi-0.73.1");
const HOURS_AGO = (h: number) => new Date(Date.now() - h * 3_600_000);

let root: string;
let folder: string;
let indexDir: string;
let manager: IndexManager;
let idle: string;
let recent: string;

const options = (): PlanOptions => ({ roots: [{ path: folder, subfolders: false }] });
const trust = (trustMs = 60_000): IdleTrust => ({ indexDir, generation: manager.store.generation, trustMs });
const planned = (o = options(), t = trust()) => planUnlessIdle(manager.store.db, o, t)?.work.map((f) => f.path) ?? [];
const appendTo = (path: string, text: string) => appendFileSync(path, lineFactory({ prefix: text }).user(text));
/** An append to the idle file, as a writer other than a Pi with this extension makes it: mtime now, folder unchanged. */
const appendToIdle = () => appendTo(idle, "late");

beforeEach(async () => {
	root = await tempDir();
	folder = join(root, "sessions", "--home-dev-project--");
	indexDir = join(root, "event-index");
	mkdirSync(folder, { recursive: true });
	const names = readdirSync(FIXTURES);
	for (const f of names) copyFileSync(join(FIXTURES, f), join(folder, f));
	[idle, recent] = names.map((f) => join(folder, f)) as [string, string];
	// Every file but `recent` idle for two hours; the folder changed long before the check (not "racy").
	for (const f of names) if (join(folder, f) !== recent) utimesSync(join(folder, f), HOURS_AGO(2), HOURS_AGO(2));
	utimesSync(folder, HOURS_AGO(3), HOURS_AGO(3));
	manager = await IndexManager.open({ indexDir, roots: options().roots, useWorker: false });
	expect((await manager.startCatchUp()).kind).toBe("done");
	// The full check that finds nothing to do is recorded.
	expect(planned()).toEqual([]);
	expect(readFullCheck(fullCheckFile(indexDir), scopeOf(options().roots, []))).toBeDefined();
});
afterEach(async () => {
	await manager.close();
	rmSync(root, { recursive: true, force: true });
});

describe("a plan before an answer, after a full check that found nothing to do", () => {
	it("does not stat an idle file within the window; with no window (0) it compares every file", () => {
		appendToIdle();
		expect(planned()).toEqual([]);
		expect(planned(options(), trust(0))).toEqual([idle]);
	});

	it("compares every file once the window has passed", () => {
		appendToIdle();
		const file = fullCheckFile(indexDir);
		const records = JSON.parse(readFileSync(file, "utf8")) as Array<{ checkedAt: number }>;
		for (const r of records) r.checkedAt -= 61_000;
		writeFileSync(file, JSON.stringify(records));
		expect(planned()).toEqual([idle]);
	});

	it("sees at once an append to a file written within the hour before the check", () => {
		appendToIdle();
		appendTo(recent, "recent");
		expect(planned().sort()).toEqual([idle, recent].sort());
	});

	it("sees at once a session started in a folder, and one replaced by a rename", () => {
		appendToIdle();
		const fresh = lineFactory({ prefix: "n" });
		writeFileSync(join(folder, "new.jsonl"), fresh.header() + fresh.user("new"));
		expect(planned().sort()).toEqual([idle, join(folder, "new.jsonl")].sort());
	});

	it("sees at once a file renamed over another in its folder", () => {
		appendToIdle();
		const [, , third] = readdirSync(folder)
			.map((f) => join(folder, f))
			.filter((f) => f !== idle && f !== recent);
		expect(third).toBeDefined();
		const twin = lineFactory({ prefix: "t" });
		writeFileSync(join(root, "twin.jsonl"), twin.header() + twin.user("twin"));
		utimesSync(join(root, "twin.jsonl"), HOURS_AGO(5), HOURS_AGO(5));
		renameSync(join(root, "twin.jsonl"), third as string);
		expect(planned().sort()).toEqual([idle, third].sort());
	});

	it("compares every file when a source was added to or removed from the store since", () => {
		appendToIdle();
		const db = manager.store.db;
		const other = (db.prepare("SELECT path FROM sources WHERE path <> ? LIMIT 1").get(idle) as { path: string }).path;
		db.prepare("DELETE FROM sources WHERE path = ?").run(other);
		expect(planned().sort()).toEqual([idle, other].sort());
	});

	it("compares every file while the store's two files disagree", () => {
		appendToIdle();
		const db = manager.store.db;
		const seq = db.prepare("SELECT value FROM main.meta WHERE key = 'fts_seq'").get() as { value: string };
		db.prepare("UPDATE main.meta SET value = ? WHERE key = 'fts_seq'").run(String(Number(seq.value) + 1));
		expect(planned()).toEqual([idle]);
	});

	it("keeps a record per scope: callers with other roots or another named file keep their own", () => {
		const named = { ...options(), extraFiles: [recent] };
		expect(planned(named)).toEqual([]);
		appendToIdle();
		// Both records trusted: neither caller replaced the other's.
		expect(planned(named)).toEqual([]);
		expect(planned()).toEqual([]);
		expect(planned({ roots: [...options().roots, { path: join(root, "archive"), subfolders: true }] })).toEqual([idle]);
	});

	it("a record that cannot be read is no record: every file is compared, and a new record replaces it", async () => {
		writeFileSync(fullCheckFile(indexDir), "{not json");
		appendToIdle();
		expect(planned()).toEqual([idle]);
		expect((await manager.startCatchUp()).kind).toBe("done");
		expect(planned()).toEqual([]);
		expect(readFullCheck(fullCheckFile(indexDir), scopeOf(options().roots, []))).toBeDefined();
	});

	it("is not trusted by another generation", () => {
		appendToIdle();
		expect(planned(options(), { ...trust(), generation: "another" })).toEqual([idle]);
	});
});

describe("a full check that is not recorded", () => {
	it("a folder changed within two seconds of the check: its next change could keep the same mtime", () => {
		rmSync(fullCheckFile(indexDir));
		const fresh = lineFactory({ prefix: "r" });
		writeFileSync(join(folder, "racy.jsonl"), fresh.header() + fresh.user("racy"));
		utimesSync(join(folder, "racy.jsonl"), HOURS_AGO(2), HOURS_AGO(2));
		expect(planned()).toEqual([join(folder, "racy.jsonl")]);
		return manager.startCatchUp().then(() => {
			expect(planned()).toEqual([]);
			expect(readFullCheck(fullCheckFile(indexDir), scopeOf(options().roots, []))).toBeUndefined();
			appendToIdle();
			expect(planned()).toEqual([idle]);
		});
	});
});
