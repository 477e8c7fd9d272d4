/**
 * The extension end to end with the REAL `pi` CLI and the scripted faux provider: earlier pi runs write sessions
 * with marker words; a later run's model calls event_search → event_read on the hit → event_trace, and the tool
 * results land in that run's session JSONL. Also: two pi processes at once sharing one index, a restart answering
 * from the warm index alone, --no-session, clear errors, and the /event-index command.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventReadResult, EventSearchResult, EventTrace } from "../../src/contract.js";
import { EXTENSION, e2eDirs, expectOk, expectOneConsistentIndex, textOf, toolResults } from "../helpers/e2e.js";
import { PI_HOSTS, REPO_ROOT, type RunPiResult, readJsonl, runPi } from "../helpers/pi-cli.js";

const SCRIPTS = join(REPO_ROOT, "test", "fixtures", "e2e-scripts");
const MARKER_A = "zephyrquokka";
const MARKER_B = "marmotfjord";

describe.each(PI_HOSTS)("the extension in the real pi CLI: $name", (host) => {
	let tmp: string;
	let agentDir: string;
	let cwd: string;
	let seedA: RunPiResult;
	let seedB: RunPiResult;

	/** The text the model saw names no absolute path: not the temp root, not any /x/y path. */
	function expectNoPaths(text: string): void {
		expect(text).not.toContain(tmp);
		expect(text).not.toMatch(/(^|[\s=(:"'])\/[\w.-]+\/[\w.-]+/);
	}

	function piRun(args: string[], script?: string, env: Record<string, string> = {}, runCwd = cwd) {
		return runPi({
			host,
			agentDir,
			cwd: runCwd,
			args,
			script: script ? join(SCRIPTS, script) : undefined,
			extensions: [EXTENSION],
			env,
			timeoutMs: 60_000,
		});
	}

	beforeAll(async () => {
		({ tmp, agentDir, cwd } = e2eDirs("pei-ext-"));
		// An earlier session written by pi WITHOUT this extension: only catch-up can know it.
		seedA = await runPi({ host, agentDir, cwd, args: [`please note the ${MARKER_A} deployment checklist`] });
		expectOk(seedA);
		// And one written with it loaded (opens the index, starts catch-up, makes no tool call).
		seedB = await piRun([`the ${MARKER_B} cache was flaky yesterday`]);
		expectOk(seedB);
	}, 120_000);

	afterAll(() => {
		rmSync(tmp, { recursive: true, force: true });
	});

	it("search → read → trace against sessions of earlier pi runs; results are in the session JSONL", async () => {
		const run = await piRun(["look up what we said before"], "search-read-trace.mjs", { E2E_MARKER: MARKER_A });
		expectOk(run);
		const seedId = seedA.reports[0].sessionId;
		expect(run.stdout).toContain(`finished ${seedId}`);
		const results = toolResults(readJsonl(run.sessionFile as string));
		expect(results.map((r) => r.toolName)).toEqual(["event_search", "event_read", "event_trace"]);
		for (const r of results) {
			expect(r.isError, textOf(r)).toBe(false);
			expectNoPaths(textOf(r));
		}

		const [search, read, trace] = results;
		const found = search.details as EventSearchResult;
		expect(found.hits).toHaveLength(1);
		expect(found.hits[0]).toMatchObject({ sessionId: seedId, semanticKind: "user_text", role: "user", cwd });
		expect(found.coverage.partial).toBe(false);
		expect(textOf(search)).toContain(`sessionId=${seedId} entryId=${found.hits[0].entryId}`);
		expect(textOf(search)).toContain(MARKER_A);
		expect(textOf(search)).toMatch(/^coverage: complete/m);

		const readDetails = read.details as EventReadResult;
		expect(readDetails.event).toMatchObject({ sessionId: seedId, entryId: found.hits[0].entryId, role: "user" });
		expect(readDetails.fragments[0].text.text).toBe(`please note the ${MARKER_A} deployment checklist`);
		// The assistant's answer follows on the branch.
		expect(readDetails.neighbors.some((n) => n.relation === "after" && n.event.role === "assistant")).toBe(true);
		expect(textOf(read)).toContain(`please note the ${MARKER_A} deployment checklist`);

		const traceDetails = trace.details as EventTrace;
		expect(traceDetails.target).toMatchObject({ sessionId: seedId, entryId: found.hits[0].entryId });
		expect(traceDetails.children.length).toBeGreaterThan(0);
		expect(textOf(trace)).toContain("children:");
	});

	it("two pi processes at once on one agent dir share one index; it is consistent afterwards", async () => {
		const [a, b] = await Promise.all([
			piRun(["first concurrent"], "search-only.mjs", { E2E_MARKER: MARKER_B }),
			piRun(["second concurrent"], "search-only.mjs", { E2E_MARKER: MARKER_B }),
		]);
		for (const r of [a, b]) {
			expectOk(r);
			expect(r.stdout).toContain(`RESULT 1 event match "${MARKER_B}"`);
			expect(r.stdout).toContain(`sessionId=${seedB.reports[0].sessionId}`);
			const [search] = toolResults(readJsonl(r.sessionFile as string));
			expect(search.isError).toBe(false);
		}
		expect(a.sessionFile).not.toBe(b.sessionFile);
		// One index directory, one published generation, and every session file indexed exactly as it is on disk.
		await expectOneConsistentIndex(agentDir);
	});

	it("works with --no-session (no file of its own): the tools answer", async () => {
		const run = await piRun(["--no-session", "find it"], "search-only.mjs", { E2E_MARKER: MARKER_A });
		expectOk(run);
		expect(run.sessionFile).toBeUndefined();
		expect(run.stdout).toContain(`RESULT 1 event match "${MARKER_A}"`);
		expect(run.stdout).toContain(`sessionId=${seedA.reports[0].sessionId}`);
	});

	it("bad calls fail with clear, path-free messages and pi carries on", async () => {
		const run = await piRun(["try bad calls"], "bad-calls.mjs");
		expectOk(run);
		expect(run.stdout.trim()).toBe("after errors");
		const results = toolResults(readJsonl(run.sessionFile as string));
		expect(results).toHaveLength(3);
		for (const r of results) {
			expect(r.isError).toBe(true);
			expectNoPaths(textOf(r));
			expect(textOf(r)).not.toMatch(/\bat .+:\d+:\d+/);
		}
		expect(textOf(results[0])).toBe("No such event in the sessions this workspace may read.");
		expect(textOf(results[1])).toMatch(/searchable|empty/);
		expect(textOf(results[2])).toContain('"time.from"');
	});

	it("/event-index reindex --full rebuilds; status reports on stderr in print mode", async () => {
		const before = await piRun(["/event-index status"]);
		expectOk(before);
		const generation = /generation: (\S+)/.exec(before.stderr)?.[1];
		expect(generation, before.stderr).toBeDefined();
		const rebuild = await piRun(["/event-index reindex --full"]);
		expectOk(rebuild);
		expect(rebuild.stderr).toMatch(/event index: rebuild done: (\d+) of \1 session files indexed\n/);
		const status = await piRun(["/event-index"]);
		expectOk(status);
		expect(status.stderr).toContain(`event index: ${join(agentDir, "event-index")}`);
		expect(status.stderr).toMatch(/coverage: complete: \d+ of \d+ session files indexed/);
		expect(status.stderr).toMatch(/rows: \d+ session files, \d+ events, \d+ fragments/);
		// A rebuild publishes a new generation; every process follows it.
		expect(/generation: (\S+)/.exec(status.stderr)?.[1]).not.toBe(generation);
		const bad = await piRun(["/event-index frobnicate"]);
		expect(bad.stderr).toContain("usage: /event-index [status | reindex [--full]]");
	});

	it("a restart answers from the warm index alone (no catch-up, the earlier files moved away)", async () => {
		// Project config turns catch-up off; the seed file is moved out of every root. Only the index knows it.
		mkdirSync(join(cwd, ".pi"), { recursive: true });
		writeFileSync(join(cwd, ".pi", "event-index.json"), JSON.stringify({ catchUp: { enabled: false } }));
		const seedFile = seedA.sessionFile as string;
		renameSync(seedFile, `${seedFile}.away`);
		try {
			const run = await piRun(["again please"], "search-only.mjs", { E2E_MARKER: MARKER_A });
			expectOk(run);
			expect(run.stdout).toContain(`RESULT 1 event match "${MARKER_A}"`);
			expect(run.stdout).toContain(`sessionId=${seedA.reports[0].sessionId}`);
			const [search] = toolResults(readJsonl(run.sessionFile as string));
			expect((search.details as EventSearchResult).hits[0].sessionId).toBe(seedA.reports[0].sessionId);
		} finally {
			renameSync(`${seedFile}.away`, seedFile);
			rmSync(join(cwd, ".pi"), { recursive: true, force: true });
		}
		expect(existsSync(seedFile)).toBe(true);
	});
});
