/**
 * Every flag of search/read/trace and every bad command line, through runCli in this process (the program minus
 * the process boundary: same parser, same services, a real SQLite index over real fixture files). The process
 * boundary itself (launcher, exit codes, stderr) is covered by cli.test.ts with real child processes.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventReadResult, EventSearchHit, EventSearchResult, EventTrace } from "../../src/contract.js";
import {
	ARCHIVED,
	type CliRun,
	cliInProcess,
	ERRS,
	FORK_FROM,
	hasStack,
	hermeticEnv,
	json,
	LONG_ENTRY,
	LONG_TEXT,
	makeAgentDir,
	makeArchive,
	RICH,
} from "./cli-harness.js";

const LONG_TEXT_CPS = Array.from(LONG_TEXT);
let base: string;
let agentDir: string;
let archive: string;
let env: Record<string, string>;
let g: string[];

const run = (...args: string[]) => cliInProcess([...args, ...g], { env });
const hits = async (...args: string[]): Promise<EventSearchHit[]> =>
	json<EventSearchResult>(await run("search", ...args, "--json", "--no-sync")).hits;

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-flags-"));
	agentDir = join(base, "agent");
	archive = join(base, "archive");
	makeAgentDir(agentDir);
	makeArchive(archive);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--workspace", "/home/dev"];
	const r = await run("reindex");
	expect(r.code, r.stderr).toBe(0);
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

describe("search filters", () => {
	it("--session, --cwd (relative to the shell's directory too)", async () => {
		const session = await hits("answer", "--session", FORK_FROM);
		expect(session.length).toBeGreaterThan(0);
		expect(session.every((h) => h.sessionId === FORK_FROM)).toBe(true);
		const cwd = await hits("question", "--cwd", "/home/dev/sdk-project");
		expect(cwd.length).toBeGreaterThan(0);
		expect(cwd.every((h) => h.cwd === "/home/dev/sdk-project")).toBe(true);
		const relative = json<EventSearchResult>(
			await cliInProcess(["search", "question", "--cwd", "sdk-project", "--json", "--no-sync", ...g], {
				env,
				cwd: "/home/dev",
			}),
		).hits;
		expect(relative.map((h) => h.entryId)).toEqual(cwd.map((h) => h.entryId));
	});

	it("--kind (repeatable), --role, --tool, --error-only", async () => {
		const kind = await hits("kaboom", "--kind", "user_text");
		expect(kind.map((h) => [h.sessionId, h.semanticKind])).toEqual([[ERRS, "user_text"]]);
		const kinds = await hits("kaboom", "--kind", "user_text", "--kind", "assistant_text");
		expect(new Set(kinds.map((h) => h.semanticKind))).toEqual(new Set(["user_text", "assistant_text"]));
		const all = await hits("kaboom");
		expect(all.length).toBeGreaterThan(kinds.length);
		const role = await hits("kaboom", "--role", "toolResult");
		expect(role.length).toBe(2);
		expect(role.every((h) => h.role === "toolResult")).toBe(true);
		// Retrieval tool calls match only when --tool names them.
		expect((await hits("foo")).some((h) => h.toolName === "event_search")).toBe(false);
		const tool = await hits("foo", "--tool", "event_search");
		expect(tool.length).toBeGreaterThan(0);
		expect(tool.every((h) => h.toolName === "event_search")).toBe(true);
		const errors = await hits("kaboom", "--error-only");
		expect(errors.map((h) => [h.sessionId, h.entryId, h.isError])).toEqual([[ERRS, "r0000001", true]]);
	});

	it("--from/--to, --branch-state, --selection-state (repeatable)", async () => {
		const from = "2026-12-02T12:32:22.212Z";
		const to = "2026-12-02T12:32:22.232Z";
		const time = await hits("question", "--from", from, "--to", to);
		expect(time.length).toBeGreaterThan(0);
		expect(time.every((h) => h.timestamp >= from && h.timestamp <= to)).toBe(true);
		expect((await hits("question")).length).toBeGreaterThan(time.length);
		const branch = await hits("answer", "--branch-state", "alternate");
		expect(branch.length).toBeGreaterThan(0);
		expect(branch.every((h) => h.branchState === "alternate")).toBe(true);
		const selection = await hits("answer", "--selection-state", "summarized", "--selection-state", "not-selected");
		expect(selection.length).toBeGreaterThan(0);
		expect(selection.every((h) => ["summarized", "not-selected"].includes(h.selectionState))).toBe(true);
	});

	it("a query of several words is one query; -- lets a query start with a dash", async () => {
		const two = await run("search", "answer", "two", "--json", "--no-sync");
		// Hits with every term come first; relaxed hits after them say which term they miss.
		const phrase = json<EventSearchResult>(two).hits.filter((h) => h.missingTerms === undefined);
		expect(phrase.length).toBeGreaterThan(0);
		expect(phrase.every((h) => h.snippet.includes("answer two"))).toBe(true);
		const dashed = await cliInProcess([...g, "search", "--no-sync", "--", "-answer", "--json"], { env });
		expect(dashed.code, dashed.stderr).toBe(0);
		expect(dashed.stdout).toContain('no hit contains every term of "-answer --json"');
	});
});

describe("authorization and roots", () => {
	it("--workspace limits what may be read; --root adds an archive directory to the index", async () => {
		expect(await hits("answer")).not.toEqual([]);
		const elsewhere = await cliInProcess(["search", "answer", "--json", "--no-sync", "--agent-dir", agentDir], {
			env,
			cwd: "/srv",
		});
		expect(json<EventSearchResult>(elsewhere).hits).toEqual([]);
		const inArchive = ["--agent-dir", agentDir, "--workspace", "/archive/proj"];
		const before = await cliInProcess(["search", "zebracorn", "--json", ...inArchive], { env });
		expect(json<EventSearchResult>(before).hits).toEqual([]);
		const after = await cliInProcess(["search", "zebracorn", "--json", "--root", archive, ...inArchive], { env });
		const found = json<EventSearchResult>(after).hits;
		expect(found.map((h) => h.sessionId)).toEqual([ARCHIVED, ARCHIVED]);
		expect(found.every((h) => h.cwd === "/archive/proj")).toBe(true);
		// The archive is in the shared index now, but /home/dev may not read it.
		expect(await hits("zebracorn")).toEqual([]);
	});
});

describe("read flags", () => {
	it("--fragment (id or ordinal) and --offset move a window through one long fragment", async () => {
		const [byId, byOrdinal] = await Promise.all([
			run("read", ERRS, LONG_ENTRY, "--fragment", `${LONG_ENTRY}#0`, "--offset", "2000", "--json", "--no-sync"),
			run("read", ERRS, LONG_ENTRY, "--fragment", "0", "--json", "--no-sync"),
		]);
		const w = json<EventReadResult>(byId).window;
		expect(w).toMatchObject({
			fragmentId: `${LONG_ENTRY}#0`,
			offset: 2000,
			hasBefore: true,
			hasAfter: true,
			totalChars: 7089,
		});
		expect(w?.text).toBe(LONG_TEXT_CPS.slice(2000, w?.range.end).join(""));
		const first = json<EventReadResult>(byOrdinal).window;
		expect(first).toMatchObject({ offset: 0, hasBefore: false, hasAfter: true });
		expect(first?.text.startsWith("line0 line1 ")).toBe(true);
		const human = await run("read", ERRS, LONG_ENTRY, "--fragment", "0", "--no-sync");
		expect(human.stdout).toMatch(/\[r0000004#0\] tool_result, chars 0–\d+ of 7089/);
		expect(human.stdout).toMatch(/more text: --offset \d+/);
	});

	it("--before/--after bound the neighbours; --order append follows file order", async () => {
		const n = json<EventReadResult>(
			await run("read", RICH, "ca92c2d6", "--before", "1", "--after", "0", "--json", "--no-sync"),
		);
		expect(n.neighbors.map((x) => [x.relation, x.event.entryId])).toEqual([["before", "1c165423"]]);
		const branch = json<EventReadResult>(
			await run("read", RICH, "31e94dc5", "--after", "1", "--before", "0", "--json", "--no-sync"),
		);
		const append = json<EventReadResult>(
			await run("read", RICH, "e6381537", "--order", "append", "--after", "1", "--before", "0", "--json", "--no-sync"),
		);
		expect(branch.order).toBe("branch");
		expect(branch.neighbors.map((x) => x.event.entryId)).toEqual(["7fe12b9e"]);
		expect(append.order).toBe("append");
		// In file order the bash run is followed by the branch summary that starts another branch.
		expect(append.neighbors.map((x) => x.event.entryId)).toEqual(["31e94dc5"]);
	});
});

describe("trace flags", () => {
	it("--depth follows related edges transitively (within the budget)", async () => {
		const one = json<EventTrace>(await run("trace", RICH, "1c165423", "--json", "--no-sync"));
		const two = json<EventTrace>(await run("trace", RICH, "1c165423", "--depth", "2", "--json", "--no-sync"));
		expect(one.related.map((e) => e.kind)).toContain("tool-call");
		expect(two.related.length).toBeGreaterThan(one.related.length);
		expect(two.related.some((e) => e.depth === 2)).toBe(true);
	});
});

describe("bad command lines: exit 2, one line naming the problem", () => {
	const cases: Array<[string[], RegExp]> = [
		[["search", "x", "--bogus"], /unknown option --bogus/],
		[["search", "x", "-z"], /unknown option -z/],
		[["status", "--kind", "user_text"], /option --kind does not apply to status/],
		[["--full"], /option --full needs a command before it/],
		[["frobnicate"], /unknown command "frobnicate"/],
		[[], /missing command/],
		[["search", "x", "--session"], /option --session needs a value/],
		[["search", "x", "--session", "--all"], /option --session needs a value/],
		[["read", RICH, "a", "--order", "branch", "--order", "append"], /option --order given twice/],
		[["read", RICH], /read takes SESSION ENTRY/],
		[["trace", RICH, "a", "b"], /trace takes SESSION ENTRY/],
		[["status", "extra"], /status takes no arguments/],
		[["search"], /search takes QUERY/],
		[["read", RICH, "a", "--offset", "-1", "--fragment", "0"], /--offset must be a non-negative integer, got "-1"/],
		[["read", RICH, "a", "--before", "two"], /--before must be a non-negative integer/],
		[["read", RICH, "a", "--offset", "4"], /--offset needs --fragment/],
		[["read", RICH, "a", "--order", "sideways"], /--order must be branch or append/],
		[["trace", RICH, "a", "--depth", "0"], /--depth must be a positive integer/],
		[["search", "x", "--from", "yesterday", "--no-sync"], /--from must be an ISO date/],
		[["search", "x", "--to", "2026-13-45", "--no-sync"], /--to must be an ISO date/],
		[["search", "x", "--branch-state", "chosen", "--no-sync"], /--branch-state has unknown value\(s\) chosen/],
		[["search", "x", "--selection-state", "maybe", "--no-sync"], /--selection-state has unknown value\(s\) maybe/],
		[
			["read", RICH, "84051c10", "--fragment", "7", "--no-sync"],
			/--fragment names no fragment of entry 84051c10: it has no #7/,
		],
		[["status", "--json=yes"], /option --json takes no value/],
		[["help", "nothing"], /no help for unknown command "nothing"/],
	];
	it.each(cases)("%j", async (args, pattern) => {
		const r: CliRun = await run(...args);
		expect(r.code, r.stderr).toBe(2);
		expect(r.stdout).toBe("");
		expect(r.stderr.trim().split("\n")).toHaveLength(1);
		expect(r.stderr).toMatch(/^pi-event-index: /);
		expect(r.stderr).toMatch(pattern);
		expect(hasStack(r.stderr)).toBe(false);
	});
});

describe("help", () => {
	it("help lists every command; help COMMAND and COMMAND --help show its usage and options", async () => {
		const help = await run("help");
		expect(help.code).toBe(0);
		for (const c of ["reindex", "status", "verify", "search QUERY", "read SESSION ENTRY", "trace SESSION ENTRY"]) {
			expect(help.stdout).toContain(`  ${c}`);
		}
		const read = await run("help", "read");
		expect(read.stdout).toContain("usage: pi-event-index read SESSION ENTRY");
		for (const f of ["--fragment ID", "--offset N", "--before N", "--after N", "--order branch|append"]) {
			expect(read.stdout).toContain(f);
		}
		const reindex = await run("reindex", "-h");
		expect(reindex.stdout).toContain("--full");
		expect(reindex.stdout).toContain("--no-wait");
	});
});
