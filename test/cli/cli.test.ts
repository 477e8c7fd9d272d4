/**
 * The real program in real child processes over real Pi session fixtures: every command and flag, the --json
 * shapes, human output, and one-line errors with the documented exit codes.
 */

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Coverage, EventReadResult, EventSearchResult, EventTrace } from "../../src/contract.js";
import { CATCH_UP_LOCK, REBUILD_LOCK } from "../../src/ingest/lock-names.js";
import { generationFileName, INDEX_FORMAT, pointerFileName } from "../../src/store/format.js";
import { coverageText } from "../../src/text/coverage-text.js";
import { type CliRun, cli, hasStack, hermeticEnv, json, makeAgentDir, PRINT_TOOL, RICH } from "./cli-harness.js";

let base: string;
let agentDir: string;
let env: Record<string, string>;
/** Global options of most runs: the temp agent dir, and /home/dev as the workspace (the fixtures' cwds lie inside). */
let g: string[];

const run = (...args: string[]) => cli([...args, ...g], { env });

/** One line on stderr, no stack, and the given exit code. */
function expectCleanError(r: CliRun, code: number, pattern: RegExp) {
	expect(r.code, r.stderr).toBe(code);
	expect(r.stdout).toBe("");
	expect(r.stderr.trim().split("\n")).toHaveLength(1);
	expect(r.stderr).toMatch(/^pi-event-index: /);
	expect(r.stderr).toMatch(pattern);
	expect(hasStack(r.stderr)).toBe(false);
}

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-cli-"));
	agentDir = join(base, "agent");
	makeAgentDir(agentDir);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--workspace", "/home/dev"];
	// Human output, piped (not a TTY): a summary, no progress bar.
	const first = await run("reindex");
	expect(first.code, first.stderr).toBe(0);
	expect(first.stdout).toMatch(/caught up the index: 10 files synced \(10 indexed, 0 removed, 0 failed\)/);
	expect(first.stdout).toContain(`index: ${join(agentDir, "event-index")}`);
	expect(first.stderr).not.toContain("\r");
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

describe("reindex and status", () => {
	it("an incremental reindex of an unchanged corpus syncs nothing; --json has the report shape", async () => {
		const r = json(await run("reindex", "--json"));
		expect(r).toMatchObject({
			mode: "incremental",
			indexDir: join(agentDir, "event-index"),
			waitedMs: 0,
			result: { done: 0, indexed: 0, failed: 0, stopped: false, errors: [] },
			coverage: { known: 10, indexed: 10, pending: 0, failed: 0, partial: false },
		});
		expect(typeof r.generation).toBe("string");
	});

	it("status reports where the index is, counts, coverage, size, last sync and locks (json and human)", async () => {
		const [j, h] = await Promise.all([run("status", "--json"), run("status")]);
		const s = json(j);
		expect(j.code).toBe(0);
		expect(s).toMatchObject({
			agentDir,
			indexDir: join(agentDir, "event-index"),
			workspace: "/home/dev",
			exists: true,
			format: INDEX_FORMAT,
			pointerFile: join(agentDir, "event-index", pointerFileName()),
			readOnly: false,
			discoveredFiles: 10,
			coverage: { known: 10, indexed: 10, partial: false },
			locks: { [CATCH_UP_LOCK]: { locked: false }, [REBUILD_LOCK]: { locked: false }, store: { locked: false } },
			config: { files: [], problems: [] },
		});
		const counts = s.counts as { sources: number; events: number; fragments: number };
		expect(counts.sources).toBe(10);
		expect(counts.events).toBeGreaterThan(70);
		expect(counts.fragments).toBeGreaterThan(50);
		expect(s.generationFile).toBe(join(agentDir, "event-index", generationFileName(s.generation as string)));
		expect((s.size as { generationBytes: number }).generationBytes).toBeGreaterThan(0);
		expect(Date.parse(s.lastSyncAt as string)).toBeGreaterThan(Date.now() - 10 * 60_000);
		expect(h.code).toBe(0);
		expect(h.stdout).toContain(`index dir   ${join(agentDir, "event-index")}`);
		expect(h.stdout).toMatch(/counts {6}10 sources, \d+ events, \d+ fragments/);
		expect(h.stdout).toContain(`${CATCH_UP_LOCK.padEnd(12)} free`);
		// Coverage worded as the tools word it.
		expect(h.stdout.split("\n")).toContain(coverageText(s.coverage as Coverage));
	});

	it("--index-dir and PI_EVENT_INDEX_DIR move the index; status of a missing index says how to build it", async () => {
		const other = join(base, "other-index");
		const [flag, fromEnv] = await Promise.all([
			cli(["status", "--json", "--index-dir", other, "--agent-dir", agentDir], { env }),
			cli(["status", "--agent-dir", agentDir], { env: { ...env, PI_EVENT_INDEX_DIR: other } }),
		]);
		expect(json(flag)).toMatchObject({ indexDir: other, exists: false });
		expect(fromEnv.code).toBe(0);
		expect(fromEnv.stdout).toContain(`index dir   ${other}`);
		expect(fromEnv.stdout).toContain("no index yet");
	});

	it("PI_CODING_AGENT_DIR is the default agent dir", async () => {
		const r = json(await cli(["status", "--json"], { env: { ...env, PI_CODING_AGENT_DIR: agentDir } }));
		expect(r).toMatchObject({ agentDir, exists: true });
	});
});

