/** Worker-thread side of background catch-up and rebuilds: runs one job and reports progress to the parent. */
import { parentPort, workerData } from "node:worker_threads";
import { setSecretRedaction } from "../text/redact.js";
import { type CatchUpJob, runPlannedCatchUpJob } from "./catch-up-job.js";
import { rebuildStore } from "./rebuild.js";

/** What the parent asks the worker to do. */
export interface WorkerJob extends CatchUpJob {
	mode: "catch-up" | "rebuild";
	/** The parent's secret redaction switch (text/redact.ts), which this thread's module does not share. */
	redactSecrets?: boolean;
}

/** Messages the worker sends to its parent. */
export type WorkerMessage =
	/** Every module of the worker loaded (sent first). */
	| { type: "ready" }
	| { type: "progress"; progress: import("../contract.js").CatchUpProgress }
	/** The job only reads and holds no lock from `reading: true` until `reading: false` (JobHooks.planning). */
	| { type: "planning"; reading: boolean }
	| {
			type: "outcome";
			outcome: import("./catch-up-job.js").CatchUpOutcome | import("./rebuild.js").RebuildOutcome;
	  };

// Reached only once every import resolved: a parent that sees an error before this can run the job itself.
parentPort?.postMessage({ type: "ready" } satisfies WorkerMessage);

let stopping = false;
parentPort?.on("message", (m: { type: string }) => {
	if (m.type === "stop") stopping = true;
});

const job = workerData as WorkerJob;
setSecretRedaction(job.redactSecrets !== false);
const hooks = {
	shouldStop: () => stopping,
	onProgress: (progress: import("../contract.js").CatchUpProgress) =>
		parentPort?.postMessage({ type: "progress", progress } satisfies WorkerMessage),
	planning: (reading: boolean) => parentPort?.postMessage({ type: "planning", reading } satisfies WorkerMessage),
};
const outcome = job.mode === "rebuild" ? await rebuildStore(job, hooks) : await runPlannedCatchUpJob(job, hooks);
parentPort?.postMessage({ type: "outcome", outcome } satisfies WorkerMessage);
parentPort?.close();
