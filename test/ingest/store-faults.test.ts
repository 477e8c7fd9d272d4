/** How the lifecycle manager behaves on a faulty store: a clear outcome, never a crash of the caller. */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IndexRuntime } from "../../src/extension/index-runtime.js";
import { toPublicError } from "../../src/extension/public-errors.js";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { pointerFileName } from "../../src/store/format.js";
import { readPointer } from "../../src/store/generations.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/pi-0.73.1");
let root: string;
let sessions: string;
let indexDir: string;
const managers: IndexManager[] = [];

const open = async () => {
	const m = await IndexManager.open({ indexDir, roots: [{ path: sessions, subfolders: false }], useWorker: false });
	managers.push(m);
	return m;
};
const events = (m: IndexManager) => (m.store.db.prepare("SELECT count(*) AS c FROM events").get() as { c: number }).c;

beforeEach(async () => {
	root = await tempDir();
	sessions = join(root, "sessions");
	indexDir = join(root, "index");
	mkdirSync(sessions);
	for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(sessions, f));
});
afterEach(async () => {
	for (const m of managers.splice(0)) await m.close();
	rmSync(root, { recursive: true, force: true });
});

describe("store faults", () => {
	it("a store migrated by a newer version is answered from read-only: no sync, no catch-up, no change", async () => {
		const first = await open();
		await first.startCatchUp();
		const count = events(first);
		const latest = (
			first.store.db.prepare("SELECT max(created_at) AS t FROM __drizzle_migrations").get() as { t: number }
		).t;
		first.store.db.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)").run(latest + 1);
		await first.close();
		const f = lineFactory();
		const path = join(sessions, "new.jsonl");
		writeFileSync(path, f.header() + f.user("written after the newer version migrated"));

		const old = await open();
		expect(old.store.readOnly).toBe(true);
		expect((await old.syncFile(path)).status).toBe("unchanged");
		expect(await old.startCatchUp()).toEqual({ kind: "skipped", reason: "read-only" });
		expect(events(old)).toBe(count);
		expect((await old.coverage()).note).toMatch(/read-only/);
	});

	it("a garbage index file is moved aside and rebuilt by catch-up, with partial coverage until then", async () => {
		const first = await open();
		await first.startCatchUp();
		const count = events(first);
		const file = first.store.path;
		await first.close();
		writeFileSync(file, "this is not a database ".repeat(100));
		for (const side of ["-wal", "-shm"]) rmSync(file + side, { force: true });

		const m = await open();
		expect(events(m)).toBe(0);
		expect((await m.coverage()).partial).toBe(true);
		expect(readdirSync(indexDir).some((n) => n.includes(".corrupt-"))).toBe(true);
		await m.startCatchUp();
		expect(events(m)).toBe(count);
		expect((await m.coverage()).partial).toBe(false);
	});

	it("deleting the whole index directory loses nothing: the next start rebuilds it", async () => {
		const first = await open();
		await first.startCatchUp();
		const count = events(first);
		await first.close();
		rmSync(indexDir, { recursive: true });
		const m = await open();
		await m.startCatchUp();
		expect(events(m)).toBe(count);
		expect(readPointer(indexDir).ok).toBe(true);
		expect(readFileSync(join(indexDir, pointerFileName()), "utf8")).toContain(m.store.file);
	});

	it("a source whose sync fails is counted as failed and the rest is still indexed", async () => {
		mkdirSync(join(sessions, "folder.jsonl"));
		const m = await open();
		await m.startCatchUp();
		const target = join(sessions, "cli-print-tool-call.jsonl");
		// A checkpoint whose parser state cannot be read makes the next sync of that file fail.
		m.store.db.prepare("UPDATE sources SET parse_state = 'garbage', synced_at = NULL WHERE path = ?").run(target);
		const f = lineFactory();
		writeFileSync(join(sessions, "later.jsonl"), f.header() + f.user("indexed despite the failure"));
		const outcome = await m.startCatchUp();
		expect(outcome.kind).toBe("done");
		if (outcome.kind === "done") expect(outcome.result.errors.map((e) => e.path)).toEqual([target]);
		const cov = await m.coverage();
		expect(cov.failed).toBe(1);
		// A file that could not be indexed makes coverage partial: "complete" would hide it (issue #13, item 7).
		expect(cov.partial).toBe(true);
		expect(cov.note).toMatch(/^partial: .*1 failed/);
		const later = m.store.db.prepare("SELECT count(*) AS c FROM sources WHERE path LIKE '%later.jsonl'").get() as {
			c: number;
		};
		expect(later.c).toBe(1);
	});

	it("regression: an open SQLite refuses reaches the model as its meaning, never SQLite's text or a path", async () => {
		const first = await open();
		const file = first.store.path;
		await first.close();
		// The generation the pointer names is a directory: SQLite can open it in no mode.
		rmSync(file);
		mkdirSync(file);
		const rt = IndexRuntime.start({ cwd: root, env: { PI_EVENT_INDEX_DIR: indexDir, PI_CODING_AGENT_DIR: root } });
		try {
			const message = await rt.query({ cwd: root }, () => "answered").catch((e: unknown) => toPublicError(e).message);
			// SQLite says "disk I/O error" (SQLITE_IOERR_READ) here; the model gets the code's meaning instead.
			expect(message).toMatch(/^event index unavailable: /);
			expect(message).not.toMatch(/disk I\/O|unable to open|database file|SQLITE_/i);
			expect(message).not.toContain(root.split("/").at(-1));
		} finally {
			await rt.close();
		}
	});
});
