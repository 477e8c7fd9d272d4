/**
 * Damage as a disk leaves it (issue 49): 200 bytes at offset 8 of every leaf page of one table overwritten in the
 * real store files, then one line appended to a session, then the program as a person runs it: `search` (with its
 * catch-up), `reindex`, `verify`. Whether or not the search touches the damaged pages, `reindex` (its store check) or
 * `verify` finds the damage at the latest; the store is moved aside and rebuilt, said in one line, never in SQLite's
 * words. The program runs in this process (runCli, everything but the process boundary: damage-cli.test.ts runs the
 * real binary) so that 20 runs per table stay within seconds.
 */
import {
	appendFileSync,
	cpSync,
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
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readPointer } from "../../src/store/generations.js";
import { damageLeafPages } from "../helpers/damage.js";
import { lineFactory } from "../helpers/session-lines.js";
import { type CliRun, cliInProcess, ERRS, hermeticEnv, json, makeAgentDir } from "./cli-harness.js";

/** SQLite's wording, and the program's word for a failure it did not expect. */
const SQLITE_TEXT = /SQLITE_|malformed|disk image|fts5|no such table|corruption|internal error|Tree \d+ page/i;
/** The one line saying the index was found damaged and rebuilt (reindex.ts DAMAGE_RECOVERED, query.ts notes). */
const DAMAGE_LINE = /^.*the index (is|was) damaged.*$/gm;

/** Each table of the store in turn, by the files it lives in (docs/store.md). */
const TABLES: Array<[string, string[]]> = [
	["events", ["events"]],
	["sources", ["sources"]],
	["fragments", ["fragments"]],
	["the full-text file", ["fragments_fts_data", "fragments_fts_idx", "fragments_fts_docsize"]],
	["the commit ledger", ["meta", "fts_meta"]],
];
const RUNS = 20;

let base: string;
let indexDir: string;
let template: string;
let env: Record<string, string>;
let g: string[];
let files: string[];
let originals: string[];
const run = (...args: string[]) => cliInProcess([...args, ...g], { env });
const movedAside = () => readdirSync(indexDir).filter((n) => n.includes(".corrupt-"));

/** Deterministic garbage (mulberry32), so a failing run can be replayed from its seed. */
function garbageFrom(seed: number): (n: number) => Buffer {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) & 0xff;
	};
	return (n) => Buffer.from(Array.from({ length: n }, next));
}

/** The built index and the session files as they were, then `tables` damaged and a line with `word` appended. */
function damagedIndex(tables: string[], seed: number, word: string): void {
	rmSync(indexDir, { recursive: true, force: true });
	cpSync(template, indexDir, { recursive: true });
	for (const [k, f] of files.entries()) writeFileSync(f, originals[k] as string);
	const ptr = readPointer(indexDir);
	if (!ptr.ok) throw new Error("no pointer");
	damageLeafPages(join(indexDir, ptr.pointer.file), tables, garbageFrom(seed));
	const f = lineFactory({ sessionId: ERRS, cwd: "/home/dev/errs", prefix: "z" });
	appendFileSync(files.at(-1) as string, f.user(`the ${word} grows`));
}

/** Every output of `runs`, for the assertions on wording. */
const said = (...runs: CliRun[]) => runs.map((r) => `${r.stdout}\n${r.stderr}`).join("\n");

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-damage-pages-"));
	const agentDir = join(base, "agent");
	indexDir = join(base, "index");
	template = join(base, "template");
	files = makeAgentDir(agentDir);
	originals = files.map((f) => readFileSync(f, "utf8"));
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--index-dir", indexDir, "--workspace", "/home/dev/errs"];
	const r = await run("reindex");
	expect(r.code, r.stderr).toBe(0);
	cpSync(indexDir, template, { recursive: true });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));
beforeEach(() => rmSync(indexDir, { recursive: true, force: true }));

