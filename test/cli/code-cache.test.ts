/**
 * The launcher keeps V8's compiled code of the program script between runs (src/cli/launch.cts): in a private folder
 * of the user, one file per build, runtime and command word, written whole or not at all, and never trusted blindly
 * (a damaged file, another build's or a folder others may write cost the speed-up, nothing else). Real child
 * processes of the built program; what is asserted is what lands on disk and what the program answers.
 */
import { createHash } from "node:crypto";
import {
	chmodSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_RUNTIME } from "../helpers/runtime.js";
import { cli, hermeticEnv, makeAgentDir, ROOT } from "./cli-harness.js";

const PROGRAM = join(ROOT, "dist", "cli", "program.cjs");

let base: string;
let g: string[];
let home: string;

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-code-cache-"));
	makeAgentDir(join(base, "agent"));
	home = join(base, "home");
	mkdirSync(home);
	g = ["--agent-dir", join(base, "agent"), "--index-dir", join(base, "index"), "--workspace", "/home/dev"];
	const built = await cli(["reindex", ...g], { env: hermeticEnv(home, { PI_EVENT_INDEX_CODE_CACHE: "0" }) });
	expect(built.code, built.stderr).toBe(0);
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

/** A fresh cache folder's parent, the env that points the program at it, and the folder itself. */
function cacheHome(name: string) {
	const xdg = join(base, name);
	mkdirSync(xdg);
	return { env: hermeticEnv(home, { XDG_CACHE_HOME: xdg }), dir: join(xdg, "pi-event-index") };
}

const search = (env: Record<string, string>) => cli(["search", "kaboom", "--no-sync", "--json", ...g], { env });

/** The build id the program script's first line names. */
function buildId(): string {
	const id = /^\/\/ pi-event-index program ([0-9a-f]+)\n/.exec(readFileSync(PROGRAM, "latin1"))?.[1];
	expect(id).toBeDefined();
	return id as string;
}

describe("the program script", () => {
	it("is ASCII, makes no import() of its own, and its first line names a hash of the rest", () => {
		const text = readFileSync(PROGRAM, "latin1");
		expect(/[^\0-\x7f]/.test(text)).toBe(false);
		// A script run through node:vm has no module loader for an import() on Node 20 (only an experimental one).
		expect(text).not.toMatch(/\bimport\(/);
		const rest = text.slice(text.indexOf("\n") + 1);
		expect(createHash("sha256").update(rest).digest("hex").slice(0, 16)).toBe(buildId());
	});
});

// Bun requires the script plainly: it keeps no cache of ours.
describe.skipIf(CURRENT_RUNTIME !== "node")("the code cache", () => {
	it("is written by a run to a private folder and used as it is by the next", async () => {
		const { env, dir } = cacheHome("first");
		const first = await search(env);
		expect(first.code, first.stderr).toBe(0);
		const name = `${buildId()}-${process.version}-${process.arch}-search.bin`;
		expect(readdirSync(dir)).toEqual([name]);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		const file = statSync(join(dir, name));
		expect(file.mode & 0o777).toBe(0o600);
		expect(file.size).toBeGreaterThan(10_000);

		const second = await search(env);
		expect(second.code, second.stderr).toBe(0);
		expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
		// Accepted: V8 took it, so the run did not write it again (a rewrite is a new file renamed over it).
		const after = statSync(join(dir, name));
		expect([after.ino, after.mtimeMs]).toEqual([file.ino, file.mtimeMs]);
	});

	it("a damaged cache costs only its speed-up: the run answers the same and writes a good one", async () => {
		const { env, dir } = cacheHome("damaged");
		const good = await search(env);
		const [name] = readdirSync(dir);
		const file = join(dir, name);
		const bytes = readFileSync(file);
		writeFileSync(file, Buffer.alloc(bytes.length, 0x5a), { mode: 0o600 });
		const r = await search(env);
		expect(r.code, r.stderr).toBe(0);
		expect(JSON.parse(r.stdout)).toEqual(JSON.parse(good.stdout));
		expect(readFileSync(file).equals(Buffer.alloc(bytes.length, 0x5a))).toBe(false);
	});

	it("another build's caches, and a temp file a dead writer left, are dropped when this build writes its own", async () => {
		const { env, dir } = cacheHome("other-build");
		mkdirSync(dir, { mode: 0o700 });
		const stale = `0123456789abcdef-${process.version}-${process.arch}-search.bin`;
		writeFileSync(join(dir, stale), "old", { mode: 0o600 });
		const left = join(dir, `.${stale}.12345.tmp`);
		writeFileSync(left, "half", { mode: 0o600 });
		utimesSync(left, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
		const r = await search(env);
		expect(r.code, r.stderr).toBe(0);
		expect(readdirSync(dir)).toEqual([`${buildId()}-${process.version}-${process.arch}-search.bin`]);
	});

	it("a folder others may write is neither read nor written", async () => {
		const { env, dir } = cacheHome("shared");
		mkdirSync(dir);
		chmodSync(dir, 0o777);
		const r = await search(env);
		expect(r.code, r.stderr).toBe(0);
		expect(JSON.parse(r.stdout).hits.length).toBeGreaterThan(0);
		expect(readdirSync(dir)).toEqual([]);
	});

	it("a relative XDG_CACHE_HOME is ignored: the cache goes to ~/.cache", async () => {
		const ownHome = join(base, "home-relative");
		const cwd = join(base, "cwd-relative");
		mkdirSync(ownHome);
		mkdirSync(cwd);
		const r = await cli(["search", "kaboom", "--no-sync", "--json", ...g], {
			env: hermeticEnv(ownHome, { XDG_CACHE_HOME: "relative-cache" }),
			cwd,
		});
		expect(r.code, r.stderr).toBe(0);
		expect(readdirSync(cwd)).toEqual([]);
		expect(readdirSync(join(ownHome, ".cache", "pi-event-index"))).toHaveLength(1);
	});

	it("is off with PI_EVENT_INDEX_CODE_CACHE=0", async () => {
		const { env, dir } = cacheHome("off");
		const r = await search({ ...env, PI_EVENT_INDEX_CODE_CACHE: "0" });
		expect(r.code, r.stderr).toBe(0);
		expect(() => readdirSync(dir)).toThrow(/ENOENT/);
	});
});
