/**
 * Extra roots (the configuration's `roots`, the CLI's `--root`) are archives and may nest: they are scanned at every
 * depth down to MAX_ROOT_DEPTH, never through a symbolic link. Real files; the CLI as a real child process.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSearchResult } from "../../src/contract.js";
import { discoverFiles, MAX_ROOT_DEPTH } from "../../src/ingest/discover.js";
import { cli, hermeticEnv, json } from "../cli/cli-harness.js";
import { lineFactory } from "../helpers/session-lines.js";

let base: string;
let archive: string;

/** A one-turn session of cwd /archive/proj saying `word`, written at `path`. */
function session(path: string, word: string): string {
	const f = lineFactory({ cwd: "/archive/proj", prefix: "a" });
	mkdirSync(join(path, ".."), { recursive: true });
	writeFileSync(path, f.header() + f.user(`where is the ${word}`));
	return path;
}

beforeAll(() => {
	base = mkdtempSync(join(tmpdir(), "pei-nested-roots-"));
	archive = join(base, "archive");
	session(join(archive, "2025", "--ws--", "old.jsonl"), "zebrafish");
	session(join(archive, "flat.jsonl"), "zebracorn");
});
afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

describe("extra roots", () => {
	it("regression: a session two folders below a configured root is indexed, and coverage counts it", async () => {
		const agentDir = join(base, "agent");
		mkdirSync(join(agentDir, "sessions"), { recursive: true });
		writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ roots: [archive] }));
		mkdirSync(join(base, "home"), { recursive: true });
		const env = hermeticEnv(join(base, "home"));
		const g = ["--agent-dir", agentDir, "--all", "--json"];
		const reindex = await cli(["reindex", ...g], { env });
		expect(reindex.code, reindex.stderr).toBe(0);
		const found = json<EventSearchResult>(await cli(["search", "zebrafish", "--no-sync", ...g], { env }));
		expect(found.hits.map((h) => h.snippet)).toEqual(["where is the zebrafish"]);
		expect(found.coverage).toMatchObject({ known: 2, indexed: 2, partial: false });
	});

	it("scans every depth down to MAX_ROOT_DEPTH, never deeper and never through a symbolic link", () => {
		const deep = join(base, "deep");
		let dir = deep;
		for (let depth = 0; depth <= MAX_ROOT_DEPTH + 1; depth++) {
			session(join(dir, "s.jsonl"), `level${depth}`);
			dir = join(dir, `d${depth}`);
		}
		// A link back to the root would loop; a link to another archive would index it twice under two paths.
		symlinkSync(deep, join(deep, "d0", "loop"));
		symlinkSync(archive, join(deep, "elsewhere"));
		const found = discoverFiles([{ path: deep, subfolders: true }]).map((f) => f.path);
		expect(found).toHaveLength(MAX_ROOT_DEPTH + 1);
		expect(found).toContain(join(deep, ...Array.from({ length: MAX_ROOT_DEPTH }, (_, i) => `d${i}`), "s.jsonl"));
		expect(found.some((p) => p.includes("loop") || p.includes("elsewhere"))).toBe(false);
		// A flat root stays flat (Pi's own session folders).
		expect(discoverFiles([{ path: deep, subfolders: false }]).map((f) => f.path)).toEqual([join(deep, "s.jsonl")]);
	});
});
