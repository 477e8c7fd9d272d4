/**
 * Starts one of a bulk pass's helper threads (the prefetch thread, the full-text thread) through the shared worker
 * bootstrap and waits for it to say it is ready. A thread that cannot start, fails while loading or is not ready in
 * time is ended: the pass then does that work on the writing thread, as with one thread.
 */
import { type MessagePort, Worker } from "node:worker_threads";
import { secretRedactionOn } from "../text/redact.js";

/** A helper thread's heap limits (its share of a pass's peak RSS). */
export interface WorkerHeap {
	youngMb: number;
	oldMb: number;
}

/**
 * Runs `worker-bootstrap.mjs` with `data` (its `entry` names the module), transferring `port`; resolves the worker
 * once it posts `ready` to its parent, or undefined (the port closed) when it cannot start or load within `timeoutMs`.
 */
export async function startHelperThread(
	data: { entry: string; port: MessagePort },
	heap: WorkerHeap,
	ready: unknown,
	timeoutMs: number,
): Promise<Worker | undefined> {
	let worker: Worker;
	try {
		worker = new Worker(new URL("./worker-bootstrap.mjs", import.meta.url), {
			workerData: { ...data, redactSecrets: secretRedactionOn() },
			transferList: [data.port],
			resourceLimits: { maxYoungGenerationSizeMb: heap.youngMb, maxOldGenerationSizeMb: heap.oldMb },
		});
	} catch {
		return undefined;
	}
	let timer: NodeJS.Timeout | undefined;
	const loaded = await new Promise<boolean>((resolve) => {
		worker.once("message", (m) => resolve(m === ready));
		worker.once("error", () => resolve(false));
		worker.once("exit", () => resolve(false));
		timer = setTimeout(() => resolve(false), timeoutMs);
	});
	clearTimeout(timer);
	if (loaded) return worker;
	await worker.terminate();
	return undefined;
}
