/**
 * Regression (procfs mkdir loop): every command that creates the index fails at once with a clear message when
 * the index dir cannot be created, instead of spinning forever.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, hermeticEnv } from "./cli-harness.js";

let tmp: string;
let env: Record<string, string>;

beforeAll(() => {
	tmp = mkdtempSync(join(tmpdir(), "pei-cli-bad-dir-"));
	mkdirSync(join(tmp, "agent", "sessions"), { recursive: true });
	writeFileSync(join(tmp, "a-file"), "x");
	env = hermeticEnv(join(tmp, "home"), { PI_CODING_AGENT_DIR: join(tmp, "agent") });
});

afterAll(() => {
	rmSync(tmp, { recursive: true, force: true });
});

const dirs = [
	...(existsSync("/proc/self")
		? [{ dir: "/proc/nope", message: "the index directory cannot be created (ENOENT)" }]
		: []),
	{ dir: "<tmp>/a-file/index", message: "a file is in the way of the index directory" },
];

describe("an index dir that cannot be created", () => {
	for (const { dir, message } of dirs) {
		for (const command of [["reindex"], ["reindex", "--full"], ["search", "anything"]]) {
			it(`${command.join(" ")} with --index-dir ${dir} exits 1 at once`, async () => {
				const indexDir = dir.replace("<tmp>", tmp);
				const run = await cli([...command, "--index-dir", indexDir], { env, cwd: tmp });
				expect(run.code).toBe(1);
				expect(run.stderr).toBe(`pi-event-index: ${message}: ${indexDir}\n`);
			});
		}
	}
});
