/**
 * The writing thread's side of a two-thread pass's full-text thread (fts-worker.ts). While it runs, the writer's
 * connection has the full-text file detached (a BEGIN IMMEDIATE would lock it too) and hands every full-text row to
 * the thread, which writes it in a transaction paired with the writer's: begun with it, committed with it (at most
 * one transaction behind: `seal`), rolled back with it, and counted in both files' ledger (fts-ledger.ts), so a crash
 * leaves at most one transaction to repair. FTS5's work then runs on the second core (docs/store.md, "The full-text
 * file").
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from "node:worker_threads";
import { attachFtsFile, detachFtsFile, ftsFilePath } from "../store/db.js";
import type { SqliteDb } from "../store/driver.js";
import {
	FTS_CONTROL,
	FTS_CONTROL_SLOTS,
	FTS_OP_SLOTS,
	FTS_POST_BYTES,
	FTS_POST_ROWS,
	FTS_QUEUE_BYTES,
	FTS_READY,
	type FtsMessage,
	type FtsOps,
	type FtsReport,
	type FtsThreadData,
} from "./fts-protocol.js";
import type { FtsWrites } from "./source-rows.js";
import { startHelperThread, type WorkerHeap } from "./worker-start.js";

const UTF8 = new TextEncoder();

/** Longest the thread may take to open its connection before the pass writes the full-text file itself. */
const FTS_START_MS = 5_000;

/**
 * Longest the writer waits for the thread without any progress (a thread that died cannot say so to a writer waiting
 * inside its transaction): far above a busy lock's 10 s or the longest merge.
 */
const FTS_STALL_MS = 120_000;

/** The full-text thread's heap limits: it holds the rows in flight (FTS_QUEUE_BYTES). */
const FTS_HEAP: WorkerHeap = { youngMb: 4, oldMb: 64 };

/** The full-text thread failed: the open transaction cannot commit. Carries SQLite's code when there is one. */
export class FtsThreadError extends Error {
	constructor(
		message: string,
		readonly code?: string,
	) {
		super(message);
	}
}

/** A running full-text thread, seen from the writer as where its full-text rows go. */
export class FtsThread implements FtsWrites {
	readonly direct = false;
	private ops: FtsOps = [];
	private opsBytes = 0;
	/** The bodies of `ops`, UTF-8 (bound as such, they need no conversion in the thread and no clone between). */
	private text = new Uint8Array(FTS_POST_BYTES);
	private textAt = 0;
	/** Acknowledgements the writer has asked for so far. */
	private expected = 0;

	private constructor(
		private readonly db: SqliteDb,
		private readonly port: MessagePort,
		private readonly control: Int32Array,
		private readonly worker: Worker,
	) {
		worker.unref();
	}

