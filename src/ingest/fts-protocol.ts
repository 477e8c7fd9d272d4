/**
 * What the writing thread of a two-thread pass (fts-thread.ts) and its full-text thread (fts-worker.ts) share: the
 * messages, in the writer's order, and the slots of the shared control array. The writer is inside a write
 * transaction, where the event loop does not run, so it waits on the control array, never on a message.
 */

/**
 * Full-text row writes, flattened: `[op, id, start, length, tags]` per row (op 0 insert, 1 delete). An insert's body
 * is bytes [start, start + length) of its message's `text` (UTF-8, which FTS5 tokenizes as it does the string); a
 * delete has no body and empty tags.
 */
export type FtsOps = Array<number | string>;

/** Slots of FtsOps per row. */
export const FTS_OP_SLOTS = 5;

/** Messages to the full-text thread. */
export type FtsMessage =
	/** The writer began a write transaction of the store file: begin one of the full-text file. */
	| { kind: "begin" }
	/**
	 * Rows to write, their bodies' UTF-8 bytes (transferred, not copied), and the text they carry as the writer
	 * counted it in `CONTROL.queued`.
	 */
	| { kind: "ops"; ops: FtsOps; text: Uint8Array; bytes: number }
	/** Count the transaction in the ledger when it touched `sources`, and commit it. */
	| { kind: "commit"; sources: number[] }
	/** Roll the transaction back. */
	| { kind: "rollback" }
	/** Close the connection; the thread ends. */
	| { kind: "close" };

/** What the full-text thread is given. */
export interface FtsThreadData {
	/** Tells the shared worker bootstrap which module to run. */
	entry: "fts-worker";
	/** The full-text file (db.ts ftsFilePath), opened on its own. */
	path: string;
	port: import("node:worker_threads").MessagePort;
	control: Int32Array;
}

/** Slots of the control array (Int32Array over a SharedArrayBuffer). */
export const FTS_CONTROL = {
	/** Text bytes posted and not yet written (the writer sleeps on it while it is over FTS_QUEUE_BYTES). */
	queued: 0,
	/** begin, commit, rollback and close messages done (the writer sleeps on it at commit). */
	acks: 1,
	/** 1 once the thread failed: it writes nothing more, and every later message is acknowledged unanswered. */
	failed: 2,
	/** The full-text file's ledger count when the thread last began a transaction (fts-ledger.ts). */
	seq: 3,
} as const;

export const FTS_CONTROL_SLOTS = 4;

/** What the thread posts to its parent once its connection is open. */
export const FTS_READY = "fts-ready";

/** What the thread posts on its port when it fails: the writer reads it there while it waits. */
export interface FtsReport {
	kind: "error";
	message: string;
	code?: string;
}

/**
 * Text the writer may have posted ahead of the full-text thread (in UTF-16 units, as it counts it): the rows in
 * flight between the threads stay bounded, however far behind the thread falls. Enough for the writer to go on while
 * the thread commits a group (FTS5 writes out its pending terms and merges then); with less, the writer and then the
 * prefetch thread stopped during those commits.
 */
export const FTS_QUEUE_BYTES = 16 << 20;

/** Rows gathered into one `ops` message (or fewer, once they carry FTS_POST_BYTES). */
export const FTS_POST_ROWS = 512;
export const FTS_POST_BYTES = 1 << 20;
