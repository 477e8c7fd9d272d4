/**
 * The extension's runtime over a real agent dir and a real index: the cold first call waits for catch-up and
 * answers, configuration problems are reported once and defaults used, an index that cannot open gives a clear
 * path-free error (never a crash), and close releases everything.
 */
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	realpathSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IndexRuntime } from "../../src/extension/index-runtime.js";
import { searchEvents } from "../../src/query/index.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/pi-0.73.1");

let tmp: string;
let agentDir: string;
const runtimes: IndexRuntime[] = [];

function start(env: Record<string, string> = {}, problems: string[][] = []): IndexRuntime {
	const rt = IndexRuntime.start({
		cwd: join(tmp, "project"),
		env: { PI_CODING_AGENT_DIR: agentDir, ...env },
		onProblems: (p) => problems.push(p),
	});
	runtimes.push(rt);
	return rt;
}

const who = () => ({ cwd: join(tmp, "project") });

beforeEach(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-rt-")));
	agentDir = join(tmp, "agent");
	const sessions = join(agentDir, "sessions", "--home-dev-project--");
	mkdirSync(sessions, { recursive: true });
	mkdirSync(join(tmp, "project"), { recursive: true });
	for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(sessions, f));
});

afterEach(async () => {
	for (const rt of runtimes.splice(0)) await rt.close();
	rmSync(tmp, { recursive: true, force: true });
});

describe("IndexRuntime", () => {
	it("a first call on a cold index waits for catch-up, then answers with complete coverage", async () => {
		// The fixtures' cwd is /home/dev/project: let this workspace read every session.
		writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ authorization: { allRoots: true } }));
		const rt = start();
		const result = await rt.query(who(), (s) =>
			searchEvents(s.index.manager.store.db, { query: "hello" }, s.caller, s.options),
		);
		expect(result.coverage.partial, result.coverage.note).toBe(false);
		expect(result.coverage.indexed).toBe(readdirSync(FIXTURES).length);
		expect(result.hits.length).toBeGreaterThan(0);
		expect(result.hits[0].cwd).toBe("/home/dev/project");
	});

	it("a first call waits for this process's catch-up even when the last discovery's counts say complete", async () => {
		writeFileSync(
			join(agentDir, "event-index.json"),
			JSON.stringify({ authorization: { allRoots: true }, budgets: { coldWaitMs: 30_000 } }),
		);
		const first = start();
		const before = await first.query(who(), (s) => s.coverage);
		expect(before.partial).toBe(false);
		await first.close();
		// Written while no indexer ran: a session with the marker (oldest, so catch-up meets it last) and 400 others.
		const sessions = join(agentDir, "sessions", "--home-dev-project--");
		const marker = join(sessions, "marker.jsonl");
		writeFileSync(
			marker,
			[
				{
					type: "session",
					version: 3,
					id: "s-marker",
					timestamp: "2026-01-01T00:00:00.000Z",
					cwd: "/home/dev/project",
				},
				{
					type: "message",
					id: "m1",
					parentId: null,
					timestamp: "2026-01-01T00:00:01.000Z",
					message: { role: "user", content: [{ type: "text", text: "the quillfeather rollout" }], timestamp: 1 },
				},
			]
				.map((l) => `${JSON.stringify(l)}\n`)
				.join(""),
		);
		utimesSync(marker, new Date(2000, 0, 1), new Date(2000, 0, 1));
		for (let i = 0; i < 400; i++)
			copyFileSync(join(FIXTURES, "rich-tree-compaction.jsonl"), join(sessions, `copy-${i}.jsonl`));

		const second = start();
		const result = await second.query(who(), (s) =>
			searchEvents(s.index.manager.store.db, { query: "quillfeather" }, s.caller, s.options),
		);
		expect(result.hits.map((h) => h.sessionId)).toEqual(["s-marker"]);
		expect(result.coverage.partial, result.coverage.note).toBe(false);
	});

	it("without authorization the same sessions stay invisible (the caller context is applied)", async () => {
		const rt = start();
		const result = await rt.query(who(), (s) =>
			searchEvents(s.index.manager.store.db, { query: "hello" }, s.caller, s.options),
		);
		expect(result.hits).toEqual([]);
	});

	it("reports configuration problems (file and key) and uses defaults", async () => {
		writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ budgets: { searchLimit: 0 }, rots: [] }));
		const problems: string[][] = [];
		const rt = start({}, problems);
		await rt.ready();
		expect(problems).toHaveLength(1);
		expect(problems[0].join("\n")).toContain('"budgets.searchLimit"');
		expect(problems[0].join("\n")).toContain('"rots" is not a known key');
		const status = await rt.status();
		expect(status.open).toBe(true);
		expect(status.problems).toEqual(problems[0]);
		const limit = await rt.query(who(), (s) => s.caller.budgets.searchLimit);
		expect(limit).toBe(10);
	});

	it("an index that cannot be opened gives a clear error without a path, and never throws from start/close", async () => {
		const blocker = join(tmp, "not-a-dir");
		writeFileSync(blocker, "a file where the index directory should be");
		const rt = start({ PI_EVENT_INDEX_DIR: join(blocker, "index") });
		const error = await rt.query(who(), () => 1).catch((e: Error) => e);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toMatch(/^event index unavailable: /);
		expect((error as Error).message).not.toContain(tmp);
		expect((await rt.status()).open).toBe(false);
		await rt.close();
	});

	it("after close, queries fail clearly and close is idempotent", async () => {
		const rt = start();
		await rt.ready();
		await rt.close();
		await rt.close();
		await expect(rt.query(who(), () => 1)).rejects.toThrow("event index unavailable: the session is shutting down");
	});
});
