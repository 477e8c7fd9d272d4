/**
 * The unchanged rule compares a file's stat with its checkpoint, which a bigint stat wrote; discovery takes the
 * cheaper number stat where it is exactly the same facts (file-facts.ts). Real files with modification times set to
 * the nanosecond edges where a millisecond count in floating point rounds up.
 */
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	CHECKPOINT_KEY_SQL,
	type CheckpointFacts,
	type FileFacts,
	factsKey,
	matchesCheckpoint,
	statRegularFile,
} from "../../src/ingest/file-facts.js";
import { createGeneration } from "../../src/store/generations.js";
import { tempDir } from "../helpers/temp-store.js";

let dir: string;
beforeEach(async () => {
	dir = await tempDir();
	mkdirSync(dir, { recursive: true });
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** The facts a checkpoint stores: those of a bigint stat. */
function bigintFacts(path: string) {
	const st = statSync(path, { bigint: true });
	return { dev: String(st.dev), ino: String(st.ino), size: Number(st.size), mtimeMs: Math.trunc(Number(st.mtimeMs)) };
}

describe("a file's facts", () => {
	it("regression: are the bigint stat's, also when the mtime's milliseconds round up in floating point", () => {
		const path = join(dir, "s.jsonl");
		writeFileSync(path, "{}\n");
		let roundedUp = 0;
		// Just below a whole millisecond (…999,9xx ns), exactly on one, and ordinary fractions. `touch -d` sets the
		// nanoseconds (Node's utimes keeps microseconds only).
		for (const ns of ["123999950", "123999990", "123999999", "123000000", "123000001", "500000000", "999999999"]) {
			for (const sec of [1_700_000_000, 1_765_000_123]) {
				const touched = spawnSync("touch", ["-d", `@${sec}.${ns}`, path]);
				expect(touched.status, String(touched.stderr)).toBe(0);
				const number = statSync(path).mtimeMs;
				if (number !== Math.trunc(Number(statSync(path, { bigint: true }).mtimeMs))) roundedUp++;
				expect(statRegularFile(path), `mtime ${sec}.${ns}`).toEqual(bigintFacts(path));
			}
		}
		// The edge was reached: some number stat said the next millisecond.
		expect(roundedUp).toBeGreaterThan(0);
	});

	it("follow a symbolic link only when asked", () => {
		const target = join(dir, "t.jsonl");
		writeFileSync(target, "{}\n");
		symlinkSync(target, join(dir, "l.jsonl"));
		expect(lstatSync(join(dir, "l.jsonl")).isSymbolicLink()).toBe(true);
		expect(statRegularFile(join(dir, "l.jsonl"))).toEqual(bigintFacts(target));
		expect(statRegularFile(join(dir, "l.jsonl"), false)).toBeUndefined();
		expect(statRegularFile(join(dir, "gone.jsonl"))).toBeUndefined();
	});
});

describe("a checkpoint's key", () => {
	it("equals the file's key exactly when the unchanged rule holds (matchesCheckpoint)", async () => {
		const db = (await createGeneration(dir)).db;
		try {
			const file: FileFacts = { dev: "2049", ino: "18446744073709551615", size: 12_345, mtimeMs: 1_765_000_123_456 };
			const rows: CheckpointFacts[] = [
				{ ...file, syncedAt: 1 },
				{ ...file, syncedAt: null },
				{ ...file, syncedAt: 1, lastError: "EIO" },
				{ ...file, syncedAt: 1, dev: "2050" },
				{ ...file, syncedAt: 1, ino: "18446744073709551614" },
				{ ...file, syncedAt: 1, size: 12_346 },
				{ ...file, syncedAt: 1, mtimeMs: 1_765_000_123_457 },
				{ ...file, syncedAt: 1, size: 0, mtimeMs: -1 },
			];
			const put = db.prepare(
				"INSERT INTO sources (path, dev, ino, size, mtime_ms, synced_at, last_error) VALUES (?, ?, ?, ?, ?, ?, ?)",
			);
			for (const [i, r] of rows.entries())
				put.run(`/s/${i}.jsonl`, r.dev, r.ino, r.size, r.mtimeMs, r.syncedAt, r.lastError ?? null);
			const keys = db.prepare(`SELECT ${CHECKPOINT_KEY_SQL} AS key FROM sources ORDER BY id`).all() as {
				key: string;
			}[];
			for (const [i, row] of rows.entries()) {
				expect(keys[i].key === factsKey(file), JSON.stringify(row)).toBe(matchesCheckpoint(row, file));
				expect(keys[i].key === factsKey(row), JSON.stringify(row)).toBe(row.syncedAt !== null && !row.lastError);
			}
		} finally {
			db.close();
		}
	});
});
