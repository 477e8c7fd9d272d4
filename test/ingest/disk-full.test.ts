/**
 * A full disk under the index: a real tmpfs of its own (root only; skipped with the reason when mount is not
 * permitted) holds the index directory and a ballast file. The real program fills it during a build; the index is
 * left whole (nothing half-written, no second generation), every message says "disk full" in plain words (no
 * SQLite text, no path), `status` and `search --no-sync` do not say complete, and once space is freed a plain
 * `reindex` completes and `verify` reports no difference.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexRuntime } from "../../src/extension/index-runtime.js";
import { toPublicError } from "../../src/extension/public-errors.js";
import { searchEvents } from "../../src/query/index.js";
import { DISK_FULL_REASON } from "../../src/store/db.js";
import { readPointer } from "../../src/store/generations.js";
import { cli, hermeticEnv, json } from "../cli/cli-harness.js";
import { lineFactory } from "../helpers/session-lines.js";
import { expectModelSafe } from "../tools/model-boundary.js";

/** The file system's size: the fresh generation fits in a quarter of it, the built index (≈1.4 MB) does not. */
const DISK_KB = 2048;
/** Space left free for the build that fills the disk. */
const FREE_KB = 512;
/** SQLite's own words for a full disk, which name neither the disk nor what to do. */
const SQLITE_FULL_TEXT = /database or disk is full|SQLITE_/i;

let base: string;
let disk: string;
let agentDir: string;
let env: Record<string, string>;
let mounted = false;
let skipReason = "";
const indexDir = () => join(disk, "index");
const ballast = () => join(disk, "ballast");
const run = (...args: string[]) =>
	cli([...args, "--agent-dir", agentDir, "--index-dir", indexDir(), "--workspace", "/home/dev/project"], { env });

