/**
 * The writing thread's side of a bulk pass's prefetch: starts the prefetch thread (prefetch-worker.ts) over the
 * pass's new files and hands its prepared chunks to `readBatch` (read-batch.ts) in order. Parsing, projecting, line
 * hashes, tree-state plans, packed texts and FTS bodies then run beside the writer instead of before each insert.
 *
 * Nothing here can change what is indexed: a chunk is used only for the file it was read from, with the same
 * identity, size and modification time the writer sees, and only at the offset the writer's parse state is at.
 * Anything else (a file that changed, a thread that failed to load, stalled or stopped) leaves the writer reading the
 * file itself, as without prefetch.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from "node:worker_threads";
import { type FileFacts, sameFacts } from "./file-facts.js";
import {
	CONTROL,
	CONTROL_SLOTS,
	PREFETCH_READY,
	type PrefetchData,
	type PrefetchMessage,
} from "./prefetch-protocol.js";
import type { PreparedChunk, PreparedChunks } from "./read-batch.js";
import type { StatePlan } from "./state-plan.js";
import { startHelperThread, type WorkerHeap } from "./worker-start.js";

/**
 * Longest the thread may take to load, and the writer to wait for its next message, before the writer reads for
 * itself for the rest of the pass.
 */
const PREFETCH_STALL_MS = 5_000;

/**
 * The prefetch thread's heap limits: it holds a few MiB of prepared rows and lines shorter than HUGE_LINE_BYTES. A
 * young generation of 4 MiB instead of 2 saves CPU (fewer scavenges of rows still being prepared) for a few MiB of
 * peak RSS.
 */
const PREFETCH_HEAP: WorkerHeap = { youngMb: 4, oldMb: 64 };

/** What the prefetch thread did for the writer. */
export interface PrefetchStats {
	/** Chunks the writer took ready-made. */
	chunks: number;
	/** Their input bytes. */
	bytes: number;
}

interface CurrentFile {
	index: number;
	facts: FileFacts;
	plan?: StatePlan;
}

/** Prepared chunks of the new files of one pass, taken in file order by the writing thread. */
export class Prefetch implements PreparedChunks {
	readonly stats: PrefetchStats = { chunks: 0, bytes: 0 };
	private readonly order: Map<string, number>;
	private head: PrefetchMessage | undefined;
	/** The last message taken: once a file's `end` was taken, the thread has nothing more for it. */
	private last: { index: number; kind: PrefetchMessage["kind"] } = { index: -1, kind: "end" };
	private current: CurrentFile | undefined;
	private off = false;

	private constructor(
		files: readonly string[],
		private readonly port: MessagePort,
		private readonly control: Int32Array,
		private readonly worker: Worker,
	) {
		this.order = new Map(files.map((f, i) => [f, i]));
		worker.on("error", () => {
			this.off = true;
		});
		worker.unref();
	}

	/**
	 * Starts the thread over `files` (the pass's new files, in the order the writer will sync them), packing texts
	 * against the generation's `dictionary`, and waits for it to load; undefined when it cannot start or load within PREFETCH_STALL_MS (the writer then reads for itself).
	 */
	static async start(
		files: readonly string[],
		read: PrefetchData["read"],
		dictionary?: Uint8Array,
	): Promise<Prefetch | undefined> {
		const { port1, port2 } = new MessageChannel();
		const control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
		const data: PrefetchData = { entry: "prefetch-worker", files: [...files], port: port2, control, read, dictionary };
		const worker = await startHelperThread(data, PREFETCH_HEAP, PREFETCH_READY, PREFETCH_STALL_MS);
		if (!worker) {
			port1.close();
			return undefined;
		}
		return new Prefetch(files, port1, control, worker);
	}

	/**
	 * The tree-state plan the thread made for the file at `path`, waiting for the thread to reach it; `{}` when it
	 * made none (the file is one batch, or has a long line), undefined when it has nothing for this file.
	 */
	plan(path: string): { plan?: StatePlan } | undefined {
		const file = this.enter(path);
		return file && { plan: file.plan };
	}

	take(path: string, file: FileFacts, offset: number): PreparedChunk | undefined {
		const current = this.enter(path);
		if (!current || !sameFacts(current.facts, file)) return undefined;
		const m = this.seek(current.index);
		if (m?.kind !== "chunk" || m.chunk.start !== offset) return undefined;
		this.drop();
		this.stats.chunks++;
		this.stats.bytes += m.chunk.bytesRead;
		return m.chunk;
	}

	/**
	 * Pauses the thread while the writer reads for itself (a contended file: its chunks would be dropped) or resumes
	 * it. A paused thread finishes the chunk it is on.
	 */
	pause(paused: boolean): void {
		Atomics.store(this.control, CONTROL.paused, paused ? 1 : 0);
		Atomics.notify(this.control, CONTROL.paused);
	}

	/** True while the thread waits because it is paused. */
	get idle(): boolean {
		return Atomics.load(this.control, CONTROL.idle) === 1;
	}

	/** Stops the thread; the writer reads for itself from here on. */
	async close(): Promise<void> {
		this.off = true;
		Atomics.store(this.control, CONTROL.stop, 1);
		Atomics.notify(this.control, CONTROL.ahead);
		Atomics.notify(this.control, CONTROL.paused);
		this.port.close();
		await this.worker.terminate();
	}

	/** The file at `path` as the thread opened it, once the writer has reached it (the thread skips what it passed). */
	private enter(path: string): CurrentFile | undefined {
		const index = this.order.get(path);
		if (index === undefined || this.off) return undefined;
		if (this.current?.index === index) return this.current;
		Atomics.store(this.control, CONTROL.writerAt, index);
		const m = this.seek(index);
		if (m?.kind !== "file") return undefined;
		this.drop();
		this.current = { index, facts: m.facts, plan: m.plan };
		return this.current;
	}

	/** The next message for file `index` (left in place), dropping those of earlier files; undefined when none will come. */
	private seek(index: number): PrefetchMessage | undefined {
		for (;;) {
			const m = this.peek(index);
			if (!m || m.index > index) return undefined;
			if (m.index === index) return m;
			this.drop();
		}
	}

	/** The next message, waiting for it while the thread may still send one for file `index`. */
	private peek(index: number): PrefetchMessage | undefined {
		if (this.head) return this.head;
		const waitedFrom = Date.now();
		for (;;) {
			const seen = Atomics.load(this.control, CONTROL.posted);
			const received = receiveMessageOnPort(this.port);
			if (received) {
				this.head = received.message as PrefetchMessage;
				return this.head;
			}
			// Past this file already, or paused by the writer: read here rather than wait.
			if (this.off || Atomics.load(this.control, CONTROL.paused) === 1) return undefined;
			if (this.last.index > index || (this.last.index === index && this.last.kind === "end")) return undefined;
			if (Date.now() - waitedFrom > PREFETCH_STALL_MS) {
				this.off = true;
				return undefined;
			}
			Atomics.wait(this.control, CONTROL.posted, seen, 100);
		}
	}

	/** Takes the head message; a chunk's bytes make room for the thread. */
	private drop(): void {
		const m = this.head;
		if (!m) return;
		this.head = undefined;
		this.last = { index: m.index, kind: m.kind };
		if (m.kind === "chunk") {
			Atomics.sub(this.control, CONTROL.ahead, m.chunk.bytesRead);
			Atomics.notify(this.control, CONTROL.ahead);
		}
	}
}