	/**
	 * Starts the thread on `db`'s full-text file and detaches that file from `db`; undefined when the thread cannot
	 * start (the pass then writes the full-text file itself, as with one thread).
	 */
	static async start(db: SqliteDb): Promise<FtsThread | undefined> {
		const { port1, port2 } = new MessageChannel();
		const control = new Int32Array(new SharedArrayBuffer(FTS_CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
		const data: FtsThreadData = { entry: "fts-worker", path: ftsFilePath(db.path), port: port2, control };
		const worker = await startHelperThread(data, FTS_HEAP, FTS_READY, FTS_START_MS);
		if (!worker) {
			port1.close();
			return undefined;
		}
		detachFtsFile(db);
		return new FtsThread(db, port1, control, worker);
	}

	begin(): void {
		this.post({ kind: "begin" });
		this.expected++;
	}

	insert(id: number, body: string, tags: string): void {
		// A UTF-16 unit is at most 3 bytes of UTF-8.
		const room = this.textAt + body.length * 3;
		if (room > this.text.length) {
			const grown = new Uint8Array(Math.max(room, this.text.length * 2));
			grown.set(this.text.subarray(0, this.textAt));
			this.text = grown;
		}
		const { written } = UTF8.encodeInto(body, this.text.subarray(this.textAt));
		this.ops.push(0, id, this.textAt, written, tags);
		this.textAt += written;
		this.opsBytes += body.length + tags.length;
		if (this.ops.length >= FTS_POST_ROWS * FTS_OP_SLOTS || this.opsBytes >= FTS_POST_BYTES) this.flush();
	}

	delete(id: number): void {
		this.ops.push(1, id, 0, 0, "");
		if (this.ops.length >= FTS_POST_ROWS * FTS_OP_SLOTS) this.flush();
	}

	/**
	 * Asks the thread to commit, without waiting for it: the writer commits the store file and goes on with its next
	 * transaction while the thread finishes this one. It waits here instead for the thread's previous commit, so the
	 * full-text file is never more than one transaction behind the store file, which the ledger repairs after a crash.
	 */
	seal(sources: number[], storeSeq: () => number): void {
		this.flush();
		this.waitForAcks();
		// The thread began this transaction after everything before it, in both files, had committed: the two counts
		// agree unless another process's transaction reached one file only (a crash). Repairing needs both files on one
		// connection, so the pass stops here (nothing of this transaction is kept) and the next one repairs first.
		if (Atomics.load(this.control, FTS_CONTROL.seq) !== storeSeq()) {
			throw new FtsThreadError("the store's two files are a transaction apart (a crash): the next pass repairs them");
		}
		this.post({ kind: "commit", sources });
		this.expected++;
	}

	abandon(): void {
		this.ops = [];
		this.opsBytes = 0;
		this.textAt = 0;
		this.post({ kind: "rollback" });
		this.expected++;
		this.waitForAcks();
	}

	/** Ends the thread (rolling back anything open) and attaches the full-text file to `db` again. */
	async close(): Promise<void> {
		try {
			this.post({ kind: "close" });
			this.expected++;
			this.waitForAcks();
		} catch {
			// A failed thread has rolled back already; its error reached the writer at the commit it failed.
		}
		this.port.close();
		await this.worker.terminate();
		attachFtsFile(this.db);
	}

	private flush(): void {
		if (this.ops.length === 0) return;
		const bytes = this.opsBytes;
		// Never more than FTS_QUEUE_BYTES in flight: the writer waits for the thread to write what it was given.
		this.waitUntil(FTS_CONTROL.queued, (queued) => queued === 0 || queued + bytes <= FTS_QUEUE_BYTES);
		Atomics.add(this.control, FTS_CONTROL.queued, bytes);
		const text = this.text.slice(0, this.textAt);
		const m: FtsMessage = { kind: "ops", ops: this.ops, text, bytes };
		this.port.postMessage(m, [text.buffer]);
		this.ops = [];
		this.opsBytes = 0;
		this.textAt = 0;
	}

	private post(m: FtsMessage): void {
		this.port.postMessage(m);
	}

	/** Waits until the thread has done every begin, commit and rollback asked for; throws when it failed. */
	private waitForAcks(): void {
		this.waitUntil(FTS_CONTROL.acks, (acks) => acks >= this.expected);
		this.throwIfFailed();
	}

	/** Sleeps on a control slot until `done(value)`; throws when the thread failed or stopped moving it. */
	private waitUntil(slot: number, done: (value: number) => boolean): void {
		let value = Atomics.load(this.control, slot);
		let movedAt = Date.now();
		while (!done(value)) {
			this.throwIfFailed();
			Atomics.wait(this.control, slot, value, 250);
			const now = Atomics.load(this.control, slot);
			if (now !== value) movedAt = Date.now();
			else if (Date.now() - movedAt > FTS_STALL_MS) throw new FtsThreadError("the full-text thread stopped answering");
			value = now;
		}
	}

	private throwIfFailed(): void {
		if (Atomics.load(this.control, FTS_CONTROL.failed) !== 1) return;
		let error: FtsReport | undefined;
		for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
			if ((m.message as FtsReport).kind === "error") error = m.message as FtsReport;
		}
		throw new FtsThreadError(error?.message ?? "the full-text thread failed", error?.code);
	}
}
