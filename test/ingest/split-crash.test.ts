/**
 * Regression for the two-file store (docs/store.md, "The full-text file"): a two-thread catch-up writes the store file
 * and the full-text file from two threads, each committing on its own (the full-text thread up to one group behind).
 * Real indexer processes are killed at random moments of such passes; every store opened after a kill agrees with the
 * files as far as it got, and a last catch-up leaves the index equal to them. (A kill rarely lands between a group's
 * two commits here; test/store/fts-ledger.test.ts makes both kinds of torn group with real code and repairs them.)
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChildGroup, waitFor } from "../helpers/children.js";
import { exactlyOnceDirs, finalCatchUp, indexVsFiles, seededRandom } from "../helpers/exactly-once.js";
import { CURRENT_RUNTIME, startScript } from "../helpers/runtime.js";
import { lineFactory } from "../helpers/session-lines.js";

const CHILDREN = join(import.meta.dirname, "children");
const STALE_MS = 2000;
/** New bytes per round: above PREFETCH_MIN_BYTES (8 MiB), so the pass runs its prefetch and full-text threads. */
const FILES_PER_ROUND = 40;
const LINES_PER_FILE = 220;

let root: string;
let sessions: string;
let indexDir: string;
let stopFile: string;
const children = new ChildGroup();

beforeEach(async () => {
	({ root, sessions, indexDir, stopFile } = await exactlyOnceDirs("pei-split-crash-"));
});
afterEach(() => {
	children.killAll();
	rmSync(root, { recursive: true, force: true });
});

/** Writes a round of new session files (~10 MiB), each line carrying a word of its own. */
function newFiles(round: number): void {
	for (let i = 0; i < FILES_PER_ROUND; i++) {
		const f = lineFactory({ prefix: `r${round}f${i}` });
		let text = f.header();
		for (let n = 0; n < LINES_PER_FILE; n++) {
			text += f.user(`round ${round} file ${i} line ${n} word${round}x${i}x${n} ${"filler text ".repeat(80)}`);
		}
		writeFileSync(join(sessions, `r${round}-${i}.jsonl`), text);
	}
}

describe("a two-thread catch-up killed between its two files' commits", () => {
	it("leaves a store that opens whole after every kill, and a last pass makes it equal to the files", async () => {
		const rand = seededRandom(11);
		let killedMidPass = 0;
		for (let round = 0; round < 5; round++) {
			newFiles(round);
			const indexer = children.watch(
				startScript(CURRENT_RUNTIME, join(CHILDREN, "indexer.ts"), [
					indexDir,
					sessions,
					"catch-up-2",
					stopFile,
					"65536",
					String(STALE_MS),
				]),
				"indexer.ts",
			);
			await waitFor(() => indexer.out.includes("progress full-text thread") || indexer.exitCode !== null, 60_000);
			expect(indexer.out).toContain("progress full-text thread");
			await new Promise((r) => setTimeout(r, Math.floor(rand() * 400)));
			if (!indexer.out.includes("tick")) killedMidPass++;
			indexer.kill("SIGKILL");
			await indexer.exited;

			// Opening the store repairs a group that reached one file only; nothing indexed may disagree with its file.
			const { differences, dupes } = await indexVsFiles(indexDir, sessions, STALE_MS, true);
			expect(dupes).toEqual([]);
			expect(differences).toEqual([]);
		}
		expect(killedMidPass).toBeGreaterThan(0);
		await finalCatchUp(indexDir, sessions, STALE_MS, 2);
		const { differences } = await indexVsFiles(indexDir, sessions, STALE_MS);
		expect(differences).toEqual([]);
	}, 180_000);
});
