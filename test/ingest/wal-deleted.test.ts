/**
 * The WAL file deleted under a live writer: a real process (the extension's runtime, as a Pi process runs it) holds
 * the index open with committed frames in its WAL; the `-wal` file is unlinked; the writer keeps syncing while
 * another process reads, syncs and catches up. The index must end correct (rebuilt or intact), each process's
 * model sees at most one generic sentence, and `verify` (the real program) reports no difference afterwards.
 */
import {
	appendFileSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	realpathSync,
	rmSync,
	statSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IndexRuntime } from "../../src/extension/index-runtime.js";
import { DAMAGED_MESSAGE, toPublicError } from "../../src/extension/public-errors.js";
import { searchEvents } from "../../src/query/index.js";
import { readPointer } from "../../src/store/generations.js";
import { cli, hermeticEnv, json } from "../cli/cli-harness.js";
import { ChildGroup } from "../helpers/children.js";
import { lineFactory } from "../helpers/session-lines.js";
import { expectModelSafe } from "../tools/model-boundary.js";
import { ask, startLiveRuntime } from "./live-runtime.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/pi-0.73.1");
const children = new ChildGroup();
let tmp: string;
let agentDir: string;
let indexDir: string;
let sessions: string;
let project: string;
const runtimes: IndexRuntime[] = [];

function start(): IndexRuntime {
	const rt = IndexRuntime.start({ cwd: project, env: { PI_CODING_AGENT_DIR: agentDir }, catchUp: false });
	runtimes.push(rt);
	return rt;
}
/** A search as the model makes it: its hit count and coverage, or the one sentence it would see instead. */
async function search(rt: IndexRuntime, query: string): Promise<{ hits?: number; partial?: boolean; error?: string }> {
	return rt
		.query({ cwd: project }, (s) => searchEvents(s.index.manager.store.db, { query }, s.caller, s.options))
		.then(
			(r) => ({ hits: r.hits.length, partial: r.coverage.partial }),
			(err: unknown) => ({ error: toPublicError(err).message }),
		);
}
function generationFile(): string {
	const ptr = readPointer(indexDir);
	if (!ptr.ok) throw new Error("no pointer");
	return join(indexDir, ptr.pointer.file);
}

beforeEach(async () => {
	// Spaces in the directories: the scan also proves no path fragment reaches the model.
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei wal ")));
	agentDir = join(tmp, "John Smith", "agent");
	indexDir = join(agentDir, "event-index");
	sessions = join(agentDir, "sessions", "--home-dev-project--");
	project = join(tmp, "project");
	mkdirSync(sessions, { recursive: true });
	mkdirSync(project, { recursive: true });
	for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(sessions, f));
	writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ authorization: { allRoots: true } }));
	const rt = start();
	await rt.ready();
	expect((await rt.startCatchUp()).kind).toBe("done");
	await rt.close();
});
afterEach(async () => {
	children.killAll();
	for (const rt of runtimes.splice(0)) await rt.close();
	rmSync(tmp, { recursive: true, force: true });
});

describe("the WAL deleted under a live writer", () => {
	it("regression: reads, syncs and catch-up elsewhere end in a correct index; verify finds no difference", async () => {
		const live = await startLiveRuntime(children, project, { PI_CODING_AGENT_DIR: agentDir });

		// The live writer's own session: committed frames sit in its WAL (the hot path never checkpoints in a commit).
		const own = join(sessions, "live.jsonl");
		const f = lineFactory({ cwd: "/home/dev/project" });
		writeFileSync(own, f.header() + f.user("zebrafinch before the unlink"));
		expect(await ask(live, `sync ${own}`)).toEqual({ sync: "indexed" });
		const wal = `${generationFile()}-wal`;
		expect(statSync(wal).size).toBeGreaterThan(0);
		unlinkSync(wal);

		// The writer keeps working; another process reads, syncs its own file and catches up.
		appendFileSync(own, f.user("zebrafinch after the unlink"));
		const liveSync = await ask(live, `sync ${own}`);
		const other = start();
		const seen: string[] = [];
		const first = await search(other, "zebrafinch");
		if (first.error) seen.push(first.error);
		// An answer from a rebuilt (still empty) generation never claims to be complete.
		else if (first.hits === 0) expect(first.partial).toBe(true);
		const otherFile = join(sessions, "other.jsonl");
		const g = lineFactory({ cwd: "/home/dev/project", prefix: "o" });
		writeFileSync(otherFile, g.header() + g.user("quetzal from the other process"));
		const otherAnswer = await other
			.query({ cwd: project, sessionFile: otherFile }, () => "answered")
			.catch((err: unknown) => toPublicError(err).message);
		if (otherAnswer !== "answered") seen.push(otherAnswer);
		expect((await other.startCatchUp()).kind).toBe("done");

		// Both processes answer again, with everything: the writer's lines, the other's file, the fixtures.
		appendFileSync(own, f.user("zebrafinch after the recovery"));
		await ask(live, `sync ${own}`);
		const liveSeen: string[] = [];
		for (const q of ["zebrafinch", "quetzal", "hello"]) {
			const r = await ask(live, `search ${q}`);
			if (typeof r.error === "string") liveSeen.push(r.error);
			const again = typeof r.error === "string" ? await ask(live, `search ${q}`) : r;
			expect(again.hits, `live: ${q}`).toBeGreaterThan(0);
			const mine = await search(other, q);
			if (mine.error) seen.push(mine.error);
			expect((mine.error ? await search(other, q) : mine).hits, `other: ${q}`).toBeGreaterThan(0);
		}
		expect(await ask(live, "close")).toEqual({ closed: true });
		await live.exited;
		await other.close();

		// At most one generic sentence per process, safe for the model.
		expect(seen.length, seen.join(" | ")).toBeLessThanOrEqual(1);
		expect(liveSeen.length, liveSeen.join(" | ")).toBeLessThanOrEqual(1);
		for (const text of [...seen, ...liveSeen]) {
			expect(text).toBe(DAMAGED_MESSAGE);
			expectModelSafe(text, [tmp]);
		}
		expect(liveSync.sync === "indexed" || liveSync.sync === "failed", JSON.stringify(liveSync)).toBe(true);

		// The real program finds the index equal to the files.
		mkdirSync(join(tmp, "home"));
		const env = hermeticEnv(join(tmp, "home"));
		const verify = await cli(["verify", "--json", "--agent-dir", agentDir, "--index-dir", indexDir], { env });
		const report = json<{ ok: boolean; differences: unknown[] }>(verify);
		expect(report.differences).toEqual([]);
		expect(verify.code).toBe(0);
		expect(existsSync(generationFile())).toBe(true);
	});
});
