/**
 * `search --path` through the real program (a child process) over a real Pi session: a look-up by file, alone or
 * with words and other flags, and its one-line errors.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import type { EventSearchResult } from "../../src/contract.js";
import { type CliRun, cli, hasStack, hermeticEnv, json, ROOT } from "./cli-harness.js";

const CWD = "/Users/badlogic/workspaces/pi-mono";
const FILE = "packages/coding-agent/src/theme/theme.ts";
let base: string;
let env: Record<string, string>;
let g: string[];
const run = (...args: string[]) => cli([...args, ...g], { env });

function expectUsageError(r: CliRun, pattern: RegExp) {
	expect(r.code, r.stderr).toBe(2);
	expect(r.stdout).toBe("");
	expect(r.stderr.trim().split("\n")).toHaveLength(1);
	expect(r.stderr).toMatch(pattern);
	expect(hasStack(r.stderr)).toBe(false);
}

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-cli-paths-"));
	const agentDir = join(base, "agent");
	const dir = join(agentDir, "sessions", encodeSessionDirName(CWD));
	mkdirSync(dir, { recursive: true });
	copyFileSync(join(ROOT, "fixtures", "pi-mono-v1", "large-session.jsonl"), join(dir, "large-session.jsonl"));
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--workspace", CWD];
	const first = await run("reindex");
	expect(first.code, first.stderr).toBe(0);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("search --path", () => {
	it("alone: the events that read, edited or ran commands on the file, newest first", async () => {
		const r = json<EventSearchResult>(await run("search", "--path", FILE, "--limit", "50", "--json", "--no-sync"));
		const tools = new Set(r.hits.map((h) => `${h.role}:${h.toolName}`));
		for (const t of ["assistant:read", "toolResult:read", "assistant:edit", "toolResult:bash"])
			expect(tools).toContain(t);
		const times = r.hits.map((h) => h.timestamp);
		expect(times).toEqual([...times].sort().reverse());
		const human = await run("search", "--path", "theme.ts", "--no-sync");
		expect(human.code, human.stderr).toBe(0);
		expect(human.stdout).toMatch(/^10\+ hits for those paths/);
	});

	it("with words and other flags: only the events that satisfy all", async () => {
		const all = json<EventSearchResult>(await run("search", "--path", FILE, "--limit", "50", "--json", "--no-sync"));
		const results = json<EventSearchResult>(
			await run("search", "--path", FILE, "--kind", "tool_result", "--limit", "50", "--json", "--no-sync"),
		);
		expect(results.hits.length).toBeGreaterThan(0);
		expect(results.hits.every((h) => h.semanticKind === "tool_result")).toBe(true);
		const words = json<EventSearchResult>(
			await run("search", "export", "--path", FILE, "--path", "nothing.md", "--json", "--no-sync"),
		);
		expect(words.hits.length).toBeGreaterThan(0);
		const none = json<EventSearchResult>(await run("search", "--path", "nothing.md", "--json", "--no-sync"));
		expect(none.hits).toEqual([]);
		expect(all.hits.length).toBeGreaterThan(results.hits.length);
	});

	it("errors: no query and no --path, a path that names no file", async () => {
		expectUsageError(await run("search", "--no-sync"), /search takes QUERY .*or --path PATH alone; got none/);
		expectUsageError(await run("search", "--path", "./", "--no-sync"), /--path has "\.\/", which names no file/);
	});
});
