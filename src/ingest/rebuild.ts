/**
 * Full rebuild (`reindex --full`): build a new generation from the JSONL files beside the current one, then
 * publish it. Readers keep answering from the old generation until the swap and then switch without a restart.
 */

import { storeErrorText } from "../store/db.js";
import { createGeneration, publishGeneration, removeGenerationFiles } from "../store/generations.js";
import { takeLock, tryLock } from "../store/lock.js";
import { type CatchUpResult, catchUp } from "./catch-up.js";
import { type CatchUpJob, catchUpOptions, type JobHooks, settlePass, tuneForBulkWrites } from "./catch-up-job.js";
import { CATCH_UP_LOCK, REBUILD_LOCK } from "./lock-names.js";

/** Why nothing can be indexed in a directory this process cannot write. */
const READ_ONLY_DIR = "the index directory is read-only (not writable by this user)";

export type RebuildOutcome =
	| { kind: "done"; result: CatchUpResult; generation: string }
	| { kind: "skipped"; reason: "locked" }
	| { kind: "failed"; error: string };

export async function rebuildStore(
	job: CatchUpJob,
	hooks: JobHooks & { lockStaleMs?: number } = {},
): Promise<RebuildOutcome> {
	const stale = hooks.lockStaleMs;
	const attempt = await takeLock(job.indexDir, REBUILD_LOCK, { stale });
	if (!attempt.ok) {
		if (attempt.reason === "busy") return { kind: "skipped", reason: "locked" };
		// A read-only index directory: no new generation can be written there, however long one waits.
		return { kind: "failed", error: attempt.reason === "unwritable" ? READ_ONLY_DIR : attempt.error };
	}
	const rebuildLock = attempt.handle;
	// Waits for a running catch-up: it would otherwise keep writing into the generation being replaced.
	const catchUpLock = await tryLock(job.indexDir, CATCH_UP_LOCK, { wait: true, stale });
	if (!catchUpLock) {
		await rebuildLock.release();
		return { kind: "skipped", reason: "locked" };
	}
	let created: Awaited<ReturnType<typeof createGeneration>> | undefined;
	try {
		created = await createGeneration(job.indexDir);
		tuneForBulkWrites(created.db, job.threads);
		const result = await catchUp(created.db, catchUpOptions(job, hooks, [rebuildLock, catchUpLock]));
		settlePass(created.db);
		created.db.close();
		if (result.stopped) {
			removeGenerationFiles(job.indexDir, created.file);
			return { kind: "failed", error: "rebuild stopped before it finished; the current index is unchanged" };
		}
		const published = await publishGeneration(job.indexDir, created.file);
		if (!published.ok) {
			removeGenerationFiles(job.indexDir, created.file);
			return { kind: "failed", error: published.error };
		}
		return { kind: "done", result, generation: created.generation };
	} catch (err) {
		if (created) {
			created.db.close();
			removeGenerationFiles(job.indexDir, created.file);
		}
		return { kind: "failed", error: storeErrorText(err) };
	} finally {
		await catchUpLock.release();
		await rebuildLock.release();
	}
}
