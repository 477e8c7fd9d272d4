/**
 * The full-text thread of a two-thread pass: writes the rows the writing thread hands over (fts-thread.ts) into the
 * store's full-text file through a connection of its own, one transaction for each of the writer's, so FTS5's
 * tokenizing, flushes and merges run on the second core (docs/store.md, "The full-text file").
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase, sqliteErrorCode } from "../store/db.js";
import { readLedger, sealLedger } from "../store/fts-ledger.js";
import { BULK_FILE_PRAGMAS, BULK_WRITE_PRAGMAS } from "./catch-up-job.js";
import {
	FTS_CONTROL,
	FTS_OP_SLOTS,
	FTS_READY,
	type FtsMessage,
	type FtsReport,
	type FtsThreadData,
} from "./fts-protocol.js";
import { FTS_DELETE_SQL, FTS_INSERT_SQL } from "./source-rows.js";

const { path, port, control } = workerData as FtsThreadData;

/** Failures go back on the port: the writer reads them synchronously (receiveMessageOnPort) while it waits. */
function reportError(err: unknown): void {
	const r: FtsReport = {
		kind: "error",
		message: err instanceof Error ? err.message : String(err),
		code: sqliteErrorCode(err),
	};
	port.postMessage(r);
}

/** What the writer waits for once a message is done: the queue shrinks by an `ops`, any other is acknowledged. */
function settle(m: FtsMessage): void {
	if (m.kind === "ops") {
		Atomics.sub(control, FTS_CONTROL.queued, m.bytes);
		Atomics.notify(control, FTS_CONTROL.queued);
	} else {
		Atomics.add(control, FTS_CONTROL.acks, 1);
		Atomics.notify(control, FTS_CONTROL.acks);
	}
}

let db: Awaited<ReturnType<typeof openDatabase>>;
try {
	// The full-text file alone, as its own `main`: BEGIN IMMEDIATE then locks it and nothing else.
	db = await openDatabase(path, { fileMustExist: true, fts: false });
	// The writer set the pass's FTS5 write settings in this file; these are per connection.
	for (const p of [...BULK_WRITE_PRAGMAS, ...BULK_FILE_PRAGMAS]) db.pragma(p);
} catch (err) {
	reportError(err);
	port.close();
	throw err;
}
const insert = db.prepare(FTS_INSERT_SQL);
const remove = db.prepare(FTS_DELETE_SQL);
let open = false;

/** Does one message. */
function handle(m: FtsMessage): void {
	switch (m.kind) {
		case "begin":
			db.exec("BEGIN IMMEDIATE");
			open = true;
			// The writer checks it against the store file's count before it commits (FtsThread.seal).
			Atomics.store(control, FTS_CONTROL.seq, readLedger(db, "fts", "main").seq);
			break;
		case "ops": {
			const { ops, text } = m;
			for (let i = 0; i < ops.length; i += FTS_OP_SLOTS) {
				const start = ops[i + 2] as number;
				if (ops[i] === 0) insert.run(ops[i + 1], text.subarray(start, start + (ops[i + 3] as number)), ops[i + 4]);
				else remove.run(ops[i + 1]);
			}
			break;
		}
		case "commit":
			if (m.sources.length > 0) sealLedger(db, "fts", m.sources, "main");
			db.exec("COMMIT");
			open = false;
			break;
		case "rollback":
			rollback();
			break;
		case "close":
			rollback();
			db.close();
			port.close();
			break;
	}
}

function rollback(): void {
	if (!open) return;
	open = false;
	try {
		db.exec("ROLLBACK");
	} catch {
		// SQLite already rolled back (some errors end the transaction themselves).
	}
}

port.on("message", (m: FtsMessage) => {
	if (Atomics.load(control, FTS_CONTROL.failed) === 1) {
		// Nothing more is written; the writer still counts on every message being settled.
		if (m.kind === "close") port.close();
		return settle(m);
	}
	try {
		handle(m);
	} catch (err) {
		rollback();
		reportError(err);
		Atomics.store(control, FTS_CONTROL.failed, 1);
		// Wherever the writer sleeps, it wakes and finds the thread failed.
		Atomics.notify(control, FTS_CONTROL.acks);
		Atomics.notify(control, FTS_CONTROL.queued);
	}
	settle(m);
});
parentPort?.postMessage(FTS_READY);
