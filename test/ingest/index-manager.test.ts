import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { rebuildStore } from "../../src/ingest/rebuild.js";
import { tempDir } from "../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/pi-0.73.1");

let root: string;
let sessions: string;
let indexDir: string;
const open: IndexManager[] = [];

async function manager(extra: Partial<Parameters<typeof IndexManager.open>[0]> = {}) {
	const m = await IndexManager.open({ indexDir, roots: [{ path: sessions, subfolders: true }], ...extra });
	open.push(m);
	return m;
}

const eventCount = (m: IndexManager) =>
	(m.store.db.prepare("SELECT count(*) AS c FROM events").get() as { c: number }).c;

beforeEach(async () => {
	root = await tempDir();
	sessions = join(root, "sessions");
	indexDir = join(root, "event-index");
	mkdirSync(join(sessions, "--home-dev-project--"), { recursive: true });
	for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(sessions, "--home-dev-project--", f));
});
afterEach(async () => {
	for (const m of open.splice(0)) await m.close();
	rmSync(root, { recursive: true, force: true });
});

describe("IndexManager", () => {
	it("opens without scanning, catches up in a worker thread and reports coverage", async () => {
		const m = await manager();
		expect(eventCount(m)).toBe(0);
		const before = await m.coverage();
		expect(before.indexed).toBe(0);
		const outcome = await m.startCatchUp();
		expect(outcome.kind).toBe("done");
		const files = readdirSync(join(sessions, "--home-dev-project--")).length;
		const cov = await m.coverage();
		expect(cov).toMatchObject({ known: files, indexed: files, pending: 0, failed: 0, partial: false });
		expect(eventCount(m)).toBeGreaterThan(50);
	});

	it("warm start answers from the index without reading any session file", async () => {
		const m = await manager();
		await m.startCatchUp();
		const indexed = eventCount(m);
		await m.close();
		// With the files gone, any scan or sync on open would delete their rows; none may happen.
		renameSync(sessions, `${sessions}.away`);
		const warm = await manager();
		expect(eventCount(warm)).toBe(indexed);
		const hit = warm.store.db
			.prepare("SELECT count(*) AS c FROM fragments_fts WHERE fragments_fts MATCH 'checkpoint'")
			.get() as { c: number };
		expect(hit.c).toBeGreaterThan(0);
	});

	it("only one process-wide catch-up runs; a second manager skips while the first holds the lock", async () => {
		const a = await manager({ useWorker: false });
		const b = await manager({ useWorker: false });
		const [ra, rb] = await Promise.all([a.startCatchUp(), b.startCatchUp()]);
		const kinds = [ra.kind, rb.kind].sort();
		expect(kinds).toEqual(["done", "skipped"]);
	});

	it("a full rebuild swaps generations while readers keep answering, then they switch without restart", async () => {
		const m = await manager();
		await m.startCatchUp();
		const before = m.store.generation;
		const count = eventCount(m);
		const outcome = await rebuildStore({
			indexDir,
			roots: [{ path: sessions, subfolders: true }],
			extraFiles: [],
			workspaceDirs: [],
		});
		expect(outcome.kind).toBe("done");
		// The old handle still answers (POSIX keeps the unlinked file alive) until refresh.
		expect(eventCount(m)).toBe(count);
		await m.refresh();
		expect(m.store.generation).not.toBe(before);
		expect(eventCount(m)).toBe(count);
	});

	it("startRebuild runs the rebuild in the worker thread and follows the new generation", async () => {
		const m = await manager();
		await m.startCatchUp();
		const before = m.store.generation;
		const count = eventCount(m);
		const seen: number[] = [];
		m.onProgress((p) => seen.push(p.done));
		const outcome = await m.startRebuild();
		expect(outcome.kind).toBe("done");
		expect(m.store.generation).not.toBe(before);
		expect(eventCount(m)).toBe(count);
		expect(seen.length).toBeGreaterThan(0);
	});
});