describe("search", () => {
	it("returns the contract's hits with the ids a read needs (json) and a readable list (human)", async () => {
		// One after the other: a --no-sync run beside a syncing one sees its lock and says "catch-up running".
		const h = await run("search", "answer");
		const j = await run("search", "answer", "--json", "--no-sync");
		const r = json<EventSearchResult>(j);
		expect(r.hits.length).toBeGreaterThan(1);
		expect(r).toMatchObject({ truncated: false, limit: 10, coverage: { known: 10, partial: false } });
		for (const hit of r.hits) {
			expect(Object.keys(hit)).toEqual(
				expect.arrayContaining(["sessionId", "entryId", "matchingFragmentId", "snippet"]),
			);
			expect(hit.cwd.startsWith("/home/dev/")).toBe(true);
		}
		const top = r.hits[0];
		expect(h.code).toBe(0);
		expect(h.stdout).toContain(`${r.hits.length} hits for "answer"`);
		expect(h.stdout).toContain(`1. ${top?.sessionId} ${top?.entryId}`);
		expect(h.stdout).toContain(`read the top hit: pi-event-index read ${top?.sessionId} ${top?.entryId}`);
		expect(h.stdout.split("\n")).toContain(coverageText(r.coverage));
	});

	it("global options are accepted anywhere on the line", async () => {
		const r = await cli(
			["--json", "--agent-dir", agentDir, "search", "--workspace", "/home/dev", "answer", "--no-sync"],
			{
				env,
			},
		);
		expect(r.code, r.stderr).toBe(0);
		expect(json<EventSearchResult>(r).hits.length).toBeGreaterThan(0);
	});
});

describe("read and trace", () => {
	it("read returns the event with fragments, neighbours, order and coverage (json and human)", async () => {
		const [plain, human] = await Promise.all([
			run("read", RICH, "84051c10", "--json", "--no-sync"),
			run("read", RICH, "84051c10"),
		]);
		const r = json<EventReadResult>(plain);
		expect(r.event).toMatchObject({ sessionId: RICH, entryId: "84051c10", role: "assistant", labels: ["checkpoint"] });
		expect(r.fragments.map((f) => f.fragmentId)).toEqual(["84051c10#0"]);
		expect(r.fragmentCoverage).toMatchObject({ total: 1, returned: 1, omitted: 0 });
		expect(r.neighbors.map((n) => [n.relation, n.event.entryId])).toEqual([
			["before", "e2ded057"],
			["before", "a1f8265b"],
			["after", "1c165423"],
			["after", "ca92c2d6"],
		]);
		expect(r).toMatchObject({ order: "branch", coverage: { partial: false } });
		// The fixtures' `/fork` of this session names it by a path on another machine: found by the session id in that
		// file name, its continuation is a fork receipt here.
		const BRANCHED = "01a236bd-dcdd-7461-8f45-9c840ed959e6";
		expect(r.forks).toEqual([
			{
				kind: "session-fork",
				at: { sessionId: RICH, entryId: "84051c10" },
				candidates: [
					{ sessionId: RICH, entryId: "1c165423" },
					{ sessionId: BRANCHED, entryId: "d53341f2" },
				],
				chosen: { sessionId: RICH, entryId: "1c165423" },
			},
		]);
		expect(human.code).toBe(0);
		expect(human.stdout).toContain("event 84051c10  message assistant event_search");
		expect(human.stdout).toContain("[84051c10#0] tool_call event_search");
		expect(human.stdout).toContain("labels: checkpoint");
	});

	it("trace returns parent, children and related edges (json and human)", async () => {
		const [j, h] = await Promise.all([
			run("trace", RICH, "84051c10", "--json", "--no-sync"),
			run("trace", RICH, "84051c10"),
		]);
		const t = json<EventTrace>(j);
		expect(t.target).toMatchObject({ sessionId: RICH, entryId: "84051c10" });
		expect(t.parent?.node?.entryId).toBe("a1f8265b");
		expect(t.children.map((c) => c.node?.entryId)).toEqual(["1c165423"]);
		expect(t.related.map((e) => e.kind)).toEqual(expect.arrayContaining(["tool-result", "labels"]));
		expect(t.coverage.partial).toBe(false);
		expect(h.code).toBe(0);
		expect(h.stdout).toContain(`trace of 84051c10 in session ${RICH}`);
		expect(h.stdout).toMatch(/tool-result\s+1c165423/);
	});
});

