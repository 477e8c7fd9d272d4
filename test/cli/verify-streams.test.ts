/**
 * `verify` reads session files in chunks (issue 46, item 5): a file of any size, over 2 GiB included, is verified
 * with flat memory, no more than the `reindex` that indexed it. Real program (the compiled one, in a child process
 * that reports its own peak RSS), real sparse files made as `truncate` makes them.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import { collectOutput } from "../helpers/children.js";
import { lineFactory } from "../helpers/session-lines.js";
import { hermeticEnv, json, ROOT } from "./cli-harness.js";

const PEAK_RSS = join(ROOT, "test", "cli", "scripts", "peak-rss.mjs");

let base: string;
let env: Record<string, string>;
let g: string[];
let sessions: string;

/** Runs the program with `args` in a child process; its output, exit code and peak RSS. */
async function measured(...args: string[]) {
	const child = spawn(process.execPath, [PEAK_RSS, ...args, ...g], {
		cwd: ROOT,
		env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	const { exitCode, stdout, stderr } = await collectOutput(child);
	const peak = Number(/peak-rss (\d+)\n$/.exec(stderr)?.[1]);
	return { code: exitCode, stdout, stderr, peak };
}

beforeEach(() => {
	base = mkdtempSync(join(tmpdir(), "pei-verify-streams-"));
	sessions = join(base, "agent", "sessions", encodeSessionDirName("/home/dev/big"));
	mkdirSync(sessions, { recursive: true });
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", join(base, "agent"), "--index-dir", join(base, "index"), "--workspace", "/home/dev/big"];
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("verify on a huge session file", () => {
	// Two passes over 2 GiB (reindex, verify): seconds on an idle machine, a minute or more on a loaded one.
	it("regression: a file over 2 GiB (a sparse hole, then a last line) is verified with no difference and no more memory than reindex", {
		timeout: 300_000,
	}, async () => {
		// A session, a hole of zeros past 2 GiB (one line far over the line limit: skipped with a receipt), then
		// a last entry after it: every byte before the last line has to be read to verify it.
		const f = lineFactory({ cwd: "/home/dev/big" });
		const file = join(sessions, "big.jsonl");
		writeFileSync(file, f.header() + f.user("before the hole") + f.assistant("still before"));
		truncateSync(file, 2 ** 31 + 2 ** 20);
		appendFileSync(file, `\n${f.user("the farthest bluewhale")}`);

		const reindex = await measured("reindex");
		expect(reindex.code, reindex.stderr).toBe(0);
		const verify = await measured("verify", "--json");
		expect(verify.code, verify.stdout + verify.stderr).toBe(0);
		expect(json<{ differences: unknown[] }>(verify).differences).toEqual([]);
		expect(verify.peak).toBeGreaterThan(0);
		expect(verify.peak, `verify ${verify.peak} B, reindex ${reindex.peak} B`).toBeLessThanOrEqual(reindex.peak);
		const search = await measured("search", "--json", "--no-sync", "bluewhale");
		expect(json<{ hits: unknown[] }>(search).hits).toHaveLength(1);
	});
});
