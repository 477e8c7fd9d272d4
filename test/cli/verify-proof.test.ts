/**
 * `verify` is a proof, not a fingerprint check: every line's xxHash64, every header field and the session name are
 * compared with the files. Each planted difference kind is reported, and the program exits 1. Real program, real
 * files, real SQLite file edited behind the index's back.
 */

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import { encodeCode } from "../../src/store/column-codes.js";
import { lineFactory } from "../helpers/session-lines.js";
import { cli, hermeticEnv, json, makeAgentDir } from "./cli-harness.js";

let base: string;
let env: Record<string, string>;
let g: string[];
let files: string[];
let long: string;
const run = (...args: string[]) => cli([...args, ...g], { env });

interface VerifyJson {
	ok: boolean;
	differences: Array<{ path: string; kind: string; detail: string }>;
}

beforeAll(async () => {
	base = mkdtempSync(join(tmpdir(), "pei-verify-"));
	const agentDir = join(base, "agent");
	files = makeAgentDir(agentDir);
	// A file long enough that its middle is outside both 4 KiB fingerprints.
	const f = lineFactory({ cwd: "/home/dev/long" });
	const dir = join(agentDir, "sessions", encodeSessionDirName("/home/dev/long"));
	mkdirSync(dir, { recursive: true });
	long = join(dir, "long.jsonl");
	const lines = Array.from({ length: 120 }, (_, i) =>
		f.user(`line ${String(i).padStart(3, "0")} ${"filler ".repeat(10)}`),
	);
	writeFileSync(long, f.header() + lines.join(""));
	mkdirSync(join(base, "home"));
	env = hermeticEnv(join(base, "home"));
	g = ["--agent-dir", agentDir, "--index-dir", join(base, "index"), "--workspace", "/home/dev"];
	const r = await run("reindex");
	expect(r.code, r.stderr).toBe(0);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("verify", () => {
	it("regression: reports a same-size mid-file edit, header identity, name, missing and extra lines; exits 1", async () => {
		expect((await run("verify")).code).toBe(0);

		// content: one character changed in the middle of the long file, same size, same mtime class of change.
		const bytes = readFileSync(long, "utf8");
		const at = bytes.indexOf("line 060");
		const edited = `${bytes.slice(0, at)}LINE 060${bytes.slice(at + 8)}`;
		expect(edited.length).toBe(bytes.length);
		writeFileSync(long, edited);
		expect(statSync(long).size).toBe(Buffer.byteLength(bytes));
		// The hot path's head/tail fingerprints do not see it (by design); catch-up re-reads nothing.
		const status = json<{ generationFile: string }>(await run("status", "--json"));
		const db = new Database(status.generationFile);
		const src = (path: string) => (db.prepare("SELECT id FROM sources WHERE path = ?").get(path) as { id: number }).id;
		const errs = files.find((f) => f.endsWith("errs.jsonl")) as string;
		const others = files.filter((f) => f !== errs);
		const [idFile, nameFile, missingFile, extraFile] = others as [string, string, string, string];
		db.prepare("UPDATE sources SET session_id = 'not-the-real-id' WHERE id = ?").run(src(idFile));
		db.prepare("UPDATE sources SET session_name = 'a name the file never had' WHERE id = ?").run(src(nameFile));
		db.prepare("DELETE FROM events WHERE source_id = ? AND seq = 0").run(src(missingFile));
		db.prepare(
			`INSERT INTO events (source_id, seq, entry_id, entry_type, timestamp, line_no, byte_start, byte_end, branch_state,
				selection_state)
			VALUES (?, 9999, 'ghost001', ?, '2026-01-01T00:00:00.000Z', 9999, 0, 1, ?, ?)`,
		).run(
			src(extraFile),
			encodeCode("entryType", "message"),
			encodeCode("branchState", "unknown"),
			encodeCode("selectionState", "unknown"),
		);
		db.close();

		const r = await run("verify", "--json");
		expect(r.code).toBe(1);
		const report = json<VerifyJson>(r);
		expect(report.ok).toBe(false);
		const kinds = (path: string) => report.differences.filter((d) => d.path === path).map((d) => d.kind);
		expect(kinds(long)).toContain("content-differs");
		expect(kinds(idFile)).toContain("header-differs");
		expect(kinds(nameFile)).toContain("name-differs");
		expect(kinds(missingFile)).toContain("event-missing");
		expect(kinds(extraFile)).toContain("event-extra");
		expect(kinds(errs)).toEqual([]);
	});

	it("regression: a file that is no longer a regular file is unreadable, not gone; a deleted one is gone", async () => {
		const [dirInPlace, deleted, fifoInPlace] = files.filter((f) => !f.endsWith("errs.jsonl")) as [
			string,
			string,
			string,
		];
		rmSync(dirInPlace);
		mkdirSync(dirInPlace);
		rmSync(deleted);
		// A FIFO no writer opens: verify must not block opening it (it reads files in chunks from a descriptor).
		rmSync(fifoInPlace);
		execFileSync("mkfifo", [fifoInPlace]);
		const report = json<VerifyJson>(await run("verify", "--json"));
		const about = (path: string) => report.differences.filter((d) => d.path === path);
		expect(about(dirInPlace).map((d) => `${d.kind}: ${d.detail}`)).toEqual(["unreadable: no longer a regular file"]);
		expect(about(fifoInPlace).map((d) => `${d.kind}: ${d.detail}`)).toEqual(["unreadable: no longer a regular file"]);
		expect(about(deleted).map((d) => d.kind)).toEqual(["file-gone"]);
	});
});
