/**
 * What the prefetch thread (prefetch-worker.ts) and the writing thread (prefetch.ts) share: the messages, in file
 * order, and the slots of the shared control array. The writer takes messages synchronously (it is inside a write
 * transaction, where the event loop does not run) and sleeps on the control array when none is there yet.
 */
import type { FileFacts } from "./file-facts.js";
import type { PreparedChunk, ReadLimits } from "./read-batch.js";
import type { StatePlan } from "./state-plan.js";

/** Messages, in the order of the pass's file list; every file the thread starts ends with `end`. */
export type PrefetchMessage =
	/** The file was opened with these facts; `plan` when it is longer than one batch. */
	| { kind: "file"; index: number; facts: FileFacts; plan?: StatePlan }
	| { kind: "chunk"; index: number; chunk: PreparedChunk }
	/** Nothing more for this file (read to its end, unreadable, or stopped before a long line). */
	| { kind: "end"; index: number };

/** What the prefetch thread is given. */
export interface PrefetchData {
	/** Tells the shared worker bootstrap which module to run. */
	entry: "prefetch-worker";
	files: string[];
	port: import("node:worker_threads").MessagePort;
	control: Int32Array;
	/** How the writer reads (read-batch.ts): the thread parses and plans the same way. */
	read: ReadLimits;
	/** The generation's text dictionary (store/text-dictionary.ts), which the writer's own rows are packed against too. */
	dictionary?: Uint8Array;
	/** The writer's secret redaction switch (text/redact.ts; set by worker-start.ts for every helper thread). */
	redactSecrets?: boolean;
}

/** Slots of the control array (Int32Array over a SharedArrayBuffer). */
export const CONTROL = {
	/** Messages posted so far (the writer sleeps on it). */
	posted: 0,
	/** Input bytes of chunks posted and not yet taken (the prefetch thread sleeps on it). */
	ahead: 1,
	/** 1: stop now. */
	stop: 2,
	/** The file index the writer has reached: the thread skips files before it. */
	writerAt: 3,
	/** 1: the writer reads for itself for now (hot-path writers are active); the thread waits. */
	paused: 4,
	/** 1 while the thread waits because it is paused. */
	idle: 5,
} as const;

export const CONTROL_SLOTS = 6;

/** What the thread posts to its parent (not the writer's port) once its modules are loaded. */
export const PREFETCH_READY = "prefetch-ready";

/**
 * Input bytes the prefetch thread may be ahead of the writer: enough that neither waits for the other at the
 * chunk level, little enough that the prepared rows in flight stay a few MiB.
 */
export const PREFETCH_AHEAD_BYTES = 1 << 20;
