import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import {
	type AuthorizedRoots,
	authorizationSql,
	authorizedRoots,
	findWorkspaceRoot,
	isInsideRoot,
	isVisibleCwd,
	isVisibleSource,
} from "../../src/query/authorize.js";
import type { CallerContext } from "../../src/query/caller.js";
import { makeSnippet } from "../../src/query/snippet.js";
import { openDatabase } from "../../src/store/db.js";

const caller = (cwd: string, extraRoots: string[] = [], allRoots = false): CallerContext => ({
	cwd,
	authorization: { extraRoots, allRoots },
	budgets: DEFAULT_BUDGETS,
});

describe("workspace roots", () => {
	it("finds the enclosing git root (a .git directory or file), else the cwd itself", () => {
		const root = mkdtempSync(join(tmpdir(), "pi-auth-"));
		mkdirSync(join(root, "repo", ".git"), { recursive: true });
		mkdirSync(join(root, "repo", "pkg", "deep"), { recursive: true });
		mkdirSync(join(root, "worktree", "src"), { recursive: true });
		writeFileSync(join(root, "worktree", ".git"), "gitdir: /elsewhere\n");
		mkdirSync(join(root, "plain", "sub"), { recursive: true });
		expect(findWorkspaceRoot(join(root, "repo", "pkg", "deep"))).toBe(join(root, "repo"));
		expect(findWorkspaceRoot(join(root, "worktree", "src"))).toBe(join(root, "worktree"));
		expect(findWorkspaceRoot(join(root, "plain", "sub"))).toBe(join(root, "plain", "sub"));
	});

	it("adds extra roots and honours allRoots", () => {
		const root = mkdtempSync(join(tmpdir(), "pi-auth-"));
		expect(authorizedRoots(caller(root, ["/x/y/", ""]))).toEqual({
			all: false,
			roots: [root, "/x/y"].sort(),
			workspace: root,
		});
		expect(authorizedRoots(caller(root, [], true))).toEqual({ all: true, workspace: root });
	});

	it("matches whole path segments only", () => {
		expect(isInsideRoot("/a/b", "/a/b")).toBe(true);
		expect(isInsideRoot("/a/b/c", "/a/b/")).toBe(true);
		expect(isInsideRoot("/a/bc", "/a/b")).toBe(false);
		expect(isInsideRoot("/a", "/a/b")).toBe(false);
		expect(isInsideRoot("/anything", "/")).toBe(true);
		expect(isVisibleCwd(null, { all: true, workspace: "/w" })).toBe(false);
		expect(isVisibleCwd("", { all: true, workspace: "/w" })).toBe(false);
	});

	it("the SQL condition agrees with the JS rule, case-sensitively and without wildcards", async () => {
		// Through the driver module, so the check also runs under Bun (bun:sqlite).
		const db = await openDatabase(":memory:");
		db.exec("CREATE TABLE sources (id INTEGER PRIMARY KEY, cwd TEXT, confined_to TEXT)");
		const cwds = ["/a/b", "/a/b/c", "/a/bc", "/A/b", "/a/b_", "/a/%", "/a/%/x", "/数据/库", "/数据/库x", null, ""];
		const rows = [
			...cwds.map((cwd) => ({ cwd, confinedTo: null as string | null })),
			...cwds.map((cwd) => ({ cwd, confinedTo: "/a/b" })),
			...cwds.map((cwd) => ({ cwd, confinedTo: "/w" })),
		];
		const insert = db.prepare("INSERT INTO sources (cwd, confined_to) VALUES (?, ?)");
		for (const r of rows) insert.run(r.cwd, r.confinedTo);
		const visible = (auth: AuthorizedRoots) => {
			const clause = authorizationSql("s", auth);
			return db
				.prepare(`SELECT cwd, confined_to AS confinedTo FROM sources s WHERE ${clause.sql} ORDER BY id`)
				.all(...clause.params);
		};
		for (const roots of [["/a/b"], ["/a/%"], ["/数据/库"], ["/"], ["/a/b", "/A"]]) {
			for (const workspace of ["/a/b", "/w"]) {
				const auth = { all: false as const, roots, workspace };
				expect(visible(auth)).toEqual(rows.filter((r) => isVisibleSource(r, auth)));
			}
		}
		// Every authorized cwd, plus what is confined to this workspace, never what is confined to another.
		expect(visible({ all: true, workspace: "/w" })).toHaveLength(18);
		expect(visible({ all: true, workspace: "/w" })).toEqual(rows.filter((r) => r.cwd && r.confinedTo !== "/a/b"));
		db.close();
	});
});

describe("snippets", () => {
	it("are bounded in code points and centred on the first matched term", () => {
		const text = `${"x ".repeat(200)}the needle is here${" y".repeat(200)}`;
		const s = makeSnippet(text, ["needle"], 40);
		expect(Array.from(s).length).toBeLessThanOrEqual(40);
		expect(s).toContain("needle");
		expect(s.startsWith("…")).toBe(true);
		expect(s.endsWith("…")).toBe(true);
	});

	it("folds case and diacritics when locating the match, and handles CJK", () => {
		const text = `${"z".repeat(300)} Crème BRÛLÉE ${"z".repeat(300)}`;
		expect(makeSnippet(text, ["brulee"], 60)).toContain("BRÛLÉE");
		const cjk = `${"字".repeat(300)}我们的数据库连接失败了${"字".repeat(300)}`;
		expect(makeSnippet(cjk, ["数据"], 30)).toContain("数据库");
	});
});
