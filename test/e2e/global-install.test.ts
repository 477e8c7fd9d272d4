/**
 * The CLI from anywhere: `npm install -g <checkout>` into a temp prefix with a clean HOME and PATH puts
 * `pi-event-index` on the PATH; run from an unrelated directory against the default agent dir (~/.pi/agent of that
 * HOME), a search finds nothing in that workspace but does with --all and with --workspace DIR.
 * (--ignore-scripts: the test setup has built dist/ already; `prepare` would rebuild it under the running tests.)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, ROOT } from "../cli/cli-harness.js";

let tmp: string;
let env: Record<string, string>;
let elsewhere: string;

beforeAll(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-global-")));
	const home = join(tmp, "home");
	const prefix = join(tmp, "prefix");
	elsewhere = join(tmp, "somewhere", "else");
	mkdirSync(elsewhere, { recursive: true });
	makeAgentDir(join(home, ".pi", "agent"));
	env = { HOME: home, PATH: `${join(prefix, "bin")}:${dirname(process.execPath)}:/usr/bin:/bin` };
	const npm = join(dirname(process.execPath), "npm");
	execFileSync(
		npm,
		["install", "-g", ROOT, "--prefix", prefix, "--ignore-scripts", "--offline", "--no-audit", "--no-fund"],
		{ cwd: elsewhere, env, stdio: "pipe" },
	);
}, 120_000);

afterAll(() => {
	rmSync(tmp, { recursive: true, force: true });
});

function run(args: string[]) {
	const r = spawnSync("pi-event-index", args, { cwd: elsewhere, env, encoding: "utf8", timeout: 60_000 });
	return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("pi-event-index installed globally", () => {
	it("is on the PATH and searches the default agent dir from an unrelated directory", () => {
		expect(run(["--version"]).stdout).toMatch(/^pi-event-index@\d/);
		const here = run(["search", "hello", "--json"]);
		expect(here.code, here.stderr).toBe(0);
		expect((JSON.parse(here.stdout) as { hits: unknown[] }).hits).toEqual([]);
		const all = run(["search", "hello", "--all", "--json"]);
		expect(all.code, all.stderr).toBe(0);
		expect((JSON.parse(all.stdout) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
		const workspace = run(["search", "hello", "--workspace", "/home/dev/project"]);
		expect(workspace.code, workspace.stderr).toBe(0);
		expect(workspace.stdout).toMatch(/^\d+\+? hits? for "hello"/);
	}, 120_000);
});
