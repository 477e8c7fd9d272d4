/**
 * A catch-up that was skipped, cut off or made pointless is resumed by a running Pi: real processes (the extension's
 * runtime as Pi runs it, background catch-up on) share one index. Pi B opens while Pi A catches up (B's catch-up is
 * skipped: A holds the lock); A quits or is killed mid-catch-up; B, asked nothing, notices within seconds that the
 * index is partial and nobody catches up, and fills it. The index directory deleted under a running Pi is refilled
 * the same way. Each used to stay partial until the next Pi started.
 */
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Coverage } from "../../src/contract.js";
import { openIndexSnapshot } from "../../src/index-admin.js";
import { CATCH_UP_LOCK } from "../../src/ingest/lock-names.js";
import { lockHolderInfo } from "../../src/store/lock-holder.js";
import { ChildGroup, type WatchedChild } from "../helpers/children.js";
import { lineFactory } from "../helpers/session-lines.js";
import { ask, startLiveRuntime } from "./live-runtime.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/pi-0.73.1");
/** Enough files that a catch-up on a busy machine is still running when the test stops its holder. */
const FILES = 1500;
const children = new ChildGroup();
let tmp: string;
let agentDir: string;
let indexDir: string;
let project: string;
let env: Record<string, string>;

beforeEach(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-resume-")));
	agentDir = join(tmp, "agent");
	indexDir = join(agentDir, "event-index");
	project = join(tmp, "project");
	mkdirSync(project);
	const sessions = join(agentDir, "sessions", "--home-dev-project--");
	mkdirSync(sessions, { recursive: true });
	for (let i = 0; i < FILES; i++)
		copyFileSync(join(FIXTURES, "rich-tree-compaction.jsonl"), join(sessions, `c-${i}.jsonl`));
	// The marker's session is the oldest: a catch-up (newest first) reaches it last.
	const f = lineFactory({ cwd: "/home/dev/project" });
	const marker = join(sessions, "marker.jsonl");
	writeFileSync(marker, f.header() + f.user("the quillfeather rollout"));
	utimesSync(marker, new Date(2000, 0, 1), new Date(2000, 0, 1));
	writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ authorization: { allRoots: true } }));
	env = { PI_CODING_AGENT_DIR: agentDir };
});

afterEach(() => {
	children.killAll();
	rmSync(tmp, { recursive: true, force: true });
});

/** Polls an asynchronous condition every 50 ms; throws `what` after `ms`. */
async function until(what: string, cond: () => Promise<boolean>, ms: number): Promise<void> {
	const end = Date.now() + ms;
	while (!(await cond())) {
		if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** Coverage as any process sees it, read from the index directory (undefined while there is no index). */
async function coverageNow(): Promise<Coverage | undefined> {
	const snapshot = await openIndexSnapshot(indexDir).catch(() => undefined);
	if (!snapshot) return undefined;
	try {
		return await snapshot.coverage();
	} finally {
		snapshot.close();
	}
}

const catchUpHolder = async () => (await lockHolderInfo(indexDir, CATCH_UP_LOCK)).holder?.pid;
const complete = async () => (await coverageNow())?.partial === false;

/** True once the index log says that process `pid`'s catch-up was skipped because another held the lock. */
function skippedAsLocked(pid: number | undefined): boolean {
	const log = join(indexDir, "event-index.log");
	if (!existsSync(log)) return false;
	return readFileSync(log, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Record<string, unknown>)
		.some((l) => l.pid === pid && l.event === "catch_up" && l.outcome === "skipped" && l.reason === "locked");
}

/** A holds the catch-up lock and B has opened beside it, its own catch-up skipped (the log says so). */
async function twoPisOneCatchingUp(): Promise<{ a: WatchedChild; b: WatchedChild }> {
	const a = await startLiveRuntime(children, project, env, "catch-up");
	await until("Pi A holds the catch-up lock", async () => (await catchUpHolder()) === a.pid, 60_000);
	const b = await startLiveRuntime(children, project, env, "catch-up");
	await until("Pi B's catch-up is skipped", async () => skippedAsLocked(b.pid), 60_000);
	return { a, b };
}

/** Asked nothing, B takes over the catch-up and the index becomes complete; then B's search finds the marker. */
async function expectBFinishes(b: WatchedChild): Promise<void> {
	await until("Pi B takes the catch-up over", async () => (await catchUpHolder()) === b.pid, 60_000);
	await until("the index is complete", complete, 180_000);
	expect(await ask(b, "search quillfeather")).toMatchObject({ hits: 1, note: expect.stringMatching(/^complete/) });
}

describe("regression: a partial index nobody catches up is caught up by a running Pi", () => {
	it("Pi A quits mid-catch-up: Pi B, whose catch-up was skipped, resumes it within seconds", async () => {
		const { a, b } = await twoPisOneCatchingUp();
		expect(await ask(a, "close")).toEqual({ closed: true });
		await a.exited;
		const left = await coverageNow();
		expect(left?.partial, `A's catch-up was to be cut off mid-way: ${left?.note}`).toBe(true);
		await expectBFinishes(b);
	}, 300_000);

	it("Pi A is killed mid-catch-up: once its lock is stale, Pi B resumes the catch-up", async () => {
		const { a, b } = await twoPisOneCatchingUp();
		a.kill("SIGKILL");
		await a.exited;
		expect((await coverageNow())?.partial).toBe(true);
		await expectBFinishes(b);
	}, 300_000);

	it("the index directory deleted under a running Pi is refilled without a tool call", async () => {
		const b = await startLiveRuntime(children, project, env, "catch-up");
		await until("the first catch-up completes", complete, 180_000);
		rmSync(indexDir, { recursive: true, force: true });
		await until("a fresh generation is complete", complete, 180_000);
		expect(await ask(b, "search quillfeather")).toMatchObject({ hits: 1, note: expect.stringMatching(/^complete/) });
	}, 400_000);
});
