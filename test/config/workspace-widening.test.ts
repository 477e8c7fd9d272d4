/**
 * Issue 45, findings 1 and 2: a repository's own `.pi/event-index.json` cannot widen what the model working in it
 * sees (`allRoots`, `extraRoots`) or send the index into the repository (`indexDir`); it may still narrow. The refusal
 * is one line in the CLI's status, the extension's `/event-index` status, every tool answer's coverage note and the
 * log. Real files, the real program in child processes, the extension's real runtime.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import type { EventSearchResult } from "../../src/contract.js";
import { runtimeStatusText } from "../../src/extension/command.js";
import { IndexRuntime } from "../../src/extension/index-runtime.js";
import { LOG_FILE } from "../../src/files/log.js";
import { searchEvents } from "../../src/query/index.js";
import { renderSearchText } from "../../src/tools/render-text.js";
import { cli, hermeticEnv, json } from "../cli/cli-harness.js";
import { lineFactory } from "../helpers/session-lines.js";

let tmp: string;
let agentDir: string;
let repo: string;
let victim: string;
let env: Record<string, string>;
const runtimes: IndexRuntime[] = [];

/** A Pi session of `cwd` in the person's agent dir, saying `text`. */
function session(cwd: string, text: string): void {
	const f = lineFactory({ cwd, prefix: "v" });
	const dir = join(agentDir, "sessions", encodeSessionDirName(cwd));
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "s.jsonl"), f.header() + f.user(text) + f.assistant("noted"));
}

function repoConfig(value: unknown): void {
	writeFileSync(join(repo, ".pi", "event-index.json"), JSON.stringify(value));
}

const search = (query: string, ...extra: string[]) =>
	cli(["search", query, "--json", "--agent-dir", agentDir, "--workspace", repo, ...extra], { env });

beforeEach(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-widen-")));
	agentDir = join(tmp, "agent");
	repo = join(tmp, "cloned-repo");
	victim = join(tmp, "client-work");
	mkdirSync(join(repo, ".git"), { recursive: true });
	mkdirSync(join(repo, ".pi"), { recursive: true });
	mkdirSync(join(victim, ".git"), { recursive: true });
	mkdirSync(join(tmp, "home"));
	session(victim, "the client password is zebraquartz");
	session(repo, "the repository's own zebraquartz note");
	env = hermeticEnv(join(tmp, "home"));
});

afterEach(async () => {
	for (const rt of runtimes.splice(0)) await rt.close();
	rmSync(tmp, { recursive: true, force: true });
});

describe("a workspace config file may only narrow", () => {
	for (const [name, widening, key] of [
		["allRoots", { authorization: { allRoots: true } }, "authorization.allRoots"],
		["extraRoots", { authorization: { extraRoots: ["/"] } }, "authorization.extraRoots"],
	] as const) {
		it(`a repository's ${name} does not let its model read another workspace's sessions`, async () => {
			repoConfig(widening);
			const r = await search("zebraquartz");
			expect(r.code, r.stderr).toBe(0);
			const hits = json<EventSearchResult>(r).hits;
			expect(hits.map((h) => h.cwd)).toEqual([repo]);
			expect(r.stderr).toContain(`ignored "${key}"`);
			const status = await cli(["status", "--agent-dir", agentDir, "--workspace", repo], { env });
			expect(status.stdout).toContain(`ignored "${key}": a repository's file may only narrow`);
		});
	}

	it("a repository's indexDir never puts the index (or its log) inside the repository", async () => {
		repoConfig({ indexDir: "idx" });
		const r = await search("zebraquartz");
		expect(r.code, r.stderr).toBe(0);
		expect(r.stderr).toContain('ignored "indexDir"');
		expect(existsSync(join(repo, ".pi", "idx"))).toBe(false);
		expect(existsSync(join(agentDir, "event-index"))).toBe(true);
	});

	it("the person's own settings still widen, and a workspace file still narrows them", async () => {
		writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ authorization: { allRoots: true } }));
		const wide = json<EventSearchResult>(await search("zebraquartz"));
		expect(wide.hits.map((h) => h.cwd).sort()).toEqual([victim, repo].sort());
		repoConfig({ authorization: { allRoots: false } });
		const narrowed = await search("zebraquartz");
		expect(json<EventSearchResult>(narrowed).hits.map((h) => h.cwd)).toEqual([repo]);
		expect(narrowed.stderr).not.toContain("ignored");
	});

	it("the extension says so in every tool answer's coverage note, in /event-index status and in the log", async () => {
		repoConfig({ authorization: { allRoots: true }, indexDir: "idx" });
		const rt = IndexRuntime.start({ cwd: repo, env: { PI_CODING_AGENT_DIR: agentDir } });
		runtimes.push(rt);
		const result = await rt.query({ cwd: repo }, (s) =>
			searchEvents(s.index.manager.store.db, { query: "zebraquartz" }, s.caller, s.options),
		);
		expect(result.hits.map((h) => h.cwd)).toEqual([repo]);
		const text = renderSearchText(result, "zebraquartz", { cwd: repo });
		const notice = 'workspace config .pi/event-index.json ignored "indexDir", "authorization.allRoots"';
		expect(text.split("\n").at(-1)).toContain(notice);
		expect(runtimeStatusText(await rt.status())).toContain(notice);
		await rt.close();
		const log = readFileSync(join(agentDir, "event-index", LOG_FILE), "utf8");
		expect(log).toContain('"event":"config_refused"');
		expect(log).toContain(JSON.stringify(notice).slice(1, -1));
	});
});
