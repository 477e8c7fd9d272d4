/**
 * Issue 45, finding 7, in Pi: `/event-index forget SESSION` in the real pi CLI (print mode, the extension loaded)
 * takes an earlier session out of the index; a later pi run's catch-up does not bring it back; `/event-index`
 * status counts it; `/event-index unforget SESSION` brings it back. Checked with the real pi-event-index program.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, hermeticEnv, json } from "../cli/cli-harness.js";
import { EXTENSION, e2eDirs, expectOk } from "../helpers/e2e.js";
import { runPi } from "../helpers/pi-cli.js";

const MARKER = "quokkaforget";
let tmp: string;
let agentDir: string;
let cwd: string;

const piRun = (args: string[]) => runPi({ agentDir, cwd, args, extensions: [EXTENSION], timeoutMs: 60_000 });
const hits = async () =>
	json<{ hits: Array<{ sessionId: string }> }>(
		await cli(["--agent-dir", agentDir, "search", "--all", "--json", "--no-sync", MARKER], {
			env: hermeticEnv(tmp),
		}),
	).hits;

beforeAll(() => {
	({ tmp, agentDir, cwd } = e2eDirs("pei-forget-cmd-"));
});

afterAll(() => {
	rmSync(tmp, { recursive: true, force: true });
});

describe("/event-index forget and unforget in Pi", () => {
	it("forgets an earlier session for good, counts it, and unforgets it", async () => {
		const seed = await piRun([`remember the ${MARKER} plan`]);
		expectOk(seed);
		const seedId = seed.reports[0].sessionId as string;
		expect((await hits()).map((h) => h.sessionId)).toContain(seedId);

		const forget = await piRun([`/event-index forget ${seedId.slice(0, 8)}`]);
		expectOk(forget);
		expect(forget.stderr).toContain(`event index: forgot session ${seedId}`);
		expect(await hits()).toEqual([]);

		const later = await piRun(["/event-index"]);
		expectOk(later);
		expect(later.stderr).toMatch(/forgotten: 1 session files/);
		expect(await hits()).toEqual([]);

		const back = await piRun([`/event-index unforget ${seedId}`]);
		expectOk(back);
		expect(back.stderr).toContain("event index: unforgot 1 session file");
		expect((await hits()).map((h) => h.sessionId)).toContain(seedId);
	});
});
