/**
 * The CLI as people meet it (issue #14): --limit, relative times, enum flags validated from the filter declarations,
 * colour only on a terminal (NO_COLOR, FORCE_COLOR), JSON error objects, the sessions command, the "other
 * workspaces" hint, how to open a hit in Pi, and true maintenance messages. Real fixture files, a real SQLite index,
 * the real program (in this process, and as a child process where stdout/exit codes matter).
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import type { EventSearchResult } from "../../src/contract.js";
import type { SessionList } from "../../src/query/index.js";
import {
	BIN,
	type CliRun,
	cli,
	cliInProcess,
	ERRS,
	FORK_FROM,
	hermeticEnv,
	json,
	makeAgentDir,
	RICH,
} from "./cli-harness.js";

const DAY = 86_400_000;
/** A session of cwd /home/dev/recent whose entries are 2 hours, 20 days and 60 days old (relative to the test run). */
const RECENT = "0b0b0b0b-0000-4000-8000-0000000be4e7";
const AGES = { fresh: 2 / 24, older: 20, oldest: 60 } as const;
/** A fork of RECENT. */
const FORKED = "0c0c0c0c-0000-4000-8000-0000000f0e4c";

let base: string;
let agentDir: string;
let env: Record<string, string>;
let g: string[];
let files: string[];

const run = (...args: string[]) => cliInProcess([...args, ...g], { env });
const hits = async (...args: string[]) =>
	json<EventSearchResult>(await run("search", ...args, "--json", "--no-sync")).hits;

/** Writes the RECENT session: one user line per age, each saying "heron" and its age name. */
function writeRecentSession(): string {
	const dir = join(agentDir, "sessions", encodeSessionDirName("/home/dev/recent"));
	mkdirSync(dir, { recursive: true });
	const at = (days: number) => new Date(Date.now() - days * DAY).toISOString();
	const lines = [{ type: "session", version: 3, id: RECENT, timestamp: at(AGES.oldest), cwd: "/home/dev/recent" }];
	let parent: string | null = null;
	for (const [name, days] of Object.entries(AGES).reverse()) {
		const id = `h${name.slice(0, 7).padEnd(7, "0")}`;
		lines.push({
			type: "message",
			id,
			parentId: parent,
			timestamp: at(days),
			message: { role: "user", content: [{ type: "text", text: `heron sighted ${name}` }], timestamp: 0 },
		} as never);
		parent = id;
	}
	const file = join(dir, "recent.jsonl");
	writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
	// A fork of it (as `pi --fork` writes one: the header names the parent file), active 10 days ago.
	const fork = {
		type: "session",
		version: 3,
		id: FORKED,
		timestamp: at(10),
		cwd: "/home/dev/recent",
		parentSession: file,
	};
	writeFileSync(join(dir, "forked.jsonl"), `${JSON.stringify(fork)}\n`);
	return file;
}

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-people-"));
	agentDir = join(base, "agent");
	files = makeAgentDir(agentDir);
	files.push(writeRecentSession());
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--workspace", "/home/dev"];
	const r = await run("reindex");
	expect(r.code, r.stderr).toBe(0);
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

/** A usage error: exit 2, one line on stderr matching `pattern`. */
function expectUsage(r: CliRun, pattern: RegExp) {
	expect(r.code, r.stderr).toBe(2);
	expect(r.stdout).toBe("");
	expect(r.stderr.trim().split("\n")).toHaveLength(1);
	expect(r.stderr).toMatch(pattern);
}

describe("search --limit", () => {
	it("bounds the hits; beyond the tools' maximum or below 1 is a usage error", async () => {
		const two = json<EventSearchResult>(await run("search", "question", "--limit", "2", "--json", "--no-sync"));
		expect(two.hits).toHaveLength(2);
		expect(two).toMatchObject({ limit: 2, truncated: true });
		expect((await hits("question")).length).toBeGreaterThan(2);
		expectUsage(await run("search", "question", "--limit", "51"), /option --limit must be at most 50, got "51"/);
		expectUsage(await run("search", "question", "--limit", "0"), /option --limit must be a positive integer/);
	});
});