describe("damaged leaf pages of one table", () => {
	it.each(TABLES)(
		"regression: %s damaged → search, reindex: moved aside and rebuilt (said once); verify finds nothing (20 runs)",
		async (_name, tables) => {
			for (let seed = 1; seed <= RUNS; seed++) {
				damagedIndex(tables, seed, "amberplant");
				const search = await run("search", "amberplant");
				const reindex = await run("reindex");
				const verify = await run("verify", "--json");
				// The appended line found after the rebuild: every fifth run (a search per run costs a quarter of the time).
				const again = seed % 5 === 0 ? await run("search", "--json", "amberplant") : undefined;
				const context = `seed ${seed}: ${said(search, reindex, verify).slice(0, 2000)}`;
				expect(said(search, reindex, verify, ...(again ? [again] : [])), context).not.toMatch(SQLITE_TEXT);
				expect(reindex.code, context).toBe(0);
				expect(movedAside().length, context).toBeGreaterThan(0);
				expect(said(search, reindex).match(DAMAGE_LINE), context).toHaveLength(1);
				expect(json<{ differences: unknown[] }>(verify).differences, context).toEqual([]);
				expect(verify.code, context).toBe(0);
				if (again) expect(json<{ hits: unknown[] }>(again).hits.length, context).toBe(1);
			}
		},
	);

	it.each(TABLES)(
		"regression: %s damaged, verify first: one store-damaged difference with its fix, never SQLite's text",
		async (_name, tables) => {
			for (let seed = 101; seed <= 103; seed++) {
				damagedIndex(tables, seed, "emberplant");
				const verify = await run("verify");
				const context = `seed ${seed}: ${said(verify).slice(0, 2000)}`;
				expect(verify.code, context).toBe(1);
				expect(said(verify), context).not.toMatch(SQLITE_TEXT);
				expect(verify.stdout, context).toMatch(
					/store-damaged +\(index\): (the \w+ table of the (store|full-text) file|a table of the index) is damaged/,
				);
				expect(verify.stdout, context).toMatch(/repair: pi-event-index reindex --full/);
				const rebuilt = await run("reindex", "--full");
				expect(rebuilt.code, rebuilt.stderr).toBe(0);
				const clean = await run("verify", "--json");
				expect(json<{ differences: unknown[] }>(clean).differences, said(clean)).toEqual([]);
			}
		},
	);
});

describe("a damaged sources row met inside the window of a check of every file", () => {
	it("regression: a BLOB read from it by the answer's query is damage: moved aside and rebuilt, never SQLite's text", async () => {
		// Files and folders idle, so the search's check of every file is recorded and the next one trusts it.
		const dir = join(base, "idle");
		const agent = join(dir, "agent");
		const idleIndex = join(dir, "index");
		makeAgentDir(agent);
		const old = new Date(Date.now() - 2 * 3_600_000);
		const sessions = join(agent, "sessions");
		for (const ws of readdirSync(sessions)) {
			for (const f of readdirSync(join(sessions, ws))) utimesSync(join(sessions, ws, f), old, old);
			utimesSync(join(sessions, ws), old, old);
		}
		const flags = ["--agent-dir", agent, "--index-dir", idleIndex, "--all"];
		const search = () => cliInProcess(["search", "--json", "kaboom", ...flags], { env });
		expect((await cliInProcess(["reindex", ...flags], { env })).code).toBe(0);
		expect((await search()).code).toBe(0);
		// A page read back as cells: a value the store never writes as a BLOB comes back as one.
		const ptr = readPointer(idleIndex);
		if (!ptr.ok) throw new Error("no pointer");
		const db = new Database(join(idleIndex, ptr.pointer.file));
		db.prepare("UPDATE sources SET session_id = x'00ff' WHERE session_id = ?").run(ERRS);
		db.close();
		const r = await search();
		expect(said(r), said(r)).not.toMatch(SQLITE_TEXT);
		expect(r.code, said(r)).toBe(0);
		// Rebuilt from the files: the damaged session's hits are back.
		expect(json<{ hits: Array<{ sessionId: string }> }>(r).hits.map((h) => h.sessionId)).toContain(ERRS);
		expect(readdirSync(idleIndex).filter((n) => n.includes(".corrupt-")).length).toBeGreaterThan(0);
	});
});
