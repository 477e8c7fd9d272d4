import { rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { REBUILD_LOCK } from "../../src/ingest/lock-names.js";
import { tryLock, withExclusiveLock } from "../../src/store/lock.js";
import { DEFAULT_STALE_MS, lockHolderInfo } from "../../src/store/lock-holder.js";
import { startChild, waitForOutput } from "./spawn.js";
import { tempDir } from "./temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

function newDir() {
	const t = tempDir("pei-lock-");
	cleanups.push(t.cleanup);
	return t.dir;
}

describe("locks", () => {
	it("is exclusive, reports its holder, and can be taken again after release", async () => {
		const dir = newDir();
		const handle = await tryLock(dir, "catchup", { stale: 2000 });
		expect(handle).toBeDefined();
		expect(await tryLock(dir, "catchup", { stale: 2000 })).toBeUndefined();
		const info = await lockHolderInfo(dir, "catchup");
		expect(info).toMatchObject({ locked: true, stale: false, holder: { pid: process.pid } });
		await handle?.release();
		await handle?.release(); // idempotent
		expect(await lockHolderInfo(dir, "catchup")).toEqual({ locked: false });
		const again = await tryLock(dir, "catchup", { stale: 2000 });
		expect(again?.compromised).toBe(false);
		await again?.release();
	});

	it("withExclusiveLock runs fn, releases, and reports busy without waiting", async () => {
		const dir = newDir();
		const held = await tryLock(dir, "store");
		const busy = await withExclusiveLock(dir, "store", () => 1);
		expect(busy).toMatchObject({ ok: false, reason: "busy" });
		await held?.release();
		const done = await withExclusiveLock(dir, "store", async () => 42);
		expect(done).toEqual({ ok: true, value: 42, compromised: false });
		expect((await lockHolderInfo(dir, "store")).locked).toBe(false);
		await expect(
			withExclusiveLock(dir, "store", () => {
				throw new Error("boom");
			}),
		).rejects.toThrow("boom");
		expect((await lockHolderInfo(dir, "store")).locked).toBe(false);
	});

	it("takes over the lock of a SIGKILLed holder after the stale threshold", async () => {
		const dir = newDir();
		const child = startChild(["lock", dir, "catchup", "2000"]);
		await waitForOutput(child, "locked");
		expect(await tryLock(dir, "catchup", { stale: 2000 })).toBeUndefined();
		expect((await lockHolderInfo(dir, "catchup")).holder?.pid).toBe(child.pid);
		child.kill("SIGKILL");
		const started = Date.now();
		const result = await withExclusiveLock(dir, "catchup", () => "mine", { stale: 2000, wait: true });
		expect(result).toMatchObject({ ok: true, value: "mine" });
		expect(Date.now() - started).toBeLessThan(8000);
	}, 20_000);

	it("regression: coverage stops saying a rebuild is running once a killed rebuild's lock has gone stale", async () => {
		const dir = newDir();
		const manager = await IndexManager.open({ indexDir: dir, roots: [], useWorker: false });
		cleanups.push(() => void manager.close());
		const child = startChild(["lock", dir, REBUILD_LOCK, String(DEFAULT_STALE_MS)]);
		await waitForOutput(child, "locked");
		expect((await manager.coverage()).rebuilding).toBe(true);
		child.kill("SIGKILL");
		await new Promise((r) => child.once("exit", r));
		// The lock the dead holder left, as it is once the stale period has passed without a refresh.
		const lockDir = join(dir, `${REBUILD_LOCK}.lock-target.lock`);
		const past = new Date(Date.now() - DEFAULT_STALE_MS - 1_000);
		utimesSync(lockDir, past, past);
		expect(await lockHolderInfo(dir, REBUILD_LOCK)).toMatchObject({ locked: true, stale: true });
		const coverage = await manager.coverage();
		expect(coverage.rebuilding).toBe(false);
		expect(coverage.note ?? "").not.toContain("rebuild running");
	}, 20_000);

	it("a compromised lock marks the handle and never kills the process", async () => {
		const dir = newDir();
		const handle = await tryLock(dir, "rebuild", { stale: 2000 });
		expect(handle?.compromised).toBe(false);
		rmSync(join(dir, "rebuild.lock-target.lock"), { recursive: true });
		const deadline = Date.now() + 5000;
		while (!handle?.compromised && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
		expect(handle?.compromised).toBe(true);
		await expect(handle?.release()).resolves.toBeUndefined();
		// Still alive, and the lock can be taken afresh.
		const next = await tryLock(dir, "rebuild", { stale: 2000 });
		expect(next).toBeDefined();
		await next?.release();
	}, 15_000);
});
