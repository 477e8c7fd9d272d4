/**
 * reindex --full, verify with planted differences, the catch-up lock held by another process (as a running Pi
 * holds it), and the progress bar on a real pseudo-terminal. Real child processes, real SQLite files.
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSearchResult } from "../../src/contract.js";
import { CATCH_UP_LOCK } from "../../src/ingest/lock-names.js";
import { tryLock } from "../../src/store/lock.js";
import { BIN, cli, finished, hasStack, hermeticEnv, json, makeAgentDir, startCli } from "./cli-harness.js";

let base: string;
let agentDir: string;
let indexDir: string;
let files: string[];
let env: Record<string, string>;
let g: string[];

const run = (...args: string[]) => cli([...args, ...g], { env });

interface Difference {
	path: string;
	kind: string;
	detail: string;
}
interface VerifyJson {
	ok: boolean;
	sources: number;
	files: number;
	generation: string;
	differences: Difference[];
}

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-maint-"));
	agentDir = join(base, "agent");
	indexDir = join(base, "index");
	files = makeAgentDir(agentDir);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--index-dir", indexDir, "--workspace", "/home/dev"];
	const r = await run("reindex");
	expect(r.code, r.stderr).toBe(0);
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

describe("verify and reindex --full", () => {
	it("verify passes on a fresh index, finds planted differences (exit 1), and a full rebuild repairs them", async () => {
		const clean = await run("verify", "--json");
		expect(clean.code, clean.stderr).toBe(0);
		const ok = json<VerifyJson>(clean);
		expect(ok).toMatchObject({ ok: true, sources: 10, files: 10, differences: [] });

		// Plant two differences: an event row deleted behind the index's back, and a line appended to a file.
		const status = json<{ generationFile: string }>(await run("status", "--json"));
		const db = new Database(status.generationFile);
		const victim = db
			.prepare(
				"SELECT e.source_id AS sourceId, e.seq AS seq, e.entry_id AS entryId, s.path AS path FROM events e JOIN sources s ON s.id = e.source_id WHERE e.entry_id = '84051c10' LIMIT 1",
			)
			.get() as { sourceId: number; seq: number; entryId: string; path: string };
		db.prepare("DELETE FROM events WHERE source_id = ? AND seq = ?").run(victim.sourceId, victim.seq);
		db.close();
		const appended = files.find((f) => f.endsWith("cli-print-tool-call.jsonl")) as string;
		appendFileSync(
			appended,
			`${JSON.stringify({ type: "custom", customType: "note", data: { x: 1 }, id: "feed0001", parentId: null, timestamp: "2026-12-02T12:40:00.000Z" })}\n`,
		);

		const [bad, human] = await Promise.all([run("verify", "--json"), run("verify")]);
		expect(bad.code).toBe(1);
		const report = json<VerifyJson>(bad);
		expect(report.ok).toBe(false);
		expect(report.differences).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ kind: "event-missing", path: victim.path }),
				expect.objectContaining({ kind: "behind", path: appended }),
			]),
		);
		expect(human.code).toBe(1);
		expect(human.stdout).toMatch(/\d+ differences?:/);
		expect(human.stdout).toMatch(/event-missing\s+\S+\.jsonl: entry 84051c10/);
		expect(human.stdout).toContain(`${victim.path}: entry 84051c10`);
		expect(human.stdout).toContain("reindex --full");
		expect(human.stderr).toBe("");

		const full = await run("reindex", "--full", "--json");
		expect(full.code, full.stderr).toBe(0);
		const rebuilt = json<{ mode: string; generation: string; result: { indexed: number; failed: number } }>(full);
		expect(rebuilt.mode).toBe("full");
		expect(rebuilt.generation).not.toBe(ok.generation);
		expect(rebuilt.result).toMatchObject({ indexed: 10, failed: 0 });
		const again = await run("verify");
		expect(again.code, again.stdout).toBe(0);
		expect(again.stdout).toContain("no differences");
	});
});

describe("the catch-up lock held by another process", () => {
	it("reindex --no-wait fails clearly, reindex waits, queries answer without waiting, status names the holder", async () => {
		const lock = await tryLock(indexDir, CATCH_UP_LOCK);
		expect(lock).toBeDefined();
		try {
			const [noWait, status, search] = await Promise.all([
				run("reindex", "--no-wait"),
				run("status", "--json"),
				run("search", "answer", "--json"),
			]);
			expect(noWait.code).toBe(1);
			expect(noWait.stderr.trim().split("\n")).toHaveLength(1);
			expect(noWait.stderr).toContain(`pid ${process.pid}`);
			expect(noWait.stderr).toMatch(/is catching up the index in .*index; try again later/);
			expect(hasStack(noWait.stderr)).toBe(false);
			const locks = json<{ locks: Record<string, { locked: boolean; holder?: { pid: number } }> }>(status).locks;
			expect(locks[CATCH_UP_LOCK]).toMatchObject({ locked: true, holder: { pid: process.pid } });
			expect(search.code, search.stderr).toBe(0);
			const result = json<EventSearchResult>(search);
			expect(result.hits.length).toBeGreaterThan(0);
			expect(result.coverage.note).toContain("catch-up running");

			const waitsForLock = (child: ChildProcess) =>
				new Promise<void>((resolve, reject) => {
					let err = "";
					child.stderr?.on("data", (d) => {
						err += d;
						if (err.includes(`waiting for pid ${process.pid}`)) resolve();
					});
					child.on("close", () => reject(new Error(`reindex ended before waiting: ${err}`)));
				});
			// Ctrl-C while waiting: exit 130, one line, nothing half-done.
			const interrupted = startCli(["reindex", ...g], { env });
			const stopped = finished(interrupted);
			await waitsForLock(interrupted);
			interrupted.kill("SIGINT");
			const s = await stopped;
			expect(s.code).toBe(130);
			expect(s.stderr).toMatch(/\npi-event-index: interrupted; the index keeps everything committed so far\n$/);

			const waiting = startCli(["reindex", ...g], { env });
			const done = finished(waiting);
			await waitsForLock(waiting);
			await lock?.release();
			const r = await done;
			expect(r.code, r.stderr).toBe(0);
			expect(r.stdout).toMatch(/caught up the index|index up to date/);
		} finally {
			await lock?.release();
		}
	});
});

const hasScript = spawnSync("script", ["--version"]).status === 0;

describe.skipIf(!hasScript)("progress on a terminal", () => {
	it("draws a bar with rate and ETA on stderr when it is a TTY", () => {
		const command = [process.execPath, BIN, "reindex", "--full", ...g].map((a) => `'${a}'`).join(" ");
		const r = spawnSync("script", ["-qec", command, "/dev/null"], { env, encoding: "utf8", timeout: 60_000 });
		expect(r.status, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/\rrebuilding \[#+-*\] \d+\/10 files [\d.]+ files\/s [\d.]+ (B|KB|MB)\/s ETA \S+/);
		expect(r.stdout).toMatch(/rebuilding \[#+\] 10\/10 files/);
		expect(r.stdout).toContain("rebuilt the index: 10 files synced");
	});
});
