/**
 * A store damaged after it was built (pages overwritten in the real SQLite file), met by the real program: `reindex`
 * (damage found by its catch-up), `search` and `search --no-sync` (found by the query) move the generation aside,
 * rebuild it from the session files and answer; no SQLite text reaches the output, and `verify` finds no difference.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DAMAGE_RECOVERED } from "../../src/cli/reindex.js";
import { readPointer } from "../../src/store/generations.js";
import { damageLeafPages, damageTables } from "../helpers/damage.js";
import { cli, hermeticEnv, json, makeAgentDir } from "./cli-harness.js";

/** SQLite's wording, which a person should not have to read either. */
const SQLITE_TEXT = /SQLITE_|malformed|disk image|fts5|no such table|corruption found/i;

let base: string;
let indexDir: string;
let env: Record<string, string>;
let g: string[];
const run = (...args: string[]) => cli([...args, ...g], { env });
const corruptFiles = () => readdirSync(indexDir).filter((n) => n.includes(".corrupt-"));
function damage(tables: string[]): void {
	const ptr = readPointer(indexDir);
	if (!ptr.ok) throw new Error("no pointer");
	damageTables(join(indexDir, ptr.pointer.file), tables);
}

beforeEach(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-damage-cli-"));
	const agentDir = join(base, "agent");
	indexDir = join(base, "index");
	makeAgentDir(agentDir);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--index-dir", indexDir, "--workspace", "/home/dev/errs"];
	const r = await run("reindex");
	expect(r.code, r.stderr).toBe(0);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("the program on a damaged store", () => {
	it("regression: reindex moves damaged table pages aside and rebuilds (exit 0); verify finds no difference", async () => {
		damage(["sources", "events"]);
		const re = await run("reindex", "--json");
		expect(re.code, re.stderr).toBe(0);
		expect(re.stderr).not.toMatch(SQLITE_TEXT);
		expect(json<{ coverage: { partial: boolean } }>(re).coverage.partial).toBe(false);
		expect(corruptFiles().length).toBeGreaterThan(0);
		const verify = await run("verify", "--json");
		expect(json<{ differences: unknown[] }>(verify).differences).toEqual([]);
		expect(verify.code).toBe(0);
	});

	it("regression: leaf pages of events damaged where no search looks: reindex finds them, says so once; verify finds nothing", async () => {
		const ptr = readPointer(indexDir);
		if (!ptr.ok) throw new Error("no pointer");
		damageLeafPages(join(indexDir, ptr.pointer.file), ["events"], (n) => Buffer.alloc(n, 0x5a));
		// A search that reads none of the damaged pages: its catch-up has nothing to do, its query matches no row.
		const search = await run("search", "--no-sync", "zzzunseenword");
		expect(search.code, search.stderr).toBe(0);
		const re = await run("reindex");
		expect(re.code, re.stderr).toBe(0);
		expect(re.stdout.split("\n")[0]).toBe(DAMAGE_RECOVERED);
		expect(corruptFiles().length).toBeGreaterThan(0);
		const verify = await run("verify");
		expect(`${verify.stdout}${verify.stderr}`).not.toMatch(SQLITE_TEXT);
		expect(verify.stdout).toMatch(/no differences/);
	});

	it.each([["search"], ["search --no-sync"]])(
		"regression: %s on damaged FTS pages recovers once and answers",
		async (command) => {
			damage(["fragments_fts_data", "fragments_fts_idx"]);
			const r = await run(...command.split(" "), "kaboom", "--json");
			expect(r.code, r.stderr).toBe(0);
			expect(r.stderr).not.toMatch(SQLITE_TEXT);
			expect(json<{ hits: unknown[] }>(r).hits.length).toBeGreaterThan(0);
			expect(corruptFiles().length).toBeGreaterThan(0);
			const verify = await run("verify", "--json");
			expect(json<{ differences: unknown[] }>(verify).differences).toEqual([]);
		},
	);
});
