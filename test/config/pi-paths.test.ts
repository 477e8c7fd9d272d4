import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	effectiveSessionDir,
	encodeSessionDirName,
	expandTilde,
	resolveAgentDir,
	sessionRoots,
} from "../../src/config/pi-paths.js";

/**
 * Pi's own path rules, from the Pi this runtime can load: Pi 1.x on Node ≥ 22.19 (the `test:node22` run), else Pi
 * 0.73 (Node 20), so the rules are checked against each supported Pi.
 */
const { getAgentDir, SessionManager, SettingsManager } = (await import("@earendil-works/pi-coding-agent").catch(
	() => import("@mariozechner/pi-coding-agent"),
)) as typeof import("@earendil-works/pi-coding-agent");

let tmp: string;
let agentDir: string;
let cwd: string;
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;

beforeEach(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pi-paths-")));
	agentDir = join(tmp, "agent");
	cwd = join(tmp, "work", "proj");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
});

afterEach(() => {
	if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
	else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
	rmSync(tmp, { recursive: true, force: true });
});

function writeJson(path: string, value: unknown): void {
	mkdirSync(join(path, ".."), { recursive: true });
	writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
}

describe("resolveAgentDir", () => {
	it("defaults to ~/.pi/agent and honours PI_CODING_AGENT_DIR with ~ expanded", () => {
		expect(resolveAgentDir({})).toBe(join(homedir(), ".pi", "agent"));
		expect(resolveAgentDir({ PI_CODING_AGENT_DIR: "" })).toBe(join(homedir(), ".pi", "agent"));
		expect(resolveAgentDir({ PI_CODING_AGENT_DIR: "/x/y" })).toBe("/x/y");
		expect(resolveAgentDir({ PI_CODING_AGENT_DIR: "~/alt" })).toBe(join(homedir(), "alt"));
		expect(resolveAgentDir({ PI_CODING_AGENT_DIR: "~" })).toBe(homedir());
		// "~user" is not expanded by Pi either.
		expect(expandTilde("~bob/x")).toBe("~bob/x");
	});

	it("agrees with Pi's own getAgentDir", () => {
		for (const value of ["~/somewhere/agent", agentDir]) {
			process.env.PI_CODING_AGENT_DIR = value;
			expect(resolveAgentDir(process.env)).toBe(getAgentDir());
		}
	});
});

describe("encodeSessionDirName", () => {
	it("drops the leading separator and replaces / \\ : with -", () => {
		expect(encodeSessionDirName("/home/dev/proj")).toBe("--home-dev-proj--");
		expect(encodeSessionDirName("C:\\Users\\dev")).toBe("--C--Users-dev--");
		expect(encodeSessionDirName("/")).toBe("----");
	});

	it("matches the directory real Pi creates for a cwd", () => {
		process.env.PI_CODING_AGENT_DIR = agentDir;
		const odd = join(tmp, "we:ird dir", "ü");
		mkdirSync(odd, { recursive: true });
		for (const dir of [cwd, odd]) {
			const piDir = SessionManager.create(dir).getSessionDir();
			const ours = effectiveSessionDir({ cwd: dir, agentDir, env: {} });
			expect(ours.source).toBe("default");
			expect(ours.path).toBe(piDir);
			expect(join(agentDir, "sessions", encodeSessionDirName(dir))).toBe(piDir);
		}
	});
});