describe("relative times", () => {
	it("--since/--until (and --from/--to) take ages in h, d, w, m counted back from now", async () => {
		const names = async (...args: string[]) => (await hits("heron", ...args)).map((h) => h.snippet).sort();
		expect(await names("--since", "7d")).toEqual(["heron sighted fresh"]);
		expect(await names("--from", "7d")).toEqual(["heron sighted fresh"]);
		expect(await names("--since", "4w")).toEqual(["heron sighted fresh", "heron sighted older"]);
		expect(await names("--until", "2w")).toEqual(["heron sighted older", "heron sighted oldest"]);
		expect(await names("--since", "4w", "--until", "2w")).toEqual(["heron sighted older"]);
		expect(await names("--since", "3m")).toHaveLength(3);
		expect(await names("--since", "12h")).toEqual(["heron sighted fresh"]);
		expect(await names("--since", "1h")).toEqual([]);
	});

	it("a bad or doubled time is a usage error naming the flag", async () => {
		expectUsage(await run("search", "heron", "--since", "lastweek"), /--from must be an ISO date .*e\.g\. 7d/);
		expectUsage(await run("search", "heron", "--from", "7d", "--since", "2d"), /--from and --since set the same time/);
		expectUsage(await run("search", "heron", "--since", "7d", "--until", "4w"), /--from is after the end/);
	});
});

