import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUDGET_BOUNDS, DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { configFilePaths, loadConfig, mergeConfigFiles, validateConfigFile } from "../../src/config/config.js";

let tmp: string;
let agentDir: string;
let cwd: string;
let globalFile: string;
let projectFile: string;

beforeEach(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "event-index-config-")));
	agentDir = join(tmp, "agent");
	cwd = join(tmp, "proj");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	({ global: globalFile, project: projectFile } = configFilePaths(cwd, agentDir));
});

afterEach(() => {
	rmSync(tmp, { recursive: true, force: true });
});

function write(file: string, value: unknown): void {
	writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

describe("loadConfig", () => {
	it("names the keys a section takes when it is not an object, and each key it does not know", () => {
		const { config, problems } = validateConfigFile(
			{ authorization: "all", catchUp: { enabled: true, thread: 2 } },
			"f.json",
			"/",
		);
		expect(problems).toEqual([
			'f.json: "authorization" should be an object { extraRoots?, allRoots? }, got the string "all"; ignored',
			'f.json: "catchUp.thread" is not a known key (known: enabled, threads, idleFilesRecheckSeconds); ignored',
		]);
		expect(config).toEqual({ catchUp: { enabled: true } });
	});

	it("takes catchUp.idleFilesRecheckSeconds as whole seconds from 0 to 600, and names any other value", () => {
		for (const seconds of [0, 60, 600]) {
			const { config, problems } = validateConfigFile({ catchUp: { idleFilesRecheckSeconds: seconds } }, "f.json", "/");
			expect(problems).toEqual([]);
			expect(config).toEqual({ catchUp: { idleFilesRecheckSeconds: seconds } });
		}
		for (const [value, shown] of [
			[-1, "number -1"],
			[601, "number 601"],
			[1.5, "number 1.5"],
			["60", 'the string "60"'],
		] as const) {
			const { config, problems } = validateConfigFile({ catchUp: { idleFilesRecheckSeconds: value } }, "f.json", "/");
			expect(problems).toEqual([
				`f.json: "catchUp.idleFilesRecheckSeconds" should be an integer from 0 to 600, got ${shown}; ignored`,
			]);
			expect(config).toEqual({ catchUp: {} });
		}
	});

	it("fills every field with defaults when no file exists", () => {
		const { config, problems } = loadConfig({ cwd, agentDir, env: {} });
		expect(problems).toEqual([]);
		expect(config).toEqual({
			indexDir: join(agentDir, "event-index"),
			roots: [],
			authorization: { extraRoots: [], allRoots: false },
			budgets: DEFAULT_BUDGETS,
			catchUp: { enabled: true, threads: 1, idleFilesRecheckSeconds: 60 },
			redactSecrets: true,
			excludeWorkspaces: [],
			loadedFiles: [],
		});
		expect(globalFile).toBe(join(agentDir, "event-index.json"));
		expect(projectFile).toBe(join(cwd, ".pi", "event-index.json"));
	});

	it("redactSecrets: only the person's own file turns it off; a workspace's false is refused, its true kept", () => {
		write(projectFile, { redactSecrets: false });
		const refused = loadConfig({ cwd, agentDir, env: {} });
		expect(refused.config.redactSecrets).toBe(true);
		expect(refused.problems).toEqual([
			`${projectFile}: "redactSecrets" false may be set only in your own event-index.json (the agent dir); ignored`,
		]);
		write(globalFile, { redactSecrets: false });
		write(projectFile, {});
		expect(loadConfig({ cwd, agentDir, env: {} }).config.redactSecrets).toBe(false);
		// A workspace may ask for more redaction than the person's default, never less.
		write(projectFile, { redactSecrets: true });
		expect(loadConfig({ cwd, agentDir, env: {} }).config.redactSecrets).toBe(true);
	});

	it("merges project over global like Pi's settings (objects by key, arrays replaced), narrowing only", () => {
		write(globalFile, {
			indexDir: "/idx/global",
			roots: ["/archive/a", "/archive/b"],
			authorization: { extraRoots: ["/shared"], allRoots: true },
			budgets: { searchLimit: 20, snippetChars: 300 },
			catchUp: { enabled: false },
		});
		write(projectFile, {
			roots: ["/archive/b"],
			authorization: { allRoots: false },
			budgets: { searchLimit: 5 },
			catchUp: { threads: 2 },
		});
		const { config, problems, refused } = loadConfig({ cwd, agentDir, env: {} });
		expect(problems).toEqual([]);
		expect(refused).toBeUndefined();
		expect(config.indexDir).toBe("/idx/global");
		expect(config.roots).toEqual(["/archive/b"]);
		expect(config.authorization).toEqual({ extraRoots: ["/shared"], allRoots: false });
		expect(config.budgets).toEqual({ ...DEFAULT_BUDGETS, searchLimit: 5, snippetChars: 300 });
		expect(config.catchUp).toEqual({ enabled: false, threads: 2, idleFilesRecheckSeconds: 60 });
		expect(config.loadedFiles).toEqual([globalFile, projectFile]);
	});

	it("the project file's widening keys are refused, each named once in one path-free notice", () => {
		write(globalFile, {
			roots: ["/archive/a"],
			authorization: { extraRoots: ["/shared"] },
			catchUp: { enabled: false },
		});
		write(projectFile, {
			indexDir: "/idx/project",
			roots: ["/archive/a", "/elsewhere"],
			authorization: { extraRoots: ["/shared/team", "/"], allRoots: true },
			catchUp: { enabled: true },
		});
		const { config, refused } = loadConfig({ cwd, agentDir, env: {} });
		expect(config.indexDir).toBe(join(agentDir, "event-index"));
		expect(config.roots).toEqual(["/archive/a"]);
		expect(config.authorization).toEqual({ extraRoots: ["/shared/team"], allRoots: false });
		expect(config.catchUp.enabled).toBe(false);
		expect(refused).toBe(
			'workspace config .pi/event-index.json ignored "indexDir", "roots", "authorization.allRoots", "authorization.extraRoots", "catchUp.enabled": a repository\'s file may only narrow; widening settings go in the user\'s own event-index.json',
		);
	});

	it("PI_EVENT_INDEX_DIR wins over the person's file; ~ and relative paths resolve", () => {
		write(globalFile, { indexDir: "/idx/global" });
		write(projectFile, { indexDir: "/idx/project" });
		expect(loadConfig({ cwd, agentDir, env: {} }).config.indexDir).toBe("/idx/global");
		expect(loadConfig({ cwd, agentDir, env: { PI_EVENT_INDEX_DIR: "/idx/env" } }).config.indexDir).toBe("/idx/env");
		expect(loadConfig({ cwd, agentDir, env: { PI_EVENT_INDEX_DIR: "~/idx" } }).config.indexDir).toBe(
			join(homedir(), "idx"),
		);
		expect(loadConfig({ cwd, agentDir, env: { PI_EVENT_INDEX_DIR: "rel" } }).config.indexDir).toBe(join(cwd, "rel"));
		// Empty means unset.
		expect(loadConfig({ cwd, agentDir, env: { PI_EVENT_INDEX_DIR: "" } }).config.indexDir).toBe("/idx/global");
	});

	it("resolves relative paths against the directory of the file that names them", () => {
		write(globalFile, {
			indexDir: "index-here",
			roots: [join(cwd, ".pi", "archive"), "~/old-sessions"],
			authorization: { extraRoots: ["../team"] },
		});
		write(projectFile, { roots: ["archive", "~/old-sessions"] });
		const { config, problems } = loadConfig({ cwd, agentDir, env: {} });
		expect(problems).toEqual([]);
		expect(config.indexDir).toBe(join(agentDir, "index-here"));
		expect(config.authorization.extraRoots).toEqual([join(tmp, "team")]);
		expect(config.roots).toEqual([join(cwd, ".pi", "archive"), join(homedir(), "old-sessions")]);
	});

	it("reports invalid JSON with the file name and falls back to the other file and defaults", () => {
		write(globalFile, { budgets: { searchLimit: 30 } });
		write(projectFile, '{ "budgets": { "searchLimit": 3, } ');
		const { config, problems } = loadConfig({ cwd, agentDir, env: {} });
		expect(config.budgets.searchLimit).toBe(30);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toContain(projectFile);
		expect(problems[0]).toContain("not valid JSON");
	});

	it("reports wrong types, unknown keys and out-of-bounds budgets per key, keeping the valid rest", () => {
		write(globalFile, { indexDir: "/idx/ok", authorization: { extraRoots: ["/fine"] }, catchUp: { enabled: false } });
		write(projectFile, {
			indexDir: 7,
			roots: "not-an-array",
			extra: true,
			authorization: { extraRoots: ["/fine", 3, ""], allRoots: "yes", everything: true },
			budgets: { searchLimit: 0, snippetChars: 500, windowChars: 2.5, bogus: 1, coldWaitMs: "fast" },
			catchUp: { enabled: "no", threads: 4 },
		});
		const { config, problems } = loadConfig({ cwd, agentDir, env: {} });
		expect(config.indexDir).toBe("/idx/ok");
		expect(config.roots).toEqual([]);
		expect(config.authorization).toEqual({ extraRoots: ["/fine"], allRoots: false });
		expect(config.budgets).toEqual({ ...DEFAULT_BUDGETS, snippetChars: 500 });
		expect(config.catchUp).toEqual({ enabled: false, threads: 1, idleFilesRecheckSeconds: 60 });
		const expected = [
			'"extra" is not a known key',
			'"indexDir" should be a non-empty path string, got number 7',
			'"roots" should be an array of directory paths, got the string "not-an-array"',
			'"authorization.everything" is not a known key',
			'"authorization.extraRoots[1]" should be a non-empty path string, got number 3',
			'"authorization.extraRoots[2]" should be a non-empty path string',
			'"authorization.allRoots" should be true or false, got the string "yes"',
			`"budgets.searchLimit" should be an integer from ${BUDGET_BOUNDS.searchLimit[0]} to ${BUDGET_BOUNDS.searchLimit[1]}, got number 0`,
			'"budgets.windowChars" should be an integer',
			'"budgets.bogus" is not a known budget',
			'"budgets.coldWaitMs" should be an integer from 0 to 30000, got the string "fast"',
			'"catchUp.enabled" should be true or false',
			'"catchUp.threads" should be 1 or 2, got number 4',
		];
		expect(problems).toHaveLength(expected.length);
		for (const fragment of expected) {
			const match = problems.find((problem) => problem.includes(fragment));
			expect(match, fragment).toBeDefined();
			expect(match?.startsWith(`${projectFile}: `)).toBe(true);
		}
	});

	it("accepts every budget at its bounds and rejects one past them", () => {
		for (const [key, [min, max]] of Object.entries(BUDGET_BOUNDS)) {
			for (const ok of [min, max]) {
				const { config, problems } = validateConfigFile({ budgets: { [key]: ok } }, "f.json", "/");
				expect(problems, `${key}=${ok}`).toEqual([]);
				expect(config.budgets).toEqual({ [key]: ok });
			}
			for (const bad of [min - 1, max + 1]) {
				const { config, problems } = validateConfigFile({ budgets: { [key]: bad } }, "f.json", "/");
				expect(problems, `${key}=${bad}`).toHaveLength(1);
				expect(config.budgets).toEqual({});
			}
		}
	});

	it("clamps defaultNeighbors to maxNeighbors with a problem", () => {
		write(globalFile, { budgets: { maxNeighbors: 1, defaultNeighbors: 3 } });
		const { config, problems } = loadConfig({ cwd, agentDir, env: {} });
		expect(config.budgets.defaultNeighbors).toBe(1);
		expect(problems).toEqual([expect.stringContaining('"defaultNeighbors" (3) exceeds "maxNeighbors" (1)')]);
	});

	it("treats a non-object top level, an empty file and $schema sensibly", () => {
		write(globalFile, "[1, 2]");
		write(projectFile, "");
		let result = loadConfig({ cwd, agentDir, env: {} });
		expect(result.problems).toEqual([
			`${globalFile}: expected a JSON object at the top level, got an array; file ignored`,
		]);
		expect(result.config.loadedFiles).toEqual([globalFile, projectFile]);
		write(globalFile, { $schema: "./schema.json", catchUp: {} });
		result = loadConfig({ cwd, agentDir, env: {} });
		expect(result.problems).toEqual([]);
		expect(result.config.catchUp.enabled).toBe(true);
	});

	it("reports an unreadable file without throwing", () => {
		// A directory in the file's place is unreadable even for root (EISDIR).
		mkdirSync(globalFile);
		write(projectFile, { catchUp: { enabled: false } });
		const { config, problems } = loadConfig({ cwd, agentDir, env: {} });
		expect(config.catchUp.enabled).toBe(false);
		expect(problems).toEqual([`${globalFile}: cannot be read (EISDIR); file ignored`]);
	});
});

describe("mergeConfigFiles", () => {
	it("keeps base keys the override does not name", () => {
		expect(
			mergeConfigFiles(
				{ roots: ["/a"], budgets: { searchLimit: 2 }, catchUp: { enabled: false } },
				{ budgets: { snippetChars: 100 } },
			),
		).toEqual({ roots: ["/a"], budgets: { searchLimit: 2, snippetChars: 100 }, catchUp: { enabled: false } });
	});
});
