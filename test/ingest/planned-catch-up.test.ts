/**
 * Pi's catch-up worker plans its pass before it takes the lock (catch-up-job.ts `runPlannedCatchUpJob`): an index
 * already up to date is left without the lock ever being taken, the job says while it only reads (close() may then end
 * its worker at once), and a stop that came while it planned ends it before the lock. Real SQLite files and real
 * session files; the lock is observed in the index directory.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LOG_FILE } from "../../src/files/log.js";
import { type CatchUpJob, runCatchUpJob, runPlannedCatchUpJob } from "../../src/ingest/catch-up-job.js";
import { CATCH_UP_LOCK } from "../../src/ingest/lock-names.js";
import { takeLock } from "../../src/store/lock.js";
import { lockHolderInfo } from "../../src/store/lock-holder.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../store/temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

/** A job over a folder of three sessions, indexed once. */
async function indexedJob(): Promise<{ job: CatchUpJob; files: string[] }> {
	const t = tempDir("pei-planned-");
	cleanups.push(t.cleanup);
	const sessions = join(t.dir, "sessions");
	mkdirSync(sessions);
	const files = [0, 1, 2].map((i) => {
		const lines = lineFactory({ prefix: `p${i}` });
		const path = join(sessions, `p${i}.jsonl`);
		writeFileSync(path, lines.header() + lines.user(`planned question ${i}`) + lines.assistant(`answer ${i}`));
		return path;
	});
	const job: CatchUpJob = {
		indexDir: join(t.dir, "index"),
		roots: [{ path: sessions, subfolders: false }],
		extraFiles: [],
		workspaceDirs: [],
		threads: 1,
	};
	const first = await runCatchUpJob(job);
	expect(first.kind === "done" && first.result.indexed).toBe(3);
	return { job, files };
}

describe("a catch-up planned before the lock", () => {
	it("leaves an up-to-date index without taking the lock, and says while it only reads", async () => {
		const { job } = await indexedJob();
		const said: Array<{ reading: boolean; locked: Promise<boolean> }> = [];
		const outcome = await runPlannedCatchUpJob(job, {
			planning: (reading) => said.push({ reading, locked: lockedNow(job) }),
		});
		expect(outcome).toMatchObject({ kind: "done", result: { indexed: 0, stopped: false } });
		expect(said.map((s) => s.reading)).toEqual([true, false]);
		expect(await Promise.all(said.map((s) => s.locked))).toEqual([false, false]);
		expect((await lockHolderInfo(job.indexDir, CATCH_UP_LOCK)).locked).toBe(false);
		expect(locksTaken(job)).toBe(1);
	});

	it("takes the lock for the work it planned, and only after it stopped reading", async () => {
		const { job, files } = await indexedJob();
		appendFileSync(files[1], lineFactory({ prefix: "late" }).user("a line appended after the first pass"));
		let lockedWhileReading: Promise<boolean> | undefined;
		const outcome = await runPlannedCatchUpJob(job, {
			planning: (reading) => {
				if (reading) lockedWhileReading = lockedNow(job);
			},
		});
		expect(await lockedWhileReading).toBe(false);
		expect(outcome).toMatchObject({ kind: "done", result: { indexed: 1, stopped: false } });
	});

	it("skips at once, planning nothing, while another holds the catch-up lock", async () => {
		const { job, files } = await indexedJob();
		appendFileSync(files[2], lineFactory({ prefix: "late" }).user("left for the holder of the lock"));
		const held = await takeLock(job.indexDir, CATCH_UP_LOCK);
		expect(held.ok).toBe(true);
		const said: boolean[] = [];
		try {
			const outcome = await runPlannedCatchUpJob(job, { planning: (reading) => said.push(reading) });
			expect(outcome).toEqual({ kind: "skipped", reason: "locked" });
			expect(said).toEqual([]);
		} finally {
			if (held.ok) await held.handle.release();
		}
	});

	it("a stop that came while it planned ends it before the lock, writing nothing", async () => {
		const { job, files } = await indexedJob();
		appendFileSync(files[0], lineFactory({ prefix: "late" }).user("never indexed: the job was stopped"));
		let stop = false;
		const before = locksTaken(job);
		const outcome = await runPlannedCatchUpJob(job, {
			planning: (reading) => {
				if (reading) stop = true;
			},
			shouldStop: () => stop,
		});
		expect(outcome).toMatchObject({ kind: "done", result: { indexed: 0, stopped: true } });
		expect(locksTaken(job)).toBe(before);
		// The next pass still finds the appended line to index.
		const next = await runPlannedCatchUpJob(job);
		expect(outcome.kind === "done" && next.kind === "done" && next.result.indexed).toBe(1);
	});
});

/** Whether the catch-up lock is held when this is called (lockHolderInfo looks before its first await). */
function lockedNow(job: CatchUpJob): Promise<boolean> {
	return lockHolderInfo(job.indexDir, CATCH_UP_LOCK).then((info) => info.locked);
}

/** How many times a lock was taken in the index directory, as its log says (store/lock.ts logs each). */
function locksTaken(job: CatchUpJob): number {
	return readFileSync(join(job.indexDir, LOG_FILE), "utf8")
		.split("\n")
		.filter((l) => l.includes('"lock.acquired"') && l.includes(`"${CATCH_UP_LOCK}"`)).length;
}
