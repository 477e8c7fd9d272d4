/**
 * Two versions of pi-event-index with different index formats on one agent dir: each keeps its own pointer and
 * generation (the format is in both names), so neither rebuilds, moves or deletes the other's index, however often
 * they alternate; and each catches up its own while the other runs (no lock shared across formats), tested against
 * a build of the last commit of the previous format.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IndexManager } from "../../src/ingest/index-manager.js";
import { generationFileName, INDEX_FORMAT, pointerFileName } from "../../src/store/format.js";
import { lockHolderInfo } from "../../src/store/lock-holder.js";
import { openStore } from "../../src/store/open-store.js";
import { cli, hermeticEnv, json } from "../cli/cli-harness.js";
import { collectOutput } from "../helpers/children.js";
import { PREVIOUS_CATCH_UP_LOCK, PREVIOUS_FORMAT, previousFormatPackage } from "../helpers/previous-format.js";
import { tempDir } from "../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/pi-0.73.1");

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

/** Files another version (format `f`) would have written: its pointer and its generation. */
function plantOtherVersion(f: number): string[] {
	const file = generationFileName(`other${f}`, f);
	writeFileSync(join(dir, file), `an index of format ${f}: opaque to this version`);
	writeFileSync(join(dir, pointerFileName(f)), `${JSON.stringify({ file, createdAt: "2026-01-01T00:00:00Z" })}\n`);
	return [join(dir, file), join(dir, pointerFileName(f))];
}

describe("index formats side by side", () => {
	it("an older and a newer version's index files are never touched, and ours is never rebuilt", async () => {
		dir = await tempDir();
		const others = [...plantOtherVersion(INDEX_FORMAT - 1), ...plantOtherVersion(INDEX_FORMAT + 1)];
		const before = others.map(sha);
		const generations = new Set<string>();
		for (let round = 0; round < 3; round++) {
			const r = await openStore({ dir });
			if (!r.ok) throw new Error(r.error);
			expect(r.store.fresh).toBe(round === 0 ? "new" : undefined);
			generations.add(r.store.file);
			r.store.close();
			// The other versions "run" in between: their files are exactly as they left them.
			expect(others.map(sha)).toEqual(before);
		}
		expect(generations.size).toBe(1);
		expect([...generations][0]).toMatch(new RegExp(`^index-f${INDEX_FORMAT}-`));
	});
});

/** Polls an asynchronous condition every 20 ms; throws `what` after `ms`. */
async function until(what: string, cond: () => Promise<boolean>, ms: number): Promise<void> {
	const end = Date.now() + ms;
	while (!(await cond())) {
		if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

/**
 * The older version knows only better-sqlite3, built for the Node that installed this checkout (Node 20): its
 * processes cannot start on Node 22, so this check runs in the Node 20 suite and is skipped in `test:node22`.
 */
const olderVersionLoads = Number(process.versions.node.split(".")[0]) < 22;

describe.runIf(olderVersionLoads)(
	"regression: two installed formats each catch up their own index while both run",
	() => {
		it("an older install's catch-up (format 9, running) does not make ours skip: each fills its own generation", async () => {
			const older = previousFormatPackage();
			dir = await tempDir();
			const agentDir = join(dir, "agent");
			const indexDir = join(dir, "index");
			const sessions = join(agentDir, "sessions", "--home-dev-project--");
			mkdirSync(sessions, { recursive: true });
			const files = 1500;
			for (let i = 0; i < files; i++)
				copyFileSync(join(FIXTURES, "rich-tree-compaction.jsonl"), join(sessions, `c-${i}.jsonl`));
			const env = hermeticEnv(join(dir, "home"));
			const dirs = ["--agent-dir", agentDir, "--index-dir", indexDir];
			const manager = await IndexManager.open({
				indexDir,
				roots: [{ path: join(agentDir, "sessions"), subfolders: true }],
				useWorker: false,
			});
			try {
				// The older install catches up (its `reindex`, under the catch-up lock it knows).
				const reindex = spawn(process.execPath, [join(older, "bin", "pi-event-index.js"), "reindex", ...dirs], {
					env,
					stdio: ["ignore", "pipe", "pipe"],
				});
				const olderDone = collectOutput(reindex, { timeoutMs: 300_000 });
				await until(
					"the older install holds its catch-up lock",
					async () => (await lockHolderInfo(indexDir, PREVIOUS_CATCH_UP_LOCK)).holder?.pid === reindex.pid,
					120_000,
				);
				expect(reindex.exitCode, "the older catch-up is still running when ours starts").toBeNull();
				const outcome = await manager.startCatchUp();
				expect(outcome).toMatchObject({ kind: "done", result: { total: files } });
				expect(await manager.coverage()).toMatchObject({ partial: false, indexed: files });
				const done = await olderDone;
				expect(done.exitCode, done.stderr).toBe(0);
			} finally {
				await manager.close();
			}
			// The older install's own generation is complete too, in its own files.
			const status = await cli(["status", "--json", ...dirs], { env });
			expect(existsSync(join(indexDir, pointerFileName(PREVIOUS_FORMAT)))).toBe(true);
			expect(existsSync(join(indexDir, pointerFileName(INDEX_FORMAT)))).toBe(true);
			const olderStatus = await collectOutput(
				spawn(process.execPath, [join(older, "bin", "pi-event-index.js"), "status", "--json", ...dirs], {
					env,
					stdio: ["ignore", "pipe", "pipe"],
				}),
			);
			expect(olderStatus.exitCode, olderStatus.stderr).toBe(0);
			const olderCoverage = (JSON.parse(olderStatus.stdout) as { coverage: unknown }).coverage;
			expect(olderCoverage).toMatchObject({ partial: false, indexed: files });
			expect(json<{ coverage: { partial: boolean } }>(status).coverage.partial).toBe(false);
		}, 600_000);
	},
);
