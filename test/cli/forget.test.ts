/**
 * Issue 45, finding 7: a person can make the index forget. The real program in real child processes over real Pi
 * session files: `forget SESSION` takes a session out of every answer at once and leaves a tombstone beside the
 * generations, so neither `reindex` nor `reindex --full` (a new generation) brings it back while its file stays;
 * `forget --workspace DIR` and `forget --before TIME` list first and act with `--yes`; `unforget` undoes; `status`
 * counts. The person's `excludeWorkspaces` globs and the `#no-event-index` marker in a user message keep sessions
 * out from the start.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import { NO_INDEX_MARKER, TOMBSTONE_FILE } from "../../src/ingest/forgotten.js";
import { lineFactory } from "../helpers/session-lines.js";
import { cli, ERRS, hermeticEnv, json, makeAgentDir } from "./cli-harness.js";

let base: string;

/** A fresh agent dir with the fixtures (ERRS holds "kaboom"), an optional person's config, and a runner. */
function setUp(name: string, userConfig?: object) {
	const agentDir = join(base, name, "agent");
	makeAgentDir(agentDir);
	if (userConfig) writeFileSync(join(agentDir, "event-index.json"), JSON.stringify(userConfig));
	mkdirSync(join(base, name, "home"), { recursive: true });
	const env = hermeticEnv(join(base, name, "home"));
	const run = (...args: string[]) => cli(["--agent-dir", agentDir, ...args], { env });
	return { agentDir, env, run };
}

/** Writes a session of workspace `cwd` whose one user message says `text`; returns its id. */
function writeSession(agentDir: string, cwd: string, id: string, text: string): string {
	const dir = join(agentDir, "sessions", encodeSessionDirName(cwd));
	mkdirSync(dir, { recursive: true });
	const f = lineFactory({ sessionId: id, cwd, prefix: "m" });
	writeFileSync(join(dir, `${id}.jsonl`), f.header() + f.user(text) + f.assistant("zebracorn noted"));
	return id;
}

const hitsOf = async (run: ReturnType<typeof setUp>["run"], query: string) =>
	json<{ hits: Array<{ sessionId: string }> }>(await run("search", "--all", "--json", "--no-sync", query)).hits;

