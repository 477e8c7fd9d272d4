/**
 * File oddities the sync and catch-up meet on disk: a rewritten file's identity, a file replaced by another of the
 * same size and mtime. Real files in a temp dir, a real migrated SQLite store. (A FIFO: test/cli/file-faults.test.ts,
 * in a child process, since a blocking open would hang this one.)
 */
import { mkdirSync, renameSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { catchUp } from "../../src/ingest/catch-up.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { searchEvents } from "../../src/query/search.js";
import { decodeFragmentText, type StoredFragmentText } from "../../src/store/fragment-text.js";
import { textDictionaryOf } from "../../src/store/text-dictionary.js";
import { storedPart } from "../../src/text/stored-head.js";
import { lineFactory } from "../helpers/session-lines.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

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

interface HeaderRow {
	sessionId: string | null;
	cwd: string | null;
	sessionName: string | null;
	sessionVersion: number | null;
	parentSession: string | null;
}
const headerOf = (path: string) =>
	store.db
		.prepare(
			`SELECT session_id AS sessionId, cwd, session_name AS sessionName, session_version AS sessionVersion,
				parent_session AS parentSession FROM sources WHERE path = ?`,
		)
		.get(path) as HeaderRow;
/** Hits for `query` seen from workspace `cwd` (authorization by the sessions' cwd, as the tools apply it). */
const hitsFrom = (cwd: string, query: string) =>
	searchEvents(
		store.db,
		{ query },
		{ cwd, authorization: { extraRoots: [], allRoots: false }, budgets: DEFAULT_BUDGETS },
	).hits.length;
const texts = (path: string) =>
	(
		store.db
			.prepare("SELECT f.text FROM fragments f JOIN sources s ON s.id = f.source_id WHERE s.path = ? ORDER BY f.id")
			.all(path) as Array<{ text: StoredFragmentText }>
	).map((r) => r.text);

function namedSession(sessionId: string, cwd: string, name: string | undefined, text: string): string {
	const f = lineFactory({ sessionId, cwd });
	const header = JSON.parse(f.header()) as Record<string, unknown>;
	header.parentSession = "/elsewhere/parent.jsonl";
	let out = `${JSON.stringify(header)}\n${f.user(text)}`;
	if (name !== undefined) {
		out += `${JSON.stringify({ type: "session_info", id: "n0000001", parentId: f.leafId, timestamp: "2026-01-01T00:01:00.000Z", name })}\n`;
	}
	return out;
}

describe("a rewritten file keeps no identity of its old content", () => {
	it("regression: truncate to 0, index, write another session: id, cwd, name, parent are the new file's", async () => {
		const path = join(dir, "s.jsonl");
		writeFileSync(path, namedSession("old-id", "/ws/a", "old secret name", "first content"));
		expect((await syncer.sync(path)).status).toBe("indexed");
		expect(headerOf(path)).toMatchObject({ sessionId: "old-id", cwd: "/ws/a", sessionName: "old secret name" });

		truncateSync(path, 0);
		await syncer.sync(path);
		// Emptied: nothing of the old header is left.
		expect(headerOf(path)).toMatchObject({ sessionId: null, cwd: null, sessionName: null, parentSession: null });

		const f = lineFactory({ sessionId: "new-id", cwd: "/ws/b" });
		writeFileSync(path, f.header() + f.user("second content"));
		await syncer.sync(path);
		expect(headerOf(path)).toEqual({
			sessionId: "new-id",
			cwd: "/ws/b",
			sessionName: null,
			sessionVersion: 3,
			parentSession: null,
		});
		expect(texts(path)).toEqual(["second content"]);
		// The new content belongs to its own workspace, not to the old one's.
		expect(hitsFrom("/ws/b", "second content")).toBe(1);
		expect(hitsFrom("/ws/a", "second content")).toBe(0);
		expect(verifyIndex(store.db, [{ path: dir, subfolders: false }]).differences).toEqual([]);
	});

	it("regression: a replacement by an unnamed session does not keep the old session name", async () => {
		const path = join(dir, "s.jsonl");
		writeFileSync(path, namedSession("old-id", "/ws/a", "old secret name", "first content"));
		await syncer.sync(path);
		const other = join(dir, "other.tmp");
		writeFileSync(other, namedSession("new-id", "/ws/b", undefined, "replacement content"));
		renameSync(other, path);
		const r = await syncer.sync(path);
		expect(r).toMatchObject({ status: "reindexed", reason: "identity" });
		expect(headerOf(path)).toMatchObject({ sessionId: "new-id", cwd: "/ws/b", sessionName: null });
	});
});

describe("one unchanged rule for sync and catch-up", () => {
	it("regression: catch-up re-indexes a file replaced (mv) by another with the same size and mtime", async () => {
		const roots = [{ path: dir, subfolders: false }];
		const path = join(dir, "s.jsonl");
		// Same length, different content and session: only the inode tells them apart.
		// Whole seconds: both files get exactly the same mtime on every file system.
		const mtime = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
		writeFileSync(path, namedSession("aaaaaaaa-0000-4000-8000-000000000001", "/ws/a", undefined, "alpha content"));
		utimesSync(path, mtime, mtime);
		await catchUp(store.db, { roots });
		const st = statSync(path);
		const other = join(dir, "incoming.tmp");
		writeFileSync(other, namedSession("bbbbbbbb-0000-4000-8000-000000000002", "/ws/a", undefined, "omega content"));
		utimesSync(other, mtime, mtime);
		expect(statSync(other).size).toBe(st.size);
		renameSync(other, path);
		expect(statSync(path).mtimeMs).toBe(st.mtimeMs);

		const r = await catchUp(store.db, { roots });
		expect(r.indexed).toBe(1);
		expect(texts(path)).toEqual(["omega content"]);
		expect(headerOf(path).sessionId).toBe("bbbbbbbb-0000-4000-8000-000000000002");
	});
});

describe("text the tokenizer meets in one piece", () => {
	it("regression: a tool output holding a CJK run of 2.7 million characters is indexed, and words inside it are found", async () => {
		// The run was matched with one regular-expression `+`, which V8 runs with a level of recursion per character:
		// past about 2 million characters (a line under the 8 MiB limit holds 2.79 million), "Maximum call stack size
		// exceeded", and the whole session file failed to index.
		const cwd = "/work/cjk";
		const f = lineFactory({ sessionId: "cjk-run", cwd });
		const run = `${"错误构建中文文本测试".repeat(270_000)}独角兽标记${"日本語のテキスト".repeat(4_000)}`;
		const path = join(dir, "cjk.jsonl");
		writeFileSync(path, f.header() + f.user("where did the build log go") + f.toolResult("c1", "bash", run));
		const result = await syncer.sync(path);
		expect(result.status).toBe("indexed");
		expect(texts(path).map((t) => decodeFragmentText(t, textDictionaryOf(store.db)))).toContain(storedPart(run));
		expect(hitsFrom(cwd, "独角兽标记")).toBe(1);
		expect(hitsFrom(cwd, "テキスト")).toBe(1);
		expect(hitsFrom(cwd, "build log")).toBe(1);
	});
});
