/** Worker-thread side of background catch-up: runs one job and reports progress to the parent. */
import { parentPort, workerData } from "node:worker_threads";
import { type CatchUpJob, runCatchUpJob } from "./catch-up-job.js";

/** Messages the worker sends to its parent. */
export type WorkerMessage =
	/** Every module of the worker loaded (sent first). */
	| { type: "ready" }
	| { type: "progress"; progress: import("./catch-up.js").CatchUpProgress }
	| { type: "outcome"; outcome: import("./catch-up-job.js").CatchUpOutcome };

// Reached only once every import resolved: a parent that sees an error before this can run the job itself.
parentPort?.postMessage({ type: "ready" } satisfies WorkerMessage);

let stopping = false;
parentPort?.on("message", (m: { type: string }) => {
	if (m.type === "stop") stopping = true;
});

const outcome = await runCatchUpJob(workerData as CatchUpJob, {
	shouldStop: () => stopping,
	onProgress: (progress) => parentPort?.postMessage({ type: "progress", progress } satisfies WorkerMessage),
});
parentPort?.postMessage({ type: "outcome", outcome } satisfies WorkerMessage);
parentPort?.close();