/** 20 sessions of pseudo-random words (≈450 KB of JSONL): an index far larger than FREE_KB. */
function writeCorpus(sessions: string): void {
	let seed = 7;
	const rand = () => {
		seed = (seed * 1664525 + 1013904223) >>> 0;
		return seed / 2 ** 32;
	};
	const word = () =>
		Array.from({ length: 3 + Math.floor(rand() * 6) }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join(
			"",
		);
	for (let i = 0; i < 20; i++) {
		const f = lineFactory({ cwd: "/home/dev/project" });
		let out = f.header() + f.user(`kestrel session ${i}`);
		for (let n = 0; n < 40; n++) out += f.user(Array.from({ length: 60 }, word).join(" "));
		writeFileSync(join(sessions, `s${i}.jsonl`), out);
	}
}

/** Writes the ballast until the file system refuses (ENOSPC): the disk is full. */
function fillDisk(): void {
	const chunk = Buffer.alloc(16 << 10, 0x61);
	for (;;) {
		try {
			appendFileSync(ballast(), chunk);
		} catch (err) {
			if ((err as { code?: string }).code === "ENOSPC") return;
			throw err;
		}
	}
}

/** Every segment of the test's own paths: none may appear in a message. */
const expectPlain = (text: string) => {
	expect(text).not.toMatch(SQLITE_FULL_TEXT);
	expectModelSafe(text, [base]);
};

beforeAll(() => {
	base = mkdtempSync(join(tmpdir(), "pei-diskfull-"));
	disk = join(base, "disk");
	mkdirSync(disk);
	try {
		execFileSync("mount", ["-t", "tmpfs", "-o", `size=${DISK_KB}k`, "tmpfs", disk], { stdio: "pipe" });
		mounted = true;
	} catch (err) {
		const detail = String((err as { stderr?: unknown }).stderr ?? err).split("\n")[0];
		skipReason = `mounting a ${DISK_KB} KiB tmpfs is not permitted here (${detail}); a full disk needs a file system of its own`;
	}
	agentDir = join(base, "agent");
	const sessions = join(agentDir, "sessions", "--home-dev-project--");
	mkdirSync(sessions, { recursive: true });
	writeCorpus(sessions);
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
});
afterAll(() => {
	if (mounted) execFileSync("umount", [disk]);
	rmSync(base, { recursive: true, force: true });
});

describe("a full disk under the index", () => {
	it("regression: no room to create the index: the model gets one plain sentence, nothing is left behind", async ({
		skip,
	}) => {
		skip(!mounted, skipReason);
		fillDisk();
		const rt = IndexRuntime.start({
			cwd: base,
			env: { PI_CODING_AGENT_DIR: agentDir, PI_EVENT_INDEX_DIR: indexDir() },
		});
		try {
			const message = await rt.query({ cwd: base }, () => "answered").catch((e: unknown) => toPublicError(e).message);
			expect(message).toBe(`event index unavailable: ${DISK_FULL_REASON}`);
			expectPlain(message);
		} finally {
			await rt.close();
		}
		// No empty generation file, no temp file cut short: only lock targets and the (empty) log.
		expect(readdirSync(indexDir()).filter((n) => /\.sqlite|\.tmp$/.test(n))).toEqual([]);
		rmSync(indexDir(), { recursive: true, force: true });
	});

	it("regression: the disk fills during a build: index whole, plain message, never complete; freed → reindex, verify 0", async ({
		skip,
	}) => {
		skip(!mounted, skipReason);
		rmSync(ballast(), { force: true });
		fillDisk();
		truncateSync(ballast(), (DISK_KB - FREE_KB) << 10);

		// The store opens (its fresh generation fits); the build fills the disk.
		const re = await run("reindex");
		expect(re.code).toBe(1);
		expect(re.stderr).toMatch(/^pi-event-index: reindex failed: the disk holding the index is full/);
		expectPlain(re.stderr);
		const ptr = readPointer(indexDir());
		if (!ptr.ok) throw new Error("no pointer after the failed build");
		// A rebuild beside it fails the same way and leaves no second (half-written) generation.
		const full = await run("reindex", "--full");
		expect(full.code).toBe(1);
		expect(full.stderr).toMatch(/the disk holding the index is full/);
		expectPlain(full.stderr);
		expect(readdirSync(indexDir()).filter((n) => /^index-.*\.sqlite$/.test(n))).toEqual([ptr.pointer.file]);

		// Nothing half-written: every difference is a file not indexed yet, none is a wrong or partial row.
		const verify = json<{ differences: Array<{ kind: string }> }>(await run("verify", "--json"));
		expect(verify.differences.length).toBeGreaterThan(0);
		expect(new Set(verify.differences.map((d) => d.kind))).toEqual(new Set(["not-indexed"]));
		// Neither status nor an answer from the index as it is says complete.
		const status = json<{ coverage: { partial: boolean; note: string } }>(await run("status", "--json"));
		expect(status.coverage.partial).toBe(true);
		expect(status.coverage.note).not.toMatch(/^complete/);
		const noSync = json<{ coverage: { partial: boolean; note: string } }>(
			await run("search", "kestrel", "--no-sync", "--json"),
		);
		expect(noSync.coverage.partial).toBe(true);
		expect(noSync.coverage.note).not.toMatch(/^complete/);
		// The model, meanwhile: an answer from the index as it is, marked partial, or one plain sentence.
		const rt = IndexRuntime.start({
			cwd: "/home/dev/project",
			env: { PI_CODING_AGENT_DIR: agentDir, PI_EVENT_INDEX_DIR: indexDir() },
			catchUp: false,
		});
		try {
			const answer = await rt
				.query({ cwd: "/home/dev/project" }, (s) =>
					searchEvents(s.index.manager.store.db, { query: "kestrel" }, s.caller, s.options),
				)
				.then(
					(r) => r.coverage,
					(e: unknown) => toPublicError(e).message,
				);
			if (typeof answer === "string") expectPlain(answer);
			else expect(answer.partial).toBe(true);
		} finally {
			await rt.close();
		}

		// Space freed: a plain reindex completes and the index equals the files.
		rmSync(ballast());
		const again = await run("reindex", "--json");
		expect(again.code, again.stderr).toBe(0);
		expect(json<{ coverage: { partial: boolean } }>(again).coverage.partial).toBe(false);
		const proof = await run("verify", "--json");
		expect(json<{ differences: unknown[] }>(proof).differences).toEqual([]);
		expect(proof.code).toBe(0);
		const hits = json<{ hits: unknown[] }>(await run("search", "kestrel", "--no-sync", "--json"));
		expect(hits.hits.length).toBeGreaterThan(0);
	});
});