describe("enum flags", () => {
	it("--kind, --role, --branch-state, --selection-state reject unknown values alike, before any index is opened", async () => {
		// No index at this dir: the flags are checked first, so the answer is the usage error, not "no index".
		const none = ["--index-dir", join(base, "no-index"), "--no-sync"];
		const cases: Array<[string[], RegExp]> = [
			[["--kind", "usertext"], /--kind has unknown value\(s\) usertext; did you mean user_text\?; use user_text, /],
			[["--role", "asistant"], /--role has unknown value\(s\) asistant; did you mean assistant\?; use user, /],
			[["--branch-state", "chosen"], /--branch-state has unknown value\(s\) chosen; use selected, alternate/],
			[
				["--selection-state", "sumarized"],
				/--selection-state has unknown value\(s\) sumarized; did you mean summarized\?/,
			],
		];
		for (const [flags, pattern] of cases) expectUsage(await run("search", "x", ...flags, ...none), pattern);
		expectUsage(await run("read", RICH, "84051c10", "--order", "apend", ...none), /got "apend"; did you mean append\?/);
		expectUsage(
			await run("read", RICH, "84051c10", "--fragment", "ca92c2d6#0", ...none),
			/option --fragment must name a fragment of entry 84051c10 \(84051c10#N, or just N\), got "ca92c2d6#0"/,
		);
		expect((await hits("kaboom", "--kind", "user_text", "--role", "user")).length).toBe(1);
	});
});

describe("--json errors", () => {
	it("every error is a JSON object on stdout with code, message and field, and the usual exit code", async () => {
		const env2 = env;
		const cases: Array<[string[], number, Record<string, unknown>]> = [
			[["search", "x", "--kind", "usertext"], 2, { code: "invalid_value", field: "--kind" }],
			[["search", "x", "--limit", "99"], 2, { code: "invalid_value", field: "--limit" }],
			[["serch", "x"], 2, { code: "unknown_command", field: "COMMAND" }],
			[["search", "x", "--bogus"], 2, { code: "unknown_option", field: "--bogus" }],
			[["read", RICH], 2, { code: "wrong_arguments" }],
			[["read", RICH, "nope0000", "--no-sync"], 1, { code: "not_found" }],
			// Bad arguments the read and trace services find name their flag or argument too.
			[["read", RICH, "84051c10", "--fragment", "7", "--no-sync"], 2, { code: "invalid_value", field: "--fragment" }],
			[["read", " ", "84051c10", "--no-sync"], 2, { code: "invalid_value", field: "SESSION" }],
			[["trace", RICH, " ", "--no-sync"], 2, { code: "invalid_value", field: "ENTRY" }],
			[["status", "--agent-dir", join(base, "missing")], 1, { code: "agent_dir_missing", field: "--agent-dir" }],
		];
		for (const [args, code, error] of cases) {
			// A real process: the exit code and both streams as a script sees them.
			const r = await cli([...args, "--json", ...(args.includes("--agent-dir") ? [] : g)], { env: env2 });
			expect(r.code, `${args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(code);
			expect(r.stderr).toBe("");
			const body = json<{ error: Record<string, unknown> }>(r);
			expect(Object.keys(body)).toEqual(["error"]);
			expect(body.error).toMatchObject(error);
			expect(typeof body.error.message).toBe("string");
			if (error.field === undefined) expect(body.error.field).toBeUndefined();
		}
	});
});

describe("colour", () => {
	const ESC = "\x1b[";
	it("FORCE_COLOR colours and highlights matches; piped, NO_COLOR and --json stay plain", async () => {
		const args = ["search", "kaboom", "--no-sync", ...g];
		const [forced, piped, noColor, forcedJson] = await Promise.all([
			cli(args, { env: { ...env, FORCE_COLOR: "1" } }),
			cli(args, { env }),
			cli(args, { env: { ...env, NO_COLOR: "1" } }),
			cli([...args, "--json"], { env: { ...env, FORCE_COLOR: "1" } }),
		]);
		expect(forced.code).toBe(0);
		expect(forced.stdout).toContain(`${ESC}1;33mkaboom${ESC}22;39m`);
		for (const plain of [piped, noColor, forcedJson]) {
			expect(plain.code).toBe(0);
			expect(plain.stdout).not.toContain(ESC);
		}
		expect(piped.stdout).toContain("kaboom");
		expect(json<EventSearchResult>(forcedJson).hits.length).toBeGreaterThan(0);
		// FORCE_COLOR=0 turns it off even when forced elsewhere.
		expect((await cli(args, { env: { ...env, FORCE_COLOR: "0" } })).stdout).not.toContain(ESC);
	});
});

const hasScript = spawnSync("script", ["--version"]).status === 0;

describe.skipIf(!hasScript)("colour on a terminal", () => {
	it("is on when stdout is a terminal, off there with NO_COLOR", () => {
		const command = [process.execPath, BIN, "search", "kaboom", "--no-sync", ...g].map((x) => `'${x}'`).join(" ");
		const onTty = (extra: Record<string, string>) =>
			spawnSync("script", ["-qec", command, "/dev/null"], {
				env: { ...env, TERM: "xterm", ...extra },
				encoding: "utf8",
				timeout: 60_000,
			});
		const coloured = onTty({});
		expect(coloured.status, coloured.stderr).toBe(0);
		expect(coloured.stdout).toContain("\x1b[1;33mkaboom");
		const noColor = onTty({ NO_COLOR: "1" });
		expect(noColor.status).toBe(0);
		expect(noColor.stdout).toContain("kaboom");
		expect(noColor.stdout).not.toContain("\x1b[");
	});
});

describe("opening a hit in Pi", () => {
	it("each hit says `pi --session ID` from its cwd and, for people only, where the file is", async () => {
		const human = await run("search", "kaboom", "--error-only", "--no-sync");
		const errsFile = files.find((f) => f.endsWith("errs.jsonl")) as string;
		expect(human.stdout).toContain(`open in Pi: cd /home/dev/errs && pi --session ${ERRS}`);
		expect(human.stdout).toContain(`file: ${errsFile}`);
		const data = await run("search", "kaboom", "--error-only", "--no-sync", "--json");
		expect(data.stdout).not.toContain(agentDir);
	});
});

describe("no hits here, some elsewhere", () => {
	it("says how many hits other workspaces have and how to widen (--workspace DIR or --all)", async () => {
		const elsewhere = ["--agent-dir", agentDir, "--workspace", "/srv"];
		const none = await cliInProcess(["search", "kaboom", "--no-sync", ...elsewhere], { env });
		expect(none.code).toBe(0);
		expect(none.stdout).toMatch(/^no hits for "kaboom"/);
		expect(none.stdout).toMatch(/no hits in this workspace \(\/srv\), but \d+ in other workspaces: \/home\/dev\/errs/);
		expect(none.stdout).toContain("--workspace /home/dev/errs (that workspace) or --all");
		const all = await cliInProcess(["search", "kaboom", "--no-sync", "--json", "--all", ...elsewhere], { env });
		expect(json<EventSearchResult>(all).hits.length).toBeGreaterThan(0);
		// Nothing anywhere: no hint.
		const nowhere = await cliInProcess(["search", "zzqqxxnothing", "--no-sync", ...elsewhere], { env });
		expect(nowhere.stdout).not.toContain("other workspaces");
	});
});

describe("sessions", () => {
	it("lists the workspace's sessions newest first with name, cwd, start, last activity, count and fork parent", async () => {
		const list = json<SessionList>(await run("sessions", "--json", "--no-sync"));
		const ids = list.sessions.map((s) => s.sessionId);
		expect(ids[0]).toBe(RECENT);
		expect(ids).toEqual(expect.arrayContaining([RICH, FORK_FROM, ERRS]));
		// /tmp is outside the workspace: the legacy sessions are not listed.
		expect(ids).not.toContain("legacy-1");
		const activity = list.sessions.map((s) => s.lastActivityAt);
		expect(activity).toEqual([...activity].sort().reverse());
		const recent = list.sessions[0];
		expect(recent).toMatchObject({ cwd: "/home/dev/recent", eventCount: 3 });
		expect(Date.parse(recent?.lastActivityAt ?? "")).toBeGreaterThan(Date.now() - 3 * 3_600_000);
		expect(Date.parse(recent?.startedAt ?? "")).toBeLessThan(Date.now() - 59 * DAY);
		expect(list.sessions.find((s) => s.sessionId === FORKED)).toMatchObject({
			forkParent: { sessionId: RECENT },
			eventCount: 0,
		});
		expect(list.sessions[0]?.forkParent).toBeUndefined();
		expect(list.truncated).toBe(false);
	});

	it("--limit, --since/--until, --cwd, --all; human output says how to open each", async () => {
		const limited = json<SessionList>(await run("sessions", "--limit", "2", "--json", "--no-sync"));
		expect(limited).toMatchObject({ limit: 2, truncated: true });
		expect(limited.sessions).toHaveLength(2);
		const lastWeek = json<SessionList>(await run("sessions", "--since", "7d", "--json", "--no-sync"));
		expect(lastWeek.sessions.map((s) => s.sessionId)).toContain(RECENT);
		const longAgo = json<SessionList>(await run("sessions", "--until", "30d", "--json", "--no-sync"));
		// The RECENT session started 60 days ago: its activity overlaps "until 30 days ago".
		expect(longAgo.sessions.map((s) => s.sessionId)).toContain(RECENT);
		const sdk = json<SessionList>(await run("sessions", "--cwd", "/home/dev/sdk-project", "--json", "--no-sync"));
		expect(sdk.sessions.length).toBeGreaterThan(0);
		expect(sdk.sessions.every((s) => s.cwd === "/home/dev/sdk-project")).toBe(true);
		const everywhere = json<SessionList>(
			await cliInProcess(["sessions", "--all", "--json", "--no-sync", "--agent-dir", agentDir, "--workspace", "/srv"], {
				env,
			}),
		);
		expect(everywhere.sessions.map((s) => s.sessionId)).toContain("legacy-1");
		const human = await run("sessions", "--limit", "1", "--no-sync");
		expect(human.stdout).toContain(`open in Pi: cd /home/dev/recent && pi --session ${RECENT}`);
		expect(human.stdout).toContain(
			`file: ${join(agentDir, "sessions", encodeSessionDirName("/home/dev/recent"), "recent.jsonl")}`,
		);
		expectUsage(await run("sessions", "--limit", "501"), /--limit must be at most 500/);
		expectUsage(await run("sessions", "--kind", "user_text"), /option --kind does not apply to sessions/);
	});
});

describe("maintenance messages", () => {
	it("reindex on an up-to-date index says so; verify suggests plain reindex when only 'behind' differs", async () => {
		const upToDate = await run("reindex");
		expect(upToDate.code, upToDate.stderr).toBe(0);
		expect(upToDate.stdout).toMatch(/^index up to date: 12 files, none changed/);
		const appended = files.find((f) => f.endsWith("errs.jsonl")) as string;
		appendFileSync(
			appended,
			`${JSON.stringify({ type: "custom", customType: "note", data: {}, id: "r00000ff", parentId: null, timestamp: new Date().toISOString() })}\n`,
		);
		const behind = await run("verify");
		expect(behind.code).toBe(1);
		expect(behind.stdout).toMatch(/behind\s+\S*errs\.jsonl/);
		expect(behind.stdout).toContain("run pi-event-index reindex (an incremental catch-up repairs this)");
		expect(behind.stdout).not.toContain("--full");
		const caughtUp = await run("reindex");
		expect(caughtUp.stdout).toMatch(/^caught up the index: 1 files synced \(1 indexed/);
		expect((await run("verify")).code).toBe(0);
	});
});
