/**
 * Session-id prefixes at the service boundary: a unique prefix stands for the whole id in search, read and trace;
 * an ambiguous one names the authorized candidates only; a prefix of an unauthorized session answers exactly like
 * one of no session at all. One real CLI run shows the CLI gets the same through the same services.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import type { EventReadResult } from "../../src/contract.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import type { CallerContext } from "../../src/query/caller.js";
import { readEvent, searchEvents, traceEvent, traceSession } from "../../src/query/index.js";
import { MIN_SESSION_PREFIX } from "../../src/query/session-prefix.js";
import { readParameters, searchParameters, traceParameters } from "../../src/tools/schemas.js";
import { cli, hermeticEnv, json } from "../cli/cli-harness.js";
import { lineFactory } from "../helpers/session-lines.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

const APP = "/home/dev/prefix-app";
const OTHER = "/home/dev/prefix-other";
/** Two authorized sessions and one unauthorized, all sharing the prefix "abcd". */
const A = "abcd1111-0000-4000-8000-000000000001";
const B = "abcd2222-0000-4000-8000-000000000002";
const HIDDEN = "abcd3333-0000-4000-8000-000000000003";
const ENTRY = "e0000000";

let tmp: string;
let agentDir: string;
let store: TempStore;

const caller = (allRoots = false): CallerContext => ({
	cwd: APP,
	authorization: { extraRoots: [], allRoots },
	budgets: DEFAULT_BUDGETS,
});

/** The message a service throws, or "" when it answers. */
function failure(fn: () => unknown): string {
	try {
		fn();
		return "";
	} catch (err) {
		return `${(err as Error).name}: ${(err as Error).message}`;
	}
}

beforeAll(async () => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-prefix-")));
	agentDir = join(tmp, "agent");
	store = await tempStore(join(tmp));
	const syncer = new SourceSyncer(store.db);
	for (const [id, cwd] of [
		[A, APP],
		[B, APP],
		[HIDDEN, OTHER],
	]) {
		const f = lineFactory({ sessionId: id, cwd });
		const dir = join(agentDir, "sessions", encodeSessionDirName(cwd));
		mkdirSync(dir, { recursive: true });
		const file = join(dir, `${id}.jsonl`);
		writeFileSync(file, f.header() + f.user(`prefixword in session ${id.slice(0, 8)}`) + f.assistant("noted"));
		const r = await syncer.sync(file);
		expect(r.status).toBe("indexed");
	}
});

afterAll(() => {
	store.db.close();
	rmSync(tmp, { recursive: true, force: true });
});

describe("session id prefixes", () => {
	it("a unique prefix stands for the whole id in read, trace and the search filter", () => {
		const db = store.db;
		expect(readEvent(db, { sessionId: "abcd1", entryId: ENTRY }, caller()).event.sessionId).toBe(A);
		expect(traceEvent(db, { sessionId: " abcd2 ", entryId: ENTRY }, caller()).target.sessionId).toBe(B);
		const hits = searchEvents(db, { query: "prefixword", sessionId: "abcd2" }, caller()).hits;
		expect(hits.map((h) => h.sessionId)).toEqual([B]);
		expect(traceSession(db, { sessionId: "abcd2" }, caller()).session.sessionId).toBe(B);
		// The unauthorized session does not make an authorized prefix ambiguous.
		expect(readEvent(db, { sessionId: "abcd1111", entryId: ENTRY }, caller()).event.sessionId).toBe(A);
	});

	it("an ambiguous prefix is a clear error naming the authorized candidates only", () => {
		const message = failure(() => readEvent(store.db, { sessionId: "abcd", entryId: ENTRY }, caller()));
		expect(message).toMatch(/^QueryError: Session id prefix "abcd" matches several sessions/);
		expect(message).toContain(A);
		expect(message).toContain(B);
		expect(message).not.toContain(HIDDEN);
		expect(message).toContain("give more characters");
		// The same rule in search and trace, one sentence for all.
		expect(failure(() => searchEvents(store.db, { query: "prefixword", sessionId: "abcd" }, caller()))).toBe(message);
		expect(failure(() => traceEvent(store.db, { sessionId: "abcd", entryId: ENTRY }, caller()))).toBe(message);
		// With every root authorized the third session is a candidate too.
		expect(failure(() => readEvent(store.db, { sessionId: "abcd", entryId: ENTRY }, caller(true)))).toContain(HIDDEN);
	});

	it("a prefix of an unauthorized session answers exactly like a prefix of no session", () => {
		const db = store.db;
		const missing = "abcd9";
		const hidden = "abcd3";
		for (const [name, fn] of [
			["read", (id: string) => readEvent(db, { sessionId: id, entryId: ENTRY }, caller())],
			["trace", (id: string) => traceEvent(db, { sessionId: id, entryId: ENTRY }, caller())],
			["lineage", (id: string) => traceSession(db, { sessionId: id }, caller())],
		] as const) {
			const expected = failure(() => fn(missing));
			expect(expected, name).toMatch(/^QueryError: No such event/);
			expect(
				failure(() => fn(hidden)),
				name,
			).toBe(expected);
			expect(
				failure(() => fn(HIDDEN)),
				name,
			).toBe(expected);
		}
		const search = (id: string) => JSON.stringify(searchEvents(db, { query: "prefixword", sessionId: id }, caller()));
		expect(search(hidden)).toBe(search(missing));
		expect(search(HIDDEN)).toBe(search(missing));
		expect(JSON.parse(search(missing)).hits).toEqual([]);
	});

	it(`a prefix shorter than ${MIN_SESSION_PREFIX} characters is not expanded`, () => {
		const short = "abcd1111".slice(0, MIN_SESSION_PREFIX - 1);
		expect(failure(() => readEvent(store.db, { sessionId: short, entryId: ENTRY }, caller()))).toMatch(
			/^QueryError: No such event/,
		);
	});

	it(`every description of a session id says a unique prefix of ${MIN_SESSION_PREFIX}+ characters is accepted`, async () => {
		const minimum = `at least ${MIN_SESSION_PREFIX} characters`;
		const sessionOf = (schema: { properties: object }) =>
			(schema.properties as Record<string, { description?: string }>).sessionId?.description;
		for (const schema of [searchParameters, readParameters, traceParameters]) {
			expect(sessionOf(schema)).toContain(`unique prefix of it (${minimum})`);
		}
		const help = await cli(["search", "--help"], { env: hermeticEnv(join(tmp, "home")), cwd: tmp });
		expect(help.stdout).toMatch(
			new RegExp(`--session ID +only this session id, or a unique prefix of it \\(${minimum}\\)`),
		);
	});

	it("the CLI takes a prefix through the same service", async () => {
		const home = join(tmp, "home");
		mkdirSync(home, { recursive: true });
		const run = await cli(["read", "abcd2", ENTRY, "--json", "--agent-dir", agentDir, "--workspace", APP], {
			env: hermeticEnv(home),
			cwd: tmp,
		});
		expect(run.code, run.stderr).toBe(0);
		expect(json<EventReadResult>(run).event).toMatchObject({ sessionId: B, entryId: ENTRY });
	});
});
