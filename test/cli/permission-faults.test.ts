/**
 * Permission faults met by the real program run as a real non-root user (root ignores file modes): a read-only
 * index directory, an unreadable session file. Each run is bounded, so a wait that never ends fails the test.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Coverage } from "../../src/contract.js";
import { coverageText } from "../../src/text/coverage-text.js";
import { collectOutput } from "../helpers/children.js";
import { grantCheckoutAccess, IS_ROOT, UNPRIVILEGED } from "../helpers/unprivileged.js";
import { cli, hermeticEnv, makeAgentDir, startCli } from "./cli-harness.js";

let base: string;
let agentDir: string;
let files: string[];
let env: Record<string, string>;
let restore = () => {};

/** Runs the program as the unprivileged user; killed (and reported) after 60 s. */
async function asUser(args: string[]) {
	const r = await collectOutput(startCli(args, { env, ids: UNPRIVILEGED }), { timeoutMs: 60_000 });
	return { ...r, code: r.exitCode };
}
const globals = (indexDir: string) => ["--agent-dir", agentDir, "--index-dir", indexDir, "--workspace", "/home/dev"];

/** Makes `dir` and everything under it owned by the unprivileged user. */
function giveAway(dir: string): void {
	if (!IS_ROOT) return;
	chownSync(dir, UNPRIVILEGED.uid as number, UNPRIVILEGED.gid as number);
	for (const name of readdirSync(dir)) {
		const p = join(dir, name);
		if (statSync(p).isDirectory()) giveAway(p);
		else chownSync(p, UNPRIVILEGED.uid as number, UNPRIVILEGED.gid as number);
	}
}

beforeAll(() => {
	restore = grantCheckoutAccess();
	base = mkdtempSync(join(tmpdir(), "pei-perm-"));
	chmodSync(base, 0o755);
	agentDir = join(base, "agent");
	files = makeAgentDir(agentDir);
	const home = join(base, "home");
	mkdirSync(home);
	giveAway(home);
	env = hermeticEnv(home);
});
afterAll(() => {
	restore();
	rmSync(base, { recursive: true, force: true });
});

describe.runIf(IS_ROOT || process.getuid?.() !== 0)("permission faults", () => {
	it("regression: reindex on a read-only index directory says so and exits 1 instead of waiting forever", async () => {
		const indexDir = join(base, "readonly-index");
		const built = await cli(["reindex", ...globals(indexDir)], { env });
		expect(built.code, built.stderr).toBe(0);
		chmodSync(indexDir, 0o755); // root owns it: the unprivileged user can read it, not write it

		const re = await asUser(["reindex", ...globals(indexDir)]);
		expect(re.timedOut, "reindex waited for a lock nobody holds").toBe(false);
		expect(re.code).toBe(1);
		expect(re.stderr).toMatch(/read-only/);
		expect(re.stderr).not.toMatch(/waiting for/);

		const full = await asUser(["reindex", "--full", ...globals(indexDir)]);
		expect(full.timedOut).toBe(false);
		expect(full.code).toBe(1);
		expect(full.stderr).toMatch(/read-only/);

		// The coverage text gives the real reason, not "a newer version".
		const search = await asUser(["search", "kaboom", "--json", ...globals(indexDir)]);
		expect(search.code, search.stderr).toBe(0);
		const note = (JSON.parse(search.stdout) as { coverage: { note: string } }).coverage.note;
		expect(note).toMatch(/not writable/);
		expect(note).not.toMatch(/newer version/);
	});

	it("regression: status and search --no-sync count an unreadable session file as failed, not complete", async () => {
		const indexDir = join(base, "user-index");
		mkdirSync(indexDir);
		giveAway(indexDir);
		const unreadable = files.find((f) => f.endsWith("errs.jsonl")) as string;
		chmodSync(unreadable, 0o000);
		try {
			// reindex reports the failed file and exits 1; the rest is indexed.
			const re = await asUser(["reindex", "--json", ...globals(indexDir)]);
			expect(re.code, re.stderr).toBe(1);
			expect((JSON.parse(re.stdout) as { result: { failed: number } }).result.failed).toBe(1);

			const status = await asUser(["status", "--json", ...globals(indexDir)]);
			expect(status.code, status.stderr).toBe(0);
			const cov = (JSON.parse(status.stdout) as { coverage: { partial: boolean; failed: number; note: string } })
				.coverage;
			expect(cov).toMatchObject({ partial: true, failed: 1 });
			expect(cov.note).toMatch(/^partial/);

			const noSync = await asUser(["search", "kaboom", "--no-sync", "--json", ...globals(indexDir)]);
			expect(noSync.code, noSync.stderr).toBe(0);
			const answer = JSON.parse(noSync.stdout) as { coverage: Coverage };
			expect(answer.coverage).toMatchObject({ partial: true, failed: 1 });

			// The human views word partial coverage as the tools do: what it means, and that waiting will not help.
			const [statusText, searchText] = await Promise.all([
				asUser(["status", ...globals(indexDir)]),
				asUser(["search", "kaboom", "--no-sync", ...globals(indexDir)]),
			]);
			expect(coverageText(answer.coverage)).toMatch(/waiting will not change this\)$/);
			expect(statusText.stdout.split("\n")).toContain(coverageText(cov as Coverage));
			expect(searchText.stdout.split("\n")).toContain(coverageText(answer.coverage));
		} finally {
			chmodSync(unreadable, 0o644);
		}
	});
});