describe("errors: one clear line, no stack, the documented exit code", () => {
	it("a missing agent dir (flag or environment)", async () => {
		const missing = join(base, "no-such-agent");
		const [flag, fromEnv] = await Promise.all([
			cli(["status", "--agent-dir", missing], { env }),
			cli(["search", "x"], { env: { ...env, PI_CODING_AGENT_DIR: missing } }),
		]);
		expectCleanError(flag, 1, /Pi agent dir .*no-such-agent \(from --agent-dir\) does not exist or is not a directory/);
		expectCleanError(fromEnv, 1, /\(from \$PI_CODING_AGENT_DIR\) does not exist/);
	});

	it("an unknown session or entry", async () => {
		const [session, traced] = await Promise.all([
			run("read", "no-such-session", "84051c10", "--no-sync"),
			run("trace", PRINT_TOOL, "nope"),
		]);
		expectCleanError(session, 1, /No such event in the sessions this workspace may read\./);
		expectCleanError(traced, 1, /No such event/);
	});

	it("bad command lines exit 2 (the full matrix is in cli-flags.test.ts)", async () => {
		const [unknownOption, wrongCommand, badValue] = await Promise.all([
			run("search", "x", "--bogus"),
			run("frobnicate"),
			run("read", RICH, "84051c10", "--order", "sideways"),
		]);
		expectCleanError(unknownOption, 2, /unknown option --bogus/);
		expectCleanError(wrongCommand, 2, /unknown command "frobnicate"/);
		expectCleanError(badValue, 2, /option --order must be branch or append/);
	});
});

describe("errors stay bounded, whatever the input", () => {
	it("regression: a 120,000-character id, option, command or value gives an error under 2,000 characters", async () => {
		const huge = `x${"y".repeat(120_000)}`;
		const runs = await Promise.all([
			run("read", RICH, huge, "--fragment", "q#0"),
			run("read", RICH, huge, "--fragment", "q#0", "--json"),
			run("search", "x", `--${huge}`),
			run(huge),
			run("help", huge),
			run("search", "x", "--limit", huge),
			run("read", RICH, "84051c10", "--order", huge),
			run("status", huge),
		]);
		for (const r of runs) {
			expect(r.code, r.stderr.slice(0, 200)).toBe(2);
			expect(r.stdout.length + r.stderr.length).toBeLessThan(2_000);
			expect(hasStack(r.stderr)).toBe(false);
		}
		expectCleanError(runs[0] as CliRun, 2, /option --fragment must name a fragment of entry xyyy.*…/);
		expect(json<{ error: { code: string; field: string } }>(runs[1] as CliRun).error).toMatchObject({
			code: "invalid_value",
			field: "--fragment",
		});
		expectCleanError(runs[2] as CliRun, 2, /unknown option --xyyy/);
	});
});

describe("silently wrong input is an error or explained", () => {
	it("regression: impossible dates and over-long lists are usage errors naming the flag; an empty answer names its filters", async () => {
		const tools = Array.from({ length: 101 }, (_, i) => ["--tool", `t${i}`]).flat();
		const [feb30, zero, many, alone, together, absent] = await Promise.all([
			run("search", "kaboom", "--from", "2026-02-30", "--no-sync"),
			run("search", "kaboom", "--to", "0", "--no-sync", "--json"),
			run("search", "kaboom", ...tools, "--no-sync"),
			run("search", "kaboom", "--kind", "compaction", "--no-sync"),
			run("search", "kaboom", "--role", "user", "--error-only", "--no-sync"),
			run("search", "xylophonequartz", "--role", "user", "--no-sync"),
		]);
		expectCleanError(feb30, 2, /--from must be an ISO date .*"2026-02-30" has no day 30 \(2026-02 has 28\)/);
		expect(json<{ error: { code: string; field: string } }>(zero).error).toMatchObject({
			code: "invalid_value",
			field: "--to",
		});
		expectCleanError(many, 2, /--tool has 101 values; at most 100 are allowed/);
		expect(alone.stdout).toMatch(/^no hits for "kaboom": the filter --kind excludes every event that holds its terms/);
		expect(together.stdout).toMatch(
			/^no hits for "kaboom": the filters --role and --error-only together exclude every event that holds its terms/,
		);
		expect(absent.stdout).toMatch(/^no hits for "xylophonequartz"\n/);
	});
});

describe("help and version", () => {
	it("COMMAND --help lists its options; --version prints the version", async () => {
		const [searchHelp, version] = await Promise.all([cli(["search", "--help"], { env }), cli(["--version"], { env })]);
		expect(searchHelp.code).toBe(0);
		for (const f of [
			"--session ID",
			"--cwd DIR",
			"--kind K",
			"--role R",
			"--tool NAME",
			"--error-only",
			"--from TIME",
			"--since TIME",
			"--limit N",
		]) {
			expect(searchHelp.stdout).toContain(f);
		}
		expect(searchHelp.stdout).toContain("--branch-state S");
		expect(searchHelp.stdout).toContain("--agent-dir DIR");
		expect(version.code).toBe(0);
		expect(version.stdout.trim()).toMatch(/^pi-event-index@\d+\.\d+\.\d+/);
	});
});
