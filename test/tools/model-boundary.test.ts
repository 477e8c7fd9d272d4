/**
 * The model boundary: every textual field has a budget (a 200,000-character label, session name or entry id never
 * pushes the event's content out; an error never echoes its input whole), and no failure text carries SQLite's
 * wording or any piece of a local path, spaces included. Real agent dir, real index, real SQLite errors.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexRuntime } from "../../src/extension/index-runtime.js";
import { toPublicError } from "../../src/extension/public-errors.js";
import { readEvent, searchEvents } from "../../src/query/index.js";
import { DISK_FULL_REASON } from "../../src/store/db.js";
import { renderReadText, renderSearchText } from "../../src/tools/render-text.js";
import { lineFactory } from "../helpers/session-lines.js";
import { expectModelSafe, SQLITE_PHRASES } from "./model-boundary.js";

const HUGE = 200_000;
const SESSION = "b0b0b0b0-0000-4000-8000-00000000b0b0";
let tmp: string;
let agentDir: string;
let rt: IndexRuntime;
const who = () => ({ cwd: join(tmp, "project") });
const longId = `id${"x".repeat(HUGE)}`;

beforeAll(async () => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei boundary ")));
	agentDir = join(tmp, "Jane Doe", "private stuff", "agent");
	const sessions = join(agentDir, "sessions", "--home-dev-project--");
	mkdirSync(sessions, { recursive: true });
	mkdirSync(join(tmp, "project"));
	writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ authorization: { allRoots: true } }));
	const f = lineFactory({ sessionId: SESSION, cwd: "/home/dev/project" });
	const msg = (id: string, parentId: string | null, text: string) =>
		`${JSON.stringify({
			type: "message",
			id,
			parentId,
			timestamp: "2026-01-01T00:00:10.000Z",
			message: { role: "user", content: [{ type: "text", text }], timestamp: 10 },
		})}\n`;
	const lines = [
		f.header(),
		msg("m0000001", null, "the zanzibar payload is here"),
		`${JSON.stringify({ type: "label", id: "l0000001", parentId: "m0000001", timestamp: "2026-01-01T00:00:11.000Z", targetId: "m0000001", label: "L".repeat(HUGE) })}\n`,
		`${JSON.stringify({ type: "session_info", id: "n0000001", parentId: "l0000001", timestamp: "2026-01-01T00:00:12.000Z", name: "N".repeat(HUGE) })}\n`,
		msg(longId, "n0000001", "the quokka payload is here"),
	];
	writeFileSync(join(sessions, "huge.jsonl"), lines.join(""));
	rt = IndexRuntime.start({ cwd: join(tmp, "project"), env: { PI_CODING_AGENT_DIR: agentDir } });
	await rt.ready();
	expect((await rt.startCatchUp()).kind).toBe("done");
});
afterAll(async () => {
	await rt.close();
	rmSync(tmp, { recursive: true, force: true });
});

describe("budgets on every field", () => {
	it("regression: a huge label, session name and entry id leave room for the event's content", async () => {
		for (const [query, content] of [
			["zanzibar", "the zanzibar payload is here"],
			["quokka", "the quokka payload is here"],
		] as const) {
			const search = await rt.query(who(), (s) =>
				searchEvents(s.index.manager.store.db, { query }, s.caller, s.options),
			);
			expect(search.hits).toHaveLength(1);
			const text = renderSearchText(search, query, who());
			expect(text).toContain(content);
			expect(text.length).toBeLessThan(3_000);
			const hit = search.hits[0];
			const read = await rt.query(who(), (s) =>
				readEvent(s.index.manager.store.db, { sessionId: hit.sessionId, entryId: hit.entryId }, s.caller, s.options),
			);
			const readText = renderReadText(read, who());
			expect(readText).toContain(content);
			expect(readText.length).toBeLessThan(6_000);
		}
	});

	it("regression: an error does not echo a 1 MB input whole", async () => {
		const entryId = "e".repeat(1 << 20);
		const err = await rt
			.query(who(), (s) =>
				readEvent(
					s.index.manager.store.db,
					{ sessionId: SESSION, entryId, matchingFragmentId: "other#0" },
					s.caller,
					s.options,
				),
			)
			.then(
				() => undefined,
				(e: unknown) => toPublicError(e),
			);
		expect(err).toBeDefined();
		expect(err?.message.length).toBeLessThan(500);
	});
});

/**
 * Real failures of storage under `dir`: SQLITE_FULL (a page limit), SQLITE_READONLY, SQLITE_CANTOPEN (a directory
 * as the database) and ENOSPC (a write to /dev/full).
 */
