/**
 * The extension inside a real compiled Pi binary (Pi bundled into one Bun executable, as Pi's releases ship it),
 * where Pi loads extensions through jiti with its bundled packages as virtual modules and where a worker thread
 * resolves packages without reading package.json. The model's event_search → event_read → event_trace calls
 * succeed, catch-up finds sessions written by a Node Pi, the binary and a Node Pi share one index at once, and
 * /event-index reindex --full (several locks in one process) works.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSearchResult } from "../../src/contract.js";
import { piBinary } from "../bun/pi-binary.js";
import { EXTENSION, e2eDirs, expectOk, expectOneConsistentIndex, toolResults } from "../helpers/e2e.js";
import { REPO_ROOT, type RunPiResult, readJsonl, runPi } from "../helpers/pi-cli.js";
import { CURRENT_RUNTIME, runPiOn } from "../helpers/runtime.js";

const SCRIPT = join(REPO_ROOT, "test", "bun", "scripts", "search-read-trace.mjs");
const MARKER_NODE = "halcyonbadger";
const MARKER_BINARY = "obsidianheron";

let binary: string;
let tmp: string;
let agentDir: string;
let cwd: string;
let indexDir: string;
let seedNode: RunPiResult;

/** The compiled binary with this extension (and the faux provider) loaded. */
function binaryPi(args: string[], env: Record<string, string> = {}, script: string | undefined = SCRIPT) {
	return runPi({
		command: [binary],
		label: "pi-binary",
		agentDir,
		cwd,
		args,
		script,
		extensions: [EXTENSION],
		env,
		timeoutMs: 90_000,
	});
}

function logEvents(): Array<Record<string, unknown>> {
	return readFileSync(join(indexDir, "event-index.log"), "utf8")
		.split("\n")
		.filter((l) => l.trim() !== "")
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Asserts a search → read → trace run found `seed` and that the tools all succeeded. */
function expectFound(run: RunPiResult, seed: RunPiResult): EventSearchResult {
	expectOk(run);
	expect(run.stdout).toContain(`finished ${seed.reports[0].sessionId}`);
	const results = toolResults(readJsonl(run.sessionFile as string));
	expect(results.map((r) => r.toolName)).toEqual(["event_search", "event_read", "event_trace"]);
	for (const r of results) expect(r.isError, JSON.stringify(r.content)).toBe(false);
	const found = results[0].details as EventSearchResult;
	expect(found.hits.map((h) => h.sessionId)).toEqual([seed.reports[0].sessionId]);
	return found;
}

beforeAll(async () => {
	binary = await piBinary();
	({ tmp, agentDir, cwd, indexDir } = e2eDirs("pei-binary-"));
	mkdirSync(join(tmp, "barrier"));
	// Written by a Node Pi WITHOUT the extension: only catch-up can know it.
	seedNode = await runPiOn("node", { agentDir, cwd, args: [`the ${MARKER_NODE} release notes`] });
	expectOk(seedNode);
}, 240_000);

afterAll(() => {
	rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(CURRENT_RUNTIME !== "node")("the extension in a compiled Pi binary", () => {
	let seedBinary: RunPiResult;

	it("is Pi in binary mode, and the model's search → read → trace calls succeed after catch-up", async () => {
		const version = await runPi({ command: [binary], label: "pi-binary", agentDir, cwd, args: ["--version"] });
		expect(version.stdout + version.stderr).toContain("0.73");
		const run = await binaryPi(["what were the release notes"], { E2E_MARKER: MARKER_NODE });
		const found = expectFound(run, seedNode);
		expect(run.stdout).toContain("runtime=bun");
		expect(found.coverage.partial).toBe(false);
		// Catch-up ran to the end (in this thread: the binary's worker cannot resolve packages on disk).
		expect(
			logEvents()
				.filter((e) => e.event === "catch_up")
				.map((e) => e.outcome),
		).toContain("done");
		expect(logEvents().filter((e) => e.event === "catch_up_failed")).toEqual([]);
		seedBinary = run;
	});

	it("shares one index with a Node Pi at the same time", async () => {
		const barrier = join(tmp, "barrier");
		const [onBinary, onNode] = await Promise.all([
			binaryPi([`binary asks about ${MARKER_BINARY}`], {
				E2E_MARKER: MARKER_NODE,
				BARRIER_DIR: barrier,
				BARRIER_ME: "b",
				BARRIER_OTHER: "n",
			}),
			runPiOn("node", {
				agentDir,
				cwd,
				args: ["node asks"],
				script: SCRIPT,
				extensions: [EXTENSION],
				env: { E2E_MARKER: "release", BARRIER_DIR: barrier, BARRIER_ME: "n", BARRIER_OTHER: "b" },
				timeoutMs: 90_000,
			}),
		]);
		expectFound(onBinary, seedNode);
		expect(onBinary.stdout).toContain("barrier=met");
		expectOk(onNode);
		expect(onNode.stdout).toContain("runtime=node barrier=met");
		// "release" is in the seed and in the binary's earlier prompt; the Node Pi's search saw an indexed event.
		expect(toolResults(readJsonl(onNode.sessionFile as string)).every((r) => !r.isError)).toBe(true);
		await expectOneConsistentIndex(agentDir);
		expect(seedBinary.sessionFile).toBeDefined();
	});

	it("/event-index reindex --full in the binary takes its locks and rebuilds", async () => {
		const rebuild = await binaryPi(["/event-index reindex --full"], {}, undefined);
		expectOk(rebuild);
		expect(rebuild.stderr).toMatch(/event index: rebuild done: (\d+) of \1 session files indexed\n/);
		expect(logEvents().filter((e) => e.event === "store.generation_published")).toHaveLength(2);
		const status = await binaryPi(["/event-index"], {}, undefined);
		expectOk(status);
		expect(status.stderr).toMatch(/coverage: complete/);
	});
});
