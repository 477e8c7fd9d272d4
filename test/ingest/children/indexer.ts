/**
 * A real indexer process for concurrency and crash tests.
 *   indexer.ts <indexDir> <sessionsDir> <mode: sync|catch-up|catch-up-2> <stopFile> [batchBytes] [lockStaleMs]
 * Loops until <stopFile> exists (or it is killed). Prints "tick" after every pass so tests can time kills, and
 * "progress" (with "full-text thread" while one writes) during a catch-up; catch-up-2 runs it on two threads, as
 * `reindex` does.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { runCatchUpJob } from "../../../src/ingest/catch-up-job.js";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import { openStore } from "../../../src/store/open-store.js";

const [indexDir, sessionsDir, mode, stopFile, batchArg, staleArg] = process.argv.slice(2);
const batchBytes = Number(batchArg ?? 16384);
const lockStaleMs = staleArg ? Number(staleArg) : undefined;

if (mode === "sync") {
	const opened = await openStore({ dir: indexDir, lockStaleMs });
	if (!opened.ok) throw new Error(opened.error);
	const syncer = new SourceSyncer(opened.store.db, { batchBytes });
	while (!existsSync(stopFile)) {
		for (const name of readdirSync(sessionsDir).sort()) {
			if (!name.endsWith(".jsonl")) continue;
			const r = await syncer.sync(join(sessionsDir, name));
			if (r.status === "failed") console.error(`failed ${name}: ${r.error}`);
		}
		console.log("tick");
	}
	opened.store.close();
} else {
	while (!existsSync(stopFile)) {
		const outcome = await runCatchUpJob(
			{
				indexDir,
				roots: [{ path: sessionsDir, subfolders: false }],
				extraFiles: [],
				workspaceDirs: [],
				sync: { batchBytes },
				lockStaleMs,
				threads: mode === "catch-up-2" ? 2 : 1,
			},
			{
				onProgress: (p) =>
					console.log((p as { fullTextThread?: boolean }).fullTextThread ? "progress full-text thread" : "progress"),
			},
		);
		if (outcome.kind === "failed") console.error(`catch-up failed: ${outcome.error}`);
		console.log("tick");
		await new Promise((r) => setTimeout(r, 20));
	}
}
