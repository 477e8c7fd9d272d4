// Preloaded with `node --import` by reindex-worker.test.ts, in the main thread and in every worker thread (Node runs
// `--import` in each): appends one JSON line per thread to $THREAD_LOG, naming the thread's job (the index worker's
// `mode`, a helper thread's `entry`), the heap limit V8 gives it and the limits its parent asked for.
import { appendFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { isMainThread, resourceLimits, workerData } from "node:worker_threads";

const job = isMainThread ? "main" : (workerData?.mode ?? workerData?.entry ?? "other");
const heapLimitMiB = getHeapStatistics().heap_size_limit / 2 ** 20;
appendFileSync(
	process.env.THREAD_LOG,
	`${JSON.stringify({ job, heapLimitMiB, youngMb: resourceLimits.maxYoungGenerationSizeMb })}\n`,
);
