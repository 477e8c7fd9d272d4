/**
 * A search's catch-up compares the session files with their checkpoints before it answers, even when another process
 * caught the index up a moment ago: a line appended, a session started or a file replaced after that catch-up is in
 * the answer; with nothing changed the search answers without a pass (docs/lifecycle.md, "Discovery and catch-up").
 * A file idle an hour is compared again once `catchUp.idleFilesRecheckSeconds` has passed since the last check of
 * every file ("Idle files between full checks"). Real files; the program as real child processes.
 */
import {
	appendFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	renameSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import type { EventSearchResult } from "../../src/contract.js";
import { lineFactory } from "../helpers/session-lines.js";
import { cli, hermeticEnv, json, makeAgentDir } from "./cli-harness.js";

let base: string;
let agentDir: string;
let env: Record<string, string>;
let errs: string;

const g = () => ["--agent-dir", agentDir, "--all"];
const hits = async (word: string) => {
	const r = await cli(["search", word, "--json", ...g()], { env });
	expect(r.code, r.stderr).toBe(0);
	return json<EventSearchResult>(r).hits.length;
};

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-catch-up-answer-"));
	agentDir = join(base, "agent");
	errs = makeAgentDir(agentDir).find((f) => f.endsWith("errs.jsonl")) as string;
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
});
afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

describe("search after another process's catch-up", () => {
	it("regression: a line appended, a session started or a file replaced just after it is in the answer", async () => {
		const built = await cli(["reindex", ...g()], { env });
		expect(built.code, built.stderr).toBe(0);
		expect(await hits("quokkamarker")).toBe(0);

		// Appended right after that process's catch-up finished: the next search must find it.
		appendFileSync(errs, lineFactory({ cwd: "/home/dev/errs", prefix: "q" }).user("the quokkamarker is here"));
		expect(await hits("quokkamarker")).toBe(1);
		// Nothing changed since: the same answer again.
		expect(await hits("quokkamarker")).toBe(1);

		const dir = join(agentDir, "sessions", encodeSessionDirName("/home/dev/new"));
		mkdirSync(dir, { recursive: true });
		const fresh = lineFactory({ cwd: "/home/dev/new", prefix: "n" });
		writeFileSync(join(dir, "new.jsonl"), fresh.header() + fresh.user("a wombatmarker appears"));
		expect(await hits("wombatmarker")).toBe(1);

		// Replaced by a file of the same size (another inode): its old words go, its new ones come.
		const old = lineFactory({ sessionId: "same-size", cwd: "/home/dev/new", prefix: "s" });
		const twin = lineFactory({ sessionId: "same-size", cwd: "/home/dev/new", prefix: "s" });
		const path = join(dir, "twin.jsonl");
		writeFileSync(path, old.header() + old.user("alpacamarker"));
		expect(await hits("alpacamarker")).toBe(1);
		writeFileSync(`${path}.tmp`, twin.header() + twin.user("walrusmarker"));
		expect(statSync(`${path}.tmp`).size).toBe(statSync(path).size);
		renameSync(`${path}.tmp`, path);
		expect(await hits("walrusmarker")).toBe(1);
		expect(await hits("alpacamarker")).toBe(0);
	});
});

describe("search after a check of every file, with an idle session appended to by another writer", () => {
	it("answers from that check within catchUp.idleFilesRecheckSeconds, and compares every file with 0", async () => {
		const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
		const dir = join(base, "idle");
		const agent = join(dir, "agent");
		const idle = makeAgentDir(agent).find((f) => f.endsWith("errs.jsonl")) as string;
		const sessions = join(agent, "sessions");
		for (const ws of readdirSync(sessions)) {
			for (const f of readdirSync(join(sessions, ws))) utimesSync(join(sessions, ws, f), hoursAgo(2), hoursAgo(2));
			utimesSync(join(sessions, ws), hoursAgo(3), hoursAgo(3));
		}
		const setRecheck = (seconds: number) =>
			writeFileSync(join(agent, "event-index.json"), JSON.stringify({ catchUp: { idleFilesRecheckSeconds: seconds } }));
		const count = async (word: string) => {
			const r = await cli(["search", word, "--json", "--agent-dir", agent, "--all"], { env });
			expect(r.code, r.stderr).toBe(0);
			return json<EventSearchResult>(r).hits.length;
		};
		setRecheck(600);
		expect((await cli(["reindex", "--agent-dir", agent, "--all"], { env })).code).toBe(0);
		// This search's check of every file finds nothing to do: it is recorded.
		expect(await count("otterquokka")).toBe(0);
		appendFileSync(idle, lineFactory({ cwd: "/home/dev/errs", prefix: "o" }).user("an otterquokka, late"));
		expect(await count("otterquokka")).toBe(0);
		setRecheck(0);
		expect(await count("otterquokka")).toBe(1);
	});
});
