/**
 * One write transaction spanning the batches of several files during a bulk pass. A catch-up of 10,000 small files
 * used to commit 10,000 times; every commit rewrote the same hot pages (b-tree interior pages, the `sources` rows,
 * FTS5's structure record and a fresh FTS segment) into the WAL, which was most of the build's writes. Every
 * checkpoint is still written in the same transaction as its rows, so a crash loses the open group (those files
 * are synced again), never half a batch.
 *
 * The group is committed after `budgetMs` or as soon as `commitNow()` says a hot-path writer is waiting, so the
 * write lock is never held longer than one budget (plus one batch) and a tool call's own sync gets in between.
 * Batches run without savepoints (see SyncOptions.inTransaction); when one fails, the whole group is rolled back
 * and its files are synced again with a transaction per batch, where a failure is recorded on its own source.
 */
import type { SqliteDb } from "../store/driver.js";

/** What runs with each group transaction: first thing after it opens, last thing before it commits, after a rollback. */
export interface GroupHooks {
	begun(): void;
	committing(): void;
	rolledBack(): void;
}

/** Groups bulk batches into transactions of about `budgetMs`. */
export class GroupCommit {
	private openedAt = -1;
	/** Files with batches in the open group (synced again on their own if it is rolled back). */
	private readonly members: string[] = [];

	constructor(
		private readonly db: SqliteDb,
		private readonly budgetMs: number,
		private readonly commitNow: () => boolean = () => false,
		private readonly hooks: GroupHooks = { begun() {}, committing() {}, rolledBack() {} },
	) {}

	/** Opens the group transaction unless one is open (waits for the write lock on the busy timeout). */
	enter(): void {
		if (this.openedAt >= 0) return;
		this.db.exec("BEGIN IMMEDIATE");
		this.openedAt = performance.now();
		try {
			this.hooks.begun();
		} catch (err) {
			this.rollback();
			throw err;
		}
	}

	/** True when the open group ran its budget or a writer is waiting: commit before yielding. */
	due(): boolean {
		return this.openedAt >= 0 && (performance.now() - this.openedAt >= this.budgetMs || this.commitNow());
	}

	/** Opens the group if needed and records that `path` writes in it. */
	join(path: string): void {
		this.enter();
		this.members.push(path);
	}

	/** Commits the open group, if any. */
	commit(): void {
		if (this.openedAt < 0) return;
		try {
			this.hooks.committing();
		} catch (err) {
			this.rollback();
			throw err;
		}
		this.openedAt = -1;
		this.members.length = 0;
		this.db.exec("COMMIT");
	}

	/** Rolls the open group back; returns the files that had batches in it. */
	rollback(): string[] {
		this.openedAt = -1;
		try {
			this.db.exec("ROLLBACK");
		} catch {
			// SQLite already rolled back (some errors end the transaction themselves).
		}
		this.hooks.rolledBack();
		return this.members.splice(0);
	}
}