function storageFailures(dir: string): Array<Error & { code?: string }> {
	const file = join(dir, "small.sqlite");
	const out: Array<Error & { code?: string }> = [];
	const attempt = (fn: () => unknown) => {
		try {
			fn();
			out.push(new Error("did not fail"));
		} catch (e) {
			out.push(e as Error);
		}
	};
	const small = new Database(file);
	small.exec("CREATE TABLE IF NOT EXISTS t (x TEXT)");
	small.pragma("max_page_count = 3");
	attempt(() => {
		for (let i = 0; i < 10; i++) small.prepare("INSERT INTO t VALUES (?)").run("x".repeat(8192));
	});
	small.close();
	const readOnly = new Database(file, { readonly: true });
	attempt(() => readOnly.exec("INSERT INTO t VALUES ('y')"));
	readOnly.close();
	attempt(() => new Database(dir).prepare("SELECT 1").get());
	attempt(() => writeFileSync("/dev/full", "x"));
	return out;
}

describe("model-boundary scan", () => {
	it("no SQLite text and no path fragment in any failure", async () => {
		const failures: string[] = [];
		// A store that cannot be opened at a path with spaces (the index dir is a file).
		const blocked = join(tmp, "Jane Doe", "private stuff", "not a dir");
		writeFileSync(blocked, "x");
		const broken = IndexRuntime.start({
			cwd: join(tmp, "project"),
			env: { PI_CODING_AGENT_DIR: agentDir, PI_EVENT_INDEX_DIR: join(blocked, "idx") },
		});
		try {
			await broken.query(who(), () => undefined).catch((e: unknown) => failures.push(toPublicError(e).message));
		} finally {
			await broken.close();
		}
		// Real SQLite errors: busy, a missing table, a constraint.
		const file = join(tmp, "Jane Doe", "private stuff", "probe.sqlite");
		const a = new Database(file);
		const b = new Database(file, { timeout: 0 });
		a.exec("CREATE TABLE t (x INTEGER PRIMARY KEY); BEGIN IMMEDIATE; INSERT INTO t VALUES (1)");
		for (const attempt of [
			() => b.exec("BEGIN IMMEDIATE"),
			() => b.prepare("SELECT * FROM nope").get(),
			() => a.exec("INSERT INTO t VALUES (1)"),
		]) {
			try {
				attempt();
			} catch (e) {
				failures.push(toPublicError(e).message);
			}
		}
		a.close();
		b.close();
		// Real failures a store meets on a bad disk: full, read-only, cannot open.
		const raw = storageFailures(join(tmp, "Jane Doe", "private stuff"));
		expect(raw.map((e) => e.code)).toEqual(["SQLITE_FULL", "SQLITE_READONLY", "SQLITE_CANTOPEN", "ENOSPC"]);
		for (const e of raw) failures.push(toPublicError(e).message);
		// A bad request with a huge, path-like input.
		await rt
			.query(who(), (s) =>
				readEvent(
					s.index.manager.store.db,
					{ sessionId: SESSION, entryId: "m0000001", matchingFragmentId: `${tmp}/x#0` },
					s.caller,
					s.options,
				),
			)
			.catch((e: unknown) => failures.push(toPublicError(e).message));
		expect(failures).toHaveLength(9);
		for (const text of failures) expectModelSafe(text, [tmp, agentDir]);
		// The scan would have caught SQLite's own words for each of them.
		for (const e of raw.filter((x) => String(x.code).startsWith("SQLITE_"))) {
			expect(() => expectModelSafe(e.message, [])).toThrow();
		}
	});

	it("the scan flags every phrase of SQLite's wording, in any case", () => {
		for (const phrase of SQLITE_PHRASES) {
			expect(() => expectModelSafe(`event index unavailable: ${phrase.toUpperCase()}`, []), phrase).toThrow();
		}
		expectModelSafe(`event index unavailable: ${DISK_FULL_REASON}`, []);
	});

	it("a full disk, SQLite's or the file system's, reads in the store's words", () => {
		const [full, , , nospace] = storageFailures(tmp);
		expect(full?.code).toBe("SQLITE_FULL");
		expect(nospace?.code).toBe("ENOSPC");
		for (const e of [full, nospace]) {
			expect(toPublicError(e).message).toBe(`event index unavailable: ${DISK_FULL_REASON}`);
		}
	});
});
