/**
 * What a command loads is part of how fast it answers (docs/benchmarks.md, "Where the time goes"): a search from the
 * index as it is (`--no-sync`) loads no catch-up, verify, rebuild or lock-taking module, and no package it does not
 * use; the commands that do need them still load them on demand. Real child processes of the built program, with
 * Node's module hooks recording every module loaded: the compiled modules one by one (dist/cli/main.js: the module
 * graph decides what each command loads, in the program script too), and the launcher, which runs that script.
 */
import {
	appendFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import { HAS_NODE22_PACKAGE, NODE22 } from "../helpers/pi-cli.js";
import { CURRENT_RUNTIME, runCommand } from "../helpers/runtime.js";
import { lineFactory } from "../helpers/session-lines.js";
import { BIN, cli, hermeticEnv, makeAgentDir, ROOT } from "./cli-harness.js";

const HOOKS = join(ROOT, "test", "cli", "scripts", "log-modules.mjs");
const REQUIRES = join(ROOT, "test", "cli", "scripts", "log-requires.cjs");
/** The compiled program, unbundled. */
const MAIN = join(ROOT, "dist", "cli", "main.js");

/** Modules a search of the index as it is must not load: the catch-up, verify, rebuild and lock-taking machinery. */
const NOT_FOR_A_READ = [
	/\/dist\/workspace-index\.js$/,
	/\/dist\/cli\/reindex\.js$/,
	/\/dist\/ingest\/(?:index-manager|catch-up|catch-up-job|sync-source|source-rows|verify|rebuild|prefetch|fts-thread|worker-start)\.js$/,
	/\/dist\/store\/lock\.js$/,
	/\/node_modules\/(?:proper-lockfile|drizzle-orm)\//,
	/^node:(?:crypto|worker_threads)$/,
];

/** What a catch-up that finds nothing to do must not load: the writer, its threads and the lock-taking modules. */
const NOT_FOR_AN_UP_TO_DATE_INDEX = [
	/\/dist\/ingest\/(?:catch-up|catch-up-job|rebuild|prefetch|group-commit|text-sample|verify)\.js$/,
	/\/dist\/store\/lock\.js$/,
	/\/node_modules\/(?:proper-lockfile|drizzle-orm)\//,
];

let base: string;
let agentDir: string;
let env: Record<string, string>;
let g: string[];

/** The modules one run of the program loads, and what it printed. */
async function modulesOf(args: string[], program = MAIN) {
	const log = join(base, `modules-${Math.random().toString(36).slice(2)}.txt`);
	const r = await runCommand(process.execPath, ["--import", HOOKS, program, ...args, ...g], {
		env: { ...env, MODULE_LOG: log },
	});
	return { ...r, modules: readFileSync(log, "utf8").trim().split("\n") };
}

/** The CommonJS modules and builtins one run of `program` loaded (log-requires.cjs), and what it printed. */
async function requiredBy(program: string, args: string[]) {
	const log = join(base, `requires-${Math.random().toString(36).slice(2)}.txt`);
	const r = await runCommand(process.execPath, ["--require", REQUIRES, program, ...args, ...g], {
		env: { ...env, MODULE_LOG: log },
	});
	return { r, loaded: readFileSync(log, "utf8").split("\n") };
}

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-modules-"));
	agentDir = join(base, "agent");
	makeAgentDir(agentDir);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--workspace", "/home/dev"];
	const built = await cli(["reindex", ...g], { env });
	expect(built.code, built.stderr).toBe(0);
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

// Node's module hooks; Bun runs the same code without them.
describe.skipIf(CURRENT_RUNTIME !== "node")("modules a command loads", () => {
	it("search --no-sync answers without loading the catch-up, verify, rebuild or lock-taking modules", async () => {
		const r = await modulesOf(["search", "kaboom", "--no-sync", "--json"]);
		expect(r.exitCode, r.stderr).toBe(0);
		expect(JSON.parse(r.stdout).hits.length).toBeGreaterThan(0);
		expect(r.modules.some((m) => m.endsWith("/dist/query/search.js"))).toBe(true);
		expect(r.modules.filter((m) => NOT_FOR_A_READ.some((re) => re.test(m)))).toEqual([]);
	});

	it("search with its catch-up on an up-to-date index compares every file but loads no writer and takes no lock", async () => {
		const upToDate = await modulesOf(["search", "kaboom", "--json"]);
		expect(upToDate.exitCode, upToDate.stderr).toBe(0);
		expect(JSON.parse(upToDate.stdout).hits.length).toBeGreaterThan(0);
		expect(upToDate.modules.some((m) => m.endsWith("/dist/ingest/catch-up-plan.js"))).toBe(true);
		expect(upToDate.modules.filter((m) => NOT_FOR_AN_UP_TO_DATE_INDEX.some((re) => re.test(m)))).toEqual([]);
	});

	it("search with its catch-up, and verify, still load what they need on demand", async () => {
		// A line appended since the last catch-up: the search's catch-up indexes it, and the answer has it.
		const f = lineFactory({ sessionId: "module-load-append", cwd: "/home/dev/errs", prefix: "m" });
		appendFileSync(
			join(agentDir, "sessions", encodeSessionDirName("/home/dev/errs"), "errs.jsonl"),
			f.user("zeppelinmarker"),
		);
		const caughtUp = await modulesOf(["search", "zeppelinmarker", "--json"]);
		expect(caughtUp.exitCode, caughtUp.stderr).toBe(0);
		expect(JSON.parse(caughtUp.stdout).hits.length).toBe(1);
		expect(caughtUp.modules.some((m) => m.endsWith("/dist/ingest/catch-up-job.js"))).toBe(true);
		const verified = await modulesOf(["verify"]);
		expect(verified.exitCode, verified.stderr).toBe(0);
		expect(verified.modules.some((m) => m.endsWith("/dist/ingest/verify.js"))).toBe(true);
	});

	it("search within the window of a check of every file that found nothing answers from the index as it is: no manager, no writer", async () => {
		// Folders and files older than the racy window and the hour, so the check is recorded.
		const old = new Date(Date.now() - 2 * 3_600_000);
		const sessions = join(agentDir, "sessions");
		for (const ws of readdirSync(sessions)) {
			for (const f of readdirSync(join(sessions, ws))) utimesSync(join(sessions, ws, f), old, old);
			utimesSync(join(sessions, ws), old, old);
		}
		// The first syncs the files whose mtime changed, the second compares every file and finds nothing to do.
		for (let i = 0; i < 2; i++) {
			const checked = await modulesOf(["search", "kaboom", "--json"]);
			expect(checked.exitCode, checked.stderr).toBe(0);
			expect(checked.modules.some((m) => m.endsWith("/dist/ingest/index-manager.js"))).toBe(true);
		}
		const idle = await modulesOf(["search", "kaboom", "--json"]);
		expect(idle.exitCode, idle.stderr).toBe(0);
		expect(JSON.parse(idle.stdout).hits.length).toBeGreaterThan(0);
		expect(idle.modules.filter((m) => NOT_FOR_A_READ.some((re) => re.test(m)))).toEqual([]);
	});

	it("the launcher runs the one program script: a search loads no module of dist/ one by one, and no worker", async () => {
		const { r, loaded } = await requiredBy(BIN, ["search", "kaboom", "--no-sync", "--json"]);
		expect(r.exitCode, r.stderr).toBe(0);
		expect(JSON.parse(r.stdout).hits.length).toBeGreaterThan(0);
		// The script itself runs through node:vm, so it is no module of its own; it carries its packages, so the only
		// file of node_modules loaded is better-sqlite3's addon.
		const dist = `${pathToFileURL(join(ROOT, "dist")).href}/`;
		expect(loaded.filter((m) => m.startsWith(dist))).toEqual([`${dist}cli/launch.cjs`]);
		expect(loaded.filter((m) => m.includes("/node_modules/")).map((m) => m.replace(/.*\/node_modules\//, ""))).toEqual([
			"better-sqlite3/build/Release/better_sqlite3.node",
		]);
		expect(loaded).not.toContain("node:worker_threads");
	});

	it("the compiled modules load better-sqlite3's JavaScript as the build's one file, not the package's files", async () => {
		const { r, loaded } = await requiredBy(MAIN, ["search", "kaboom", "--no-sync", "--json"]);
		expect(r.exitCode, r.stderr).toBe(0);
		expect(
			loaded.filter((m) => m.includes("better-sqlite3")).map((m) => m.replace(/.*\/(dist|node_modules)\//, "$1/")),
		).toEqual(["dist/store/better-sqlite3.cjs", "node_modules/better-sqlite3/build/Release/better_sqlite3.node"]);
	});

	it("Pi's entry, dist/extension.js, is one file: loading it loads no other module of dist/", async () => {
		const log = join(base, "modules-extension.txt");
		const load = `const m = await import(${JSON.stringify(join(ROOT, "dist", "extension.js"))}); if (typeof m.default !== "function") process.exit(3);`;
		const r = await runCommand(process.execPath, ["--import", HOOKS, "--input-type=module", "-e", load], {
			env: { ...env, MODULE_LOG: log },
		});
		expect(r.exitCode, r.stderr).toBe(0);
		const { dist, ours } = distModulesIn(log);
		expect(ours).toEqual([`${dist}extension.js`]);
	});
});

describe.skipIf(CURRENT_RUNTIME !== "node")("modules a worker thread loads", () => {
	it("the catch-up worker's entry is one file: starting it loads no other module of dist/", async () => {
		const log = join(base, "modules-worker.txt");
		const script = join(base, "start-worker.mjs");
		const bootstrap = pathToFileURL(join(ROOT, "dist", "ingest", "worker-bootstrap.mjs")).href;
		const job = {
			mode: "catch-up",
			indexDir: join(base, "worker-index"),
			roots: [],
			extraFiles: [],
			workspaceDirs: [],
		};
		writeFileSync(
			script,
			`import { Worker } from "node:worker_threads";
const w = new Worker(new URL(${JSON.stringify(bootstrap)}), { workerData: ${JSON.stringify(job)} });
w.on("message", (m) => { if (m.type === "ready") void w.terminate(); });
w.on("error", (e) => { console.error(e); process.exit(3); });`,
		);
		const r = await runCommand(process.execPath, ["--import", HOOKS, script], { env: { ...env, MODULE_LOG: log } });
		expect(r.exitCode, r.stderr).toBe(0);
		const { dist, ours } = distModulesIn(log);
		expect(ours).toEqual([`${dist}ingest/worker-bootstrap.mjs`, `${dist}ingest/catch-up-worker.js`]);
	});
});

describe.runIf(HAS_NODE22_PACKAGE)("the compiled code of the program", () => {
	it("is kept between runs on Node 22 too", async () => {
		const xdg = join(base, "cache-node22");
		const r = await runCommand(NODE22, [BIN, "search", "kaboom", "--no-sync", "--json", ...g], {
			env: { ...env, XDG_CACHE_HOME: xdg },
		});
		expect(r.exitCode, r.stderr).toBe(0);
		expect(readdirSync(join(xdg, "pi-event-index")).filter((f) => /-v22\.\d+\.\d+-/.test(f))).toHaveLength(1);
	});
});

/** The modules of dist/ a child process's module log lists, in load order, and dist/'s URL. */
function distModulesIn(log: string): { dist: string; ours: string[] } {
	const dist = `${pathToFileURL(join(ROOT, "dist")).href}/`;
	const ours = readFileSync(log, "utf8")
		.trim()
		.split("\n")
		.filter((m) => m.startsWith(dist));
	return { dist, ours };
}
