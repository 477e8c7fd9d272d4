/**
 * The prefetch thread of a bulk pass: reads, parses and projects the pass's new files, and derives their fragments'
 * stored texts (packed against the generation's dictionary) and FTS bodies, at most PREFETCH_AHEAD_BYTES ahead of the writing thread (prefetch.ts). A line of
 * HUGE_LINE_BYTES or more ends a file's chunks: the writer reads the rest itself, as it always did, so such a line
 * is never held by two threads at once.
 */
import { closeSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { prepareDictionary } from "../store/lz-dict.js";
import { setSecretRedaction } from "../text/redact.js";
import { chunkReader, HUGE_LINE_BYTES } from "./chunk-reader.js";
import { openRegularFile } from "./file-facts.js";
import {
	CONTROL,
	PREFETCH_AHEAD_BYTES,
	PREFETCH_READY,
	type PrefetchData,
	type PrefetchMessage,
} from "./prefetch-protocol.js";
import { fileChunks, prepareChunk } from "./read-batch.js";
import { planTreeStates } from "./state-plan.js";

const { files, port, control, read, dictionary, redactSecrets } = workerData as PrefetchData;
setSecretRedaction(redactSecrets !== false);
const packing = dictionary === undefined ? undefined : prepareDictionary(dictionary);

const stopped = () => Atomics.load(control, CONTROL.stop) === 1;

function post(message: PrefetchMessage): void {
	port.postMessage(message);
	Atomics.add(control, CONTROL.posted, 1);
	Atomics.notify(control, CONTROL.posted);
}

/** Sleeps while the writer has PREFETCH_AHEAD_BYTES or more still to take, or has paused the thread. */
function waitForRoom(): void {
	for (;;) {
		if (stopped()) return;
		if (Atomics.load(control, CONTROL.paused) === 1) {
			// Whatever it prepared now would be dropped: the writer reads for itself while hot-path writers are active.
			Atomics.store(control, CONTROL.idle, 1);
			Atomics.wait(control, CONTROL.paused, 1, 250);
			Atomics.store(control, CONTROL.idle, 0);
			continue;
		}
		const ahead = Atomics.load(control, CONTROL.ahead);
		if (ahead < PREFETCH_AHEAD_BYTES) return;
		Atomics.wait(control, CONTROL.ahead, ahead, 250);
	}
}

function prepareFile(index: number): void {
	const path = files[index];
	const opened = openRegularFile(path);
	if (!opened) return;
	const { fd, file } = opened;
	try {
		const plan = file.size > read.batchBytes ? planTreeStates(path, read.maxLineBytes) : undefined;
		post({ kind: "file", index, facts: file, plan });
		// Waits for room (and looks for a stop) before every read, the first included.
		const abandoned = () => {
			waitForRoom();
			return stopped() || Atomics.load(control, CONTROL.writerAt) > index;
		};
		if (abandoned()) return;
		for (const { step, start, bytesRead } of fileChunks(
			chunkReader(fd, 0, file.size, read.chunkBytes),
			read.maxLineBytes,
			HUGE_LINE_BYTES,
		)) {
			const chunk = prepareChunk(step, start, bytesRead, packing);
			Atomics.add(control, CONTROL.ahead, chunk.bytesRead);
			post({ kind: "chunk", index, chunk });
			if (abandoned()) return;
		}
	} finally {
		closeSync(fd);
	}
}
parentPort?.postMessage(PREFETCH_READY);
for (let index = 0; index < files.length && !stopped(); index++) {
	if (index < Atomics.load(control, CONTROL.writerAt)) continue;
	try {
		prepareFile(index);
	} catch {
		// The writer reads this file itself and meets (and records) whatever went wrong.
	}
	post({ kind: "end", index });
}
// Past the last file: a writer waiting for anything more wakes and reads for itself.
post({ kind: "end", index: files.length });
port.close();