beforeAll(() => {
	base = mkdtempSync(join(tmpdir(), "pei-forget-"));
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

describe("forget SESSION", () => {
	it("takes the session out at once, survives reindex and reindex --full, shows in status; unforget brings it back", async () => {
		const { agentDir, run } = setUp("one");
		expect((await run("reindex")).code).toBe(0);
		expect((await hitsOf(run, "kaboom")).map((h) => h.sessionId)).toContain(ERRS);

		const forgot = await run("forget", ERRS.slice(0, 8));
		expect(forgot.code, forgot.stderr).toBe(0);
		expect(forgot.stdout).toMatch(/^forgot 1 session file/);
		expect(await hitsOf(run, "kaboom")).toEqual([]);
		const read = await run("read", ERRS, "r0000001", "--all", "--no-sync");
		expect(read.code).toBe(1);
		expect(readdirSync(join(agentDir, "event-index"))).toContain(TOMBSTONE_FILE);

		expect((await run("reindex")).code).toBe(0);
		expect(await hitsOf(run, "kaboom")).toEqual([]);
		const full = await run("reindex", "--full");
		expect(full.code, full.stderr).toBe(0);
		expect(await hitsOf(run, "kaboom")).toEqual([]);
		expect((await run("status")).stdout).toMatch(/forgotten {3}1 session files/);
		expect(json<{ forgotten: number }>(await run("status", "--json")).forgotten).toBe(1);
		const verify = await run("verify");
		expect(verify.code, verify.stdout).toBe(0);

		const back = await run("unforget", ERRS.slice(0, 8));
		expect(back.code, back.stderr).toBe(0);
		expect((await hitsOf(run, "kaboom")).map((h) => h.sessionId)).toContain(ERRS);
		expect(json<{ forgotten: number }>(await run("status", "--json")).forgotten).toBe(0);
	});

	it("an unknown id is a clear error and forgets nothing", async () => {
		const { run } = setUp("unknown");
		expect((await run("reindex")).code).toBe(0);
		const r = await run("forget", "ffffffff-nope");
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/^pi-event-index: no indexed session has the id "ffffffff-nope"/);
		expect(await hitsOf(run, "kaboom")).not.toEqual([]);
	});
});

describe("forget --workspace / --before", () => {
	it("lists first and acts only with --yes", async () => {
		const { run } = setUp("select");
		expect((await run("reindex")).code).toBe(0);
		const listed = await run("forget", "--workspace", "/home/dev/errs");
		expect(listed.code, listed.stderr).toBe(0);
		expect(listed.stdout).toMatch(/^1 session file would be forgotten:/);
		expect(listed.stdout).toContain(ERRS);
		expect(await hitsOf(run, "kaboom")).not.toEqual([]);
		const done = json<{ forgotten: boolean; sessions: unknown[] }>(
			await run("forget", "--workspace", "/home/dev/errs", "--yes", "--json"),
		);
		expect(done).toMatchObject({ forgotten: true, sessions: [{ sessionId: ERRS }] });
		expect(await hitsOf(run, "kaboom")).toEqual([]);

		const before = json<{ forgotten: boolean; sessions: unknown[] }>(
			await run("forget", "--before", "2100-01-01", "--json"),
		);
		expect(before.forgotten).toBe(false);
		expect(before.sessions.length).toBeGreaterThan(0);
		expect(json<{ forgotten: number }>(await run("status", "--json")).forgotten).toBe(1);
		const neither = await run("forget");
		expect(neither.code).toBe(2);
	});
});

describe("kept out from the start", () => {
	it("a user message holding the marker keeps its session out, through reindex --full", async () => {
		const { agentDir, run } = setUp("marker");
		writeSession(
			agentDir,
			"/home/dev/private",
			"aaaa1111-0000-4000-8000-000000000001",
			`client call notes ${NO_INDEX_MARKER}`,
		);
		expect((await run("reindex")).code).toBe(0);
		expect(await hitsOf(run, "zebracorn")).toEqual([]);
		expect((await run("reindex", "--full")).code).toBe(0);
		expect(await hitsOf(run, "zebracorn")).toEqual([]);
		expect(json<{ forgotten: number }>(await run("status", "--json")).forgotten).toBe(1);
		expect(await hitsOf(run, "kaboom")).not.toEqual([]);
	});

	it("the person's excludeWorkspaces globs keep a workspace out; a workspace's own config cannot set them", async () => {
		const { agentDir, run } = setUp("exclude", { excludeWorkspaces: ["/home/dev/client-*"] });
		writeSession(agentDir, "/home/dev/client-acme/app", "bbbb2222-0000-4000-8000-000000000002", "acme deploy");
		writeSession(agentDir, "/home/dev/other", "cccc3333-0000-4000-8000-000000000003", "other deploy");
		expect((await run("reindex")).code).toBe(0);
		expect((await hitsOf(run, "zebracorn")).map((h) => h.sessionId)).toEqual(["cccc3333-0000-4000-8000-000000000003"]);
		expect(json<{ forgotten: number }>(await run("status", "--json")).forgotten).toBe(1);

		// The glob gone from the person's config, the workspace comes back.
		writeFileSync(join(agentDir, "event-index.json"), "{}");
		expect((await run("reindex")).code).toBe(0);
		expect(await hitsOf(run, "zebracorn")).toHaveLength(2);

		const ws = join(base, "exclude", "ws");
		mkdirSync(join(ws, ".pi"), { recursive: true });
		writeFileSync(join(ws, ".pi", "event-index.json"), JSON.stringify({ excludeWorkspaces: ["/home/dev/**"] }));
		const status = await cli(["--agent-dir", agentDir, "--workspace", ws, "status"], {
			env: hermeticEnv(join(base, "exclude", "home")),
		});
		expect(status.stdout).toMatch(/"excludeWorkspaces" may be set only in your own event-index\.json/);
	});
});
