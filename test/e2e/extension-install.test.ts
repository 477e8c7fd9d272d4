/**
 * `pi install <path>` of this package loads the extension by its package.json "pi" manifest: after the install, a
 * pi run that names no extension of ours (`-e` only for the faux provider, extension discovery left on) has the
 * three tools, and they answer from sessions an earlier run of the installed package wrote.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSearchResult } from "../../src/contract.js";
import {
	FAUX_PROVIDER_EXTENSION,
	HARNESS_CACHE_DIR,
	PI_CLI,
	piEnv,
	REPO_ROOT,
	readJsonl,
	sessionMessages,
} from "../helpers/pi-cli.js";

let tmp: string;
let agentDir: string;
let cwd: string;

interface Ran {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs the real pi CLI with exactly these arguments (no --no-extensions), stdin closed. */
function pi(args: string[], env: Record<string, string> = {}): Promise<Ran> {
	const tmpDir = join(HARNESS_CACHE_DIR, "tmp");
	mkdirSync(tmpDir, { recursive: true });
	return new Promise((done, fail) => {
		const child = spawn(process.execPath, [PI_CLI, ...args], {
			cwd,
			env: piEnv(agentDir, tmpDir, env),
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (c: string) => {
			stdout += c;
		});
		child.stderr.setEncoding("utf8").on("data", (c: string) => {
			stderr += c;
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
		child.on("error", fail);
		child.on("close", (code) => {
			clearTimeout(timer);
			done({ code, stdout, stderr });
		});
	});
}

const fauxRun = (prompt: string, env: Record<string, string> = {}) =>
	pi(["-p", "-e", FAUX_PROVIDER_EXTENSION, "--provider", "faux", "--model", "faux-1", "--mode", "json", prompt], env);

/** The session file of a `--mode json` run (its first line is the session header with the id). */
function sessionFileOf(out: string): string {
	const header = JSON.parse(out.split("\n")[0]) as { type: string; id: string };
	expect(header.type).toBe("session");
	const dir = join(agentDir, "sessions");
	const found = readdirRecursive(dir).find((f) => f.endsWith(`_${header.id}.jsonl`));
	if (!found) throw new Error(`no session file for ${header.id}`);
	return found;
}

function readdirRecursive(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? readdirRecursive(join(dir, e.name)) : [join(dir, e.name)],
	);
}

beforeAll(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-install-")));
	agentDir = join(tmp, "agent");
	cwd = join(tmp, "project");
	mkdirSync(cwd, { recursive: true });
});

afterAll(() => {
	rmSync(tmp, { recursive: true, force: true });
});

describe("pi install <path>", () => {
	it("installs the package by its manifest; later runs have the tools without -e", async () => {
		const install = await pi(["install", REPO_ROOT]);
		expect(install.code, install.stderr).toBe(0);
		const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as { packages: string[] };
		expect(settings.packages.map((p) => resolve(agentDir, p))).toEqual([REPO_ROOT]);

		const seed = await fauxRun("the installedpackagemarker note");
		expect(seed.code, seed.stderr).toBe(0);
		const seedFile = sessionFileOf(seed.stdout);

		const run = await fauxRun("search please", {
			PI_FAUX_SCRIPT: join(REPO_ROOT, "test", "fixtures", "e2e-scripts", "search-only.mjs"),
			E2E_MARKER: "installedpackagemarker",
		});
		expect(run.code, run.stderr).toBe(0);
		const results = sessionMessages(readJsonl(sessionFileOf(run.stdout))).filter((m) => m.role === "toolResult");
		expect(results).toHaveLength(1);
		expect(results[0]).toMatchObject({ toolName: "event_search", isError: false });
		const details = results[0].details as EventSearchResult;
		expect(details.hits).toHaveLength(1);
		expect(details.hits[0].sessionId).toBe(readJsonl(seedFile)[0].id);
	}, 120_000);
});
