/**
 * WAL checkpoints off the hot path. SQLite runs a checkpoint inside the commit that takes the WAL past the
 * connection's `wal_autocheckpoint`. While another process runs a bulk pass the WAL holds up to 64 MiB (bulk
 * connections checkpoint that rarely, for speed), so a tool call's one-line commit used to copy all of it into the
 * database: hundreds of ms to seconds (the max of benchmark figure 8). The hot-path connection therefore never
 * checkpoints in a commit; after a sync it schedules a PASSIVE checkpoint for when the WAL has been quiet for a while
 * (a bulk writer that is active checkpoints on its own). journal_size_limit then keeps the file small.
 */
import { statSync } from "node:fs";
import { storeFiles } from "../store/db.js";
import type { SqliteDb } from "../store/driver.js";

/** Pragmas for the hot-path connection: no checkpoint inside its commits. */
const HOT_PATH_PRAGMAS = ["wal_autocheckpoint = 0"];

/** A WAL smaller than this is left alone (SQLite's own default threshold, 1000 pages of 4 KiB). */
const MIN_WAL_BYTES = 4 << 20;
/** The WAL must have been untouched this long: nobody else is writing in bulk. */
const QUIET_MS = 1_000;

/** Checkpoints each file of one connection's store once its WAL is large and quiet. */
export class DeferredCheckpoint {
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly db: SqliteDb) {
		for (const p of HOT_PATH_PRAGMAS) db.pragma(p);
	}

	/** Called after a write: checks again in QUIET_MS (never blocks the caller, never keeps the process alive). */
	schedule(): void {
		if (this.timer !== undefined) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.run();
		}, QUIET_MS);
		this.timer.unref();
	}

	/** Stops a scheduled check (the connection is closing). */
	cancel(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}

	private run(): void {
		if (!this.db.isOpen) return;
		for (const file of storeFiles(this.db.path)) {
			const wal = statSync(`${file.path}-wal`, { throwIfNoEntry: false });
			if (wal === undefined || wal.size < MIN_WAL_BYTES) continue;
			if (Date.now() - wal.mtimeMs < QUIET_MS) {
				this.schedule();
				continue;
			}
			try {
				this.db.pragma(`${file.schema}.wal_checkpoint(PASSIVE)`);
			} catch {
				// Busy or closing: the next write schedules another try.
			}
		}
	}
}
