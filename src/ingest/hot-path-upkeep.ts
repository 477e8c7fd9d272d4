/**
 * Work a tool call's sync leaves for later, off its critical path, on the hot-path connection:
 *
 * - WAL checkpoints. SQLite runs a checkpoint inside the commit that takes the WAL past the connection's
 *   `wal_autocheckpoint`. While another process runs a bulk pass the WAL holds up to 64 MiB (bulk connections
 *   checkpoint that rarely, for speed), so a tool call's one-line commit used to copy all of it into the database:
 *   hundreds of ms to seconds (the max of benchmark figure 8). The hot-path connection therefore never checkpoints
 *   in a commit; a PASSIVE checkpoint runs once the WAL has been quiet for a while (a bulk writer that is active
 *   checkpoints on its own). journal_size_limit then keeps the file small.
 * - FTS5 merges (fts-merge.ts). Every sync's commit adds a small segment, and no other writer may come for hours:
 *   shortly after a sync a few bounded merge steps run here. They never wait for the lock: a bulk writer holding
 *   it merges on its own.
 */
import { statSync } from "node:fs";
import type { SqliteDb } from "../store/db.js";
import { type MergeOutcome, mergeSteps } from "../store/fts-merge.js";

/** Pragmas for the hot-path connection: no checkpoint inside its commits. */
export const HOT_PATH_PRAGMAS = ["wal_autocheckpoint = 0"];

/** A WAL smaller than this is left alone (SQLite's own default threshold, 1000 pages of 4 KiB). */
const MIN_WAL_BYTES = 4 << 20;
/** The WAL must have been untouched this long: nobody else is writing in bulk. */
const QUIET_MS = 1_000;
/** Merges start this long after a sync (the tool call has answered by then). */
const MERGE_DELAY_MS = 250;
/** Merge steps start on this thread for at most this long at a time (one step is ~3 ms, rarely 45 ms). */
const MERGE_SLICE_MS = 10;

/** Runs `fn` once, `ms` from now, unless already scheduled; never keeps the process alive. */
class Later {
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly fn: () => void) {}

	schedule(ms: number): void {
		if (this.timer !== undefined) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.fn();
		}, ms);
		this.timer.unref();
	}

	cancel(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}
}

/** The deferred upkeep of one hot-path connection. */
export class HotPathUpkeep {
	private readonly checkpoint = new Later(() => this.runCheckpoint());
	private readonly merge = new Later(() => void this.mergeSlice());

	/**
	 * `bulkWriterActive`: a catch-up holds its lock (in any process). It merges on its own, and the segments it
	 * writes are large: merging them here would put a bulk writer's merge work on Pi's thread.
	 */
	constructor(
		private readonly db: SqliteDb,
		private readonly bulkWriterActive: () => Promise<boolean> = async () => false,
	) {
		for (const p of HOT_PATH_PRAGMAS) db.pragma(p);
	}

	/** Called after a sync wrote: schedules both (never blocks the caller). */
	schedule(): void {
		this.checkpoint.schedule(QUIET_MS);
		this.merge.schedule(MERGE_DELAY_MS);
	}

	/** Stops what is scheduled (the connection is closing). */
	cancel(): void {
		this.checkpoint.cancel();
		this.merge.cancel();
	}

	private runCheckpoint(): void {
		if (!this.db.isOpen) return;
		let size: number;
		let mtimeMs: number;
		try {
			({ size, mtimeMs } = statSync(`${this.db.path}-wal`));
		} catch {
			return;
		}
		if (size < MIN_WAL_BYTES) return;
		if (Date.now() - mtimeMs < QUIET_MS) {
			this.checkpoint.schedule(QUIET_MS);
			return;
		}
		try {
			this.db.pragma("wal_checkpoint(PASSIVE)");
		} catch {
			// Busy or closing: the next write schedules another try.
		}
	}

	/**
	 * One slice of merge steps (what the timer runs; public for tests): "skipped" while a bulk writer is active,
	 * else what was merged. More left to merge: the next slice after a pause, so Pi's thread stays free.
	 */
	async mergeSlice(): Promise<MergeOutcome | "skipped"> {
		try {
			if (!this.db.isOpen || (await this.bulkWriterActive())) return "skipped";
			const outcome = await mergeSteps(this.db, { budgetMs: MERGE_SLICE_MS, busyTimeoutMs: 0 });
			if (outcome.steps > 0 && !outcome.done) this.merge.schedule(MERGE_DELAY_MS);
			return outcome;
		} catch {
			return "skipped"; // closing, or damage the next sync meets and recovers from
		}
	}
}
