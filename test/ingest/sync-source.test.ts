import {
	appendFileSync,
	closeSync,
	copyFileSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	truncateSync,
	utimesSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { decodedSql } from "../../src/store/column-codes.js";
import { lineFactory } from "../helpers/session-lines.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures");

let store: TempStore;
let syncer: SourceSyncer;
let dir: string;

beforeEach(async () => {
	store = await tempStore();
	syncer = new SourceSyncer(store.db);
	dir = join(store.dir, "sessions");
	mkdirSync(dir);
});
afterEach(() => store.cleanup());

const count = (sql: string, ...params: unknown[]) => (store.db.prepare(sql).get(...params) as { c: number }).c;
const events = (path: string) =>
	count("SELECT count(*) AS c FROM events e JOIN sources s ON s.id = e.source_id WHERE s.path = ?", path);
const clean = () => expect(verifyIndex(store.db, [{ path: dir, subfolders: true }]).differences).toEqual([]);

function writeSession(name: string, userTexts: string[]): { path: string; f: ReturnType<typeof lineFactory> } {
	const f = lineFactory();
	const path = join(dir, name);
	writeFileSync(path, f.header() + userTexts.map((t) => f.user(t)).join(""));
	return { path, f };
}

describe("syncSource", () => {
	it("indexes every fixture exactly as a fresh parse says", async () => {
		for (const sub of ["pi-0.73.1", "pi-1.6", "pi-mono-v1"]) {
			for (const name of readdirJsonl(join(FIXTURES, sub))) {
				copyFileSync(join(FIXTURES, sub, name), join(dir, `${sub}-${name}`));
			}
		}
		for (const name of readdirJsonl(dir)) {
			const r = await syncer.sync(join(dir, name));
			expect(r.status, name).toBe("indexed");
		}
		clean();
		// A second pass changes nothing and reads nothing.
		for (const name of readdirJsonl(dir)) {
			const r = await syncer.sync(join(dir, name));
			expect(r.status).toBe("unchanged");
			expect(r.bytesRead).toBe(0);
		}
	});

	it("an append reads only the new bytes, and costs the same for a small and a large file", async () => {
		const small = writeSession("small.jsonl", ["hello"]);
		const bigTexts = Array.from({ length: 3000 }, (_, i) => `line ${i} ${"lorem ipsum ".repeat(150)}`);
		const big = writeSession("big.jsonl", bigTexts);
		await syncer.sync(small.path);
		await syncer.sync(big.path);
		expect(readFileSync(big.path).length).toBeGreaterThan(5_000_000);
		for (const s of [small, big]) {
			const line = s.f.user("appended needle");
			appendFileSync(s.path, line);
			const r = await syncer.sync(s.path);
			expect(r.status).toBe("indexed");
			expect(r.entriesAdded).toBe(1);
			expect(r.bytesRead).toBe(Buffer.byteLength(line));
			expect(r.fingerprintBytes).toBeLessThanOrEqual(4 * 4096);
		}
		clean();
	});

	it("waits for a partial last line and indexes it once it is complete", async () => {
		const s = writeSession("partial.jsonl", ["one"]);
		await syncer.sync(s.path);
		const line = s.f.user("two");
		appendFileSync(s.path, line.slice(0, 20));
		expect((await syncer.sync(s.path)).entriesAdded).toBe(0);
		expect((await syncer.sync(s.path)).status).toBe("unchanged");
		appendFileSync(s.path, line.slice(20));
		expect((await syncer.sync(s.path)).entriesAdded).toBe(1);
		expect(events(s.path)).toBe(2);
		clean();
	});

	it("re-indexes a truncated file from byte 0", async () => {
		const s = writeSession("t.jsonl", ["a", "b", "c"]);
		await syncer.sync(s.path);
		const bytes = readFileSync(s.path);
		truncateSync(s.path, bytes.indexOf("\n", bytes.indexOf("\n") + 1) + 1);
		const r = await syncer.sync(s.path);
		expect(r.status).toBe("reindexed");
		expect(r.reason).toBe("shrunk");
		expect(events(s.path)).toBe(1);
		clean();
	});

	it("re-indexes a file replaced with a new inode", async () => {
		const s = writeSession("r.jsonl", ["old text"]);
		await syncer.sync(s.path);
		const other = writeSession("tmp.jsonl", ["new text", "more"]);
		renameSync(other.path, s.path);
		const r = await syncer.sync(s.path);
		expect(r.reason).toBe("identity");
		expect(events(s.path)).toBe(2);
		clean();
	});

	it("detects a same-size rewrite in place by fingerprints", async () => {
		const s = writeSession("same.jsonl", ["alpha text here", "beta"]);
		await syncer.sync(s.path);
		const before = readFileSync(s.path, "utf8");
		const fd = openSync(s.path, "r+");
		const at = before.indexOf("alpha");
		writeSync(fd, "ALPHA", at);
		closeSync(fd);
		// A rewrite in the same clock tick keeps the mtime, and then nothing can tell (docs/lifecycle.md): move it on,
		// so the size is the only fact that stayed the same.
		const { mtime } = statSync(s.path);
		utimesSync(s.path, mtime, new Date(mtime.getTime() + 2_000));
		const r = await syncer.sync(s.path);
		expect(r.status).toBe("reindexed");
		expect(r.reason).toBe("head-changed");
		const text = store.db.prepare("SELECT text FROM fragments WHERE text LIKE 'ALPHA%'").get() as { text: string };
		expect(text.text).toBe("ALPHA text here");
		clean();
	});

	it("detects a change in the bytes just before the checkpoint", async () => {
		const texts = Array.from({ length: 200 }, (_, i) => `entry number ${i} ${"x".repeat(40)}`);
		const s = writeSession("tail.jsonl", texts);
		await syncer.sync(s.path);
		const content = readFileSync(s.path, "utf8");
		const at = content.lastIndexOf("entry number 199");
		const fd = openSync(s.path, "r+");
		writeSync(fd, "ENTRY", at);
		closeSync(fd);
		appendFileSync(s.path, s.f.user("after"));
		const r = await syncer.sync(s.path);
		expect(r.reason).toBe("tail-changed");
		clean();
	});

	it("removes the rows of a deleted file", async () => {
		const s = writeSession("gone.jsonl", ["bye"]);
		await syncer.sync(s.path);
		rmSync(s.path);
		expect((await syncer.sync(s.path)).status).toBe("removed");
		expect(count("SELECT count(*) AS c FROM events")).toBe(0);
		expect(count("SELECT count(*) AS c FROM fragments")).toBe(0);
		expect(count("SELECT count(*) AS c FROM fragments_fts WHERE fragments_fts MATCH 'bye'")).toBe(0);
	});

	it("re-keys a file moved between roots without parsing it again", async () => {
		const s = writeSession("moved.jsonl", ["travels far"]);
		await syncer.sync(s.path);
		mkdirSync(join(dir, "archive"));
		const to = join(dir, "archive", "moved.jsonl");
		renameSync(s.path, to);
		const r = await syncer.sync(to);
		expect(r.movedFrom).toBe(s.path);
		expect(r.bytesRead).toBe(0);
		expect(events(to)).toBe(1);
		expect((await syncer.sync(s.path)).status).toBe("missing");
		clean();
	});

	it("skips an oversized line with a receipt and keeps indexing after it", async () => {
		const f = lineFactory();
		const path = join(dir, "huge.jsonl");
		writeFileSync(path, f.header() + f.user("before") + f.user("y".repeat(300_000)) + f.user("after"));
		const small = new SourceSyncer(store.db, { maxLineBytes: 100_000, chunkBytes: 64 << 10 });
		const r = await small.sync(path);
		expect(r.entriesAdded).toBe(2);
		expect(r.skipped).toBe(1);
		const row = store.db.prepare("SELECT receipts, skipped_count AS n FROM sources").get() as {
			receipts: string;
			n: number;
		};
		expect(row.n).toBe(1);
		expect(JSON.parse(row.receipts)[0]).toMatchObject({ lineNo: 3, reason: "line too large" });
	});

	it("commits a long backlog in several batches, each consistent", async () => {
		const texts = Array.from({ length: 2000 }, (_, i) => `batch entry ${i} ${"z".repeat(200)}`);
		const s = writeSession("batched.jsonl", texts);
		const r = await new SourceSyncer(store.db, { batchBytes: 64 << 10 }).sync(s.path);
		expect(r.entriesAdded).toBe(2000);
		clean();
	});

	it("follows Pi's in-place migration of a v1 file (real SessionManager.open)", async () => {
		const { SessionManager } = await import("@mariozechner/pi-coding-agent");
		const path = join(dir, "v1.jsonl");
		copyFileSync(join(FIXTURES, "pi-0.73.1/v1-before-migration.jsonl"), path);
		await syncer.sync(path);
		const v1Ids = store.db.prepare("SELECT entry_id AS id FROM events ORDER BY seq").all() as { id: string }[];
		expect(v1Ids[0].id).toBe("v1-1");
		SessionManager.open(path, dir);
		expect(readFileSync(path, "utf8")).toContain('"version":3');
		const r = await syncer.sync(path);
		expect(r.status).toBe("reindexed");
		const ids = store.db.prepare("SELECT entry_id AS id FROM events ORDER BY seq").all() as { id: string }[];
		expect(ids).toHaveLength(v1Ids.length);
		expect(ids[0].id).not.toBe("v1-1");
		clean();
	});

	it("keeps tree states right when an append branches away from the leaf", async () => {
		const s = writeSession("branch.jsonl", ["root q", "follow up"]);
		await syncer.sync(s.path);
		const firstId = "e0000000";
		s.f.branchFrom(firstId);
		appendFileSync(s.path, s.f.user("other branch"));
		await syncer.sync(s.path);
		const states = store.db
			.prepare(`SELECT entry_id AS id, ${decodedSql("branchState", "branch_state")} AS b FROM events ORDER BY seq`)
			.all() as {
			id: string;
			b: string;
		}[];
		expect(states.map((x) => x.b)).toEqual(["selected", "alternate", "selected"]);
		clean();
	});
});

function readdirJsonl(d: string): string[] {
	return readdirSync(d)
		.filter((n: string) => n.endsWith(".jsonl"))
		.sort();
}