describe("effectiveSessionDir", () => {
	it("follows Pi's precedence: flag > env > project settings > global settings > default", () => {
		writeJson(join(agentDir, "settings.json"), { sessionDir: "/global/sessions" });
		writeJson(join(cwd, ".pi", "settings.json"), { sessionDir: "/project/sessions" });
		const env = { PI_CODING_AGENT_SESSION_DIR: "/env/sessions" };
		expect(effectiveSessionDir({ cwd, agentDir, env, sessionDirFlag: "/flag/sessions" })).toMatchObject({
			path: "/flag/sessions",
			source: "flag",
			custom: true,
		});
		expect(effectiveSessionDir({ cwd, agentDir, env })).toMatchObject({ path: "/env/sessions", source: "env" });
		expect(effectiveSessionDir({ cwd, agentDir, env: {} })).toMatchObject({
			path: "/project/sessions",
			source: "project-settings",
		});
		rmSync(join(cwd, ".pi", "settings.json"));
		expect(effectiveSessionDir({ cwd, agentDir, env: {} })).toMatchObject({
			path: "/global/sessions",
			source: "global-settings",
		});
		rmSync(join(agentDir, "settings.json"));
		expect(effectiveSessionDir({ cwd, agentDir, env: {} })).toMatchObject({
			path: join(agentDir, "sessions", encodeSessionDirName(cwd)),
			source: "default",
			custom: false,
			problems: [],
		});
	});

	it("resolves relative values against cwd and expands ~ like Pi (not for the flag)", () => {
		expect(effectiveSessionDir({ cwd, agentDir, env: {}, sessionDirFlag: "rel" }).path).toBe(join(cwd, "rel"));
		expect(effectiveSessionDir({ cwd, agentDir, env: {}, sessionDirFlag: "~/x" }).path).toBe(join(cwd, "~", "x"));
		expect(effectiveSessionDir({ cwd, agentDir, env: { PI_CODING_AGENT_SESSION_DIR: "~/s" } }).path).toBe(
			join(homedir(), "s"),
		);
		expect(effectiveSessionDir({ cwd, agentDir, env: { PI_CODING_AGENT_SESSION_DIR: "env-rel" } }).path).toBe(
			join(cwd, "env-rel"),
		);
		writeJson(join(agentDir, "settings.json"), { sessionDir: "../sess" });
		expect(effectiveSessionDir({ cwd, agentDir, env: {} }).path).toBe(join(cwd, "..", "sess"));
		writeJson(join(cwd, ".pi", "settings.json"), { sessionDir: "~/proj-sessions" });
		expect(effectiveSessionDir({ cwd, agentDir, env: {} }).path).toBe(join(homedir(), "proj-sessions"));
	});

	it("agrees with Pi's SettingsManager on which settings file wins", () => {
		const cases: Array<[unknown, unknown]> = [
			[{ sessionDir: "/g" }, undefined],
			[{ sessionDir: "/g" }, { sessionDir: "/p" }],
			[undefined, { sessionDir: "~/p" }],
			[{ sessionDir: "/g" }, { other: 1 }],
			[{ sessionDir: "/g" }, "{ not json"],
			[{ sessionDir: "" }, undefined],
		];
		for (const [global, project] of cases) {
			rmSync(join(agentDir, "settings.json"), { force: true });
			rmSync(join(cwd, ".pi"), { recursive: true, force: true });
			if (global !== undefined) writeJson(join(agentDir, "settings.json"), global);
			if (project !== undefined) writeJson(join(cwd, ".pi", "settings.json"), project);
			const pi = SettingsManager.create(cwd, agentDir).getSessionDir();
			const ours = effectiveSessionDir({ cwd, agentDir, env: {} });
			if (pi) expect(ours.path).toBe(pi);
			else expect(ours.source).toBe("default");
		}
	});

	it("reports unreadable settings specifically and falls back like Pi", () => {
		writeJson(join(agentDir, "settings.json"), "{ broken");
		writeJson(join(cwd, ".pi", "settings.json"), { sessionDir: 42 });
		const result = effectiveSessionDir({ cwd, agentDir, env: {} });
		expect(result.source).toBe("default");
		expect(result.problems).toHaveLength(2);
		expect(result.problems[0]).toContain(join(agentDir, "settings.json"));
		expect(result.problems[0]).toContain("not valid JSON");
		expect(result.problems[1]).toContain('"sessionDir" should be a string');
	});

	it("never creates directories", () => {
		const missingAgent = join(tmp, "no-agent");
		const result = effectiveSessionDir({ cwd, agentDir: missingAgent, env: {} });
		expect(result.path.startsWith(missingAgent)).toBe(true);
		expect(existsSync(missingAgent)).toBe(false);
		sessionRoots({ cwd, agentDir: missingAgent, env: {}, extraRoots: [join(tmp, "archive")] });
		expect(existsSync(missingAgent)).toBe(false);
		expect(existsSync(join(tmp, "archive"))).toBe(false);
	});
});

describe("sessionRoots", () => {
	it("lists effective dir, agent session sub-folders, the current file's dir and extra roots, deduplicated", () => {
		const sessions = join(agentDir, "sessions");
		const own = join(sessions, encodeSessionDirName(cwd));
		mkdirSync(own, { recursive: true });
		mkdirSync(join(sessions, "--other-project--"), { recursive: true });
		writeFileSync(join(sessions, "stray.jsonl"), "");
		const elsewhere = join(tmp, "elsewhere");
		const roots = sessionRoots({
			cwd,
			agentDir,
			env: {},
			currentFile: join(elsewhere, "s.jsonl"),
			extraRoots: [join(tmp, "archive"), join(tmp, "archive"), own],
		});
		expect(roots).toEqual([
			{ path: own, kind: "effective", recursive: false },
			{ path: join(sessions, "--other-project--"), kind: "agent-sessions", recursive: false },
			{ path: elsewhere, kind: "current-file", recursive: false, file: join(elsewhere, "s.jsonl") },
			{ path: join(tmp, "archive"), kind: "extra", recursive: true },
		]);
	});

	it("uses a custom session dir as the effective root and keeps agent sub-folders", () => {
		const custom = join(tmp, "custom");
		mkdirSync(join(agentDir, "sessions", "--a--"), { recursive: true });
		const roots = sessionRoots({
			cwd,
			agentDir,
			env: { PI_CODING_AGENT_SESSION_DIR: custom },
			currentFile: join(custom, "x.jsonl"),
		});
		expect(roots.map((root) => [root.kind, root.path])).toEqual([
			["effective", custom],
			["agent-sessions", join(agentDir, "sessions", "--a--")],
		]);
	});
});
