/** Measurement helpers: timers, percentiles, event-loop stall monitor, peak-RSS sampler. */
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** Milliseconds since an arbitrary origin (monotonic). */
export const now = (): number => performance.now();

/** Percentile (0..1) of a list of numbers by nearest rank; NaN for an empty list. */
export function percentile(values: readonly number[], q: number): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Median shorthand. */
export const median = (values: readonly number[]): number => percentile(values, 0.5);

/** Longest and p99 event-loop delay seen while the monitor ran. */
export interface StallReport {
	maxMs: number;
	p99Ms: number;
	meanMs: number;
}

/** Start `monitorEventLoopDelay` (1 ms resolution); `stop()` returns the stalls seen. */
export function startStallMonitor(): { stop(): StallReport } {
	const h = monitorEventLoopDelay({ resolution: 1 });
	h.enable();
	return {
		stop() {
			h.disable();
			// The histogram is in nanoseconds and includes the 1 ms sampling interval itself.
			return { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, meanMs: h.mean / 1e6 };
		},
	};
}

/** Peak resident set size of this process so far (VmHWM), in bytes; falls back to the current RSS. */
function peakRssBytes(): number {
	try {
		const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync("/proc/self/status", "utf8"));
		if (m) return Number(m[1]) * 1024;
	} catch {
		// Not Linux: fall through.
	}
	return process.memoryUsage().rss;
}

/** Poll `process.memoryUsage().rss` every `intervalMs`; `stop()` returns max(polled peak, VmHWM). */
export function startRssSampler(intervalMs = 25): { stop(): number } {
	let peak = process.memoryUsage().rss;
	const timer = setInterval(() => {
		const rss = process.memoryUsage().rss;
		if (rss > peak) peak = rss;
	}, intervalMs);
	timer.unref();
	return {
		stop() {
			clearInterval(timer);
			return Math.max(peak, peakRssBytes());
		},
	};
}

/** Format milliseconds with a sensible precision. */
export function fmtMs(ms: number): string {
	if (!Number.isFinite(ms)) return "—";
	if (ms < 1) return `${ms.toFixed(3)} ms`;
	if (ms < 100) return `${ms.toFixed(1)} ms`;
	if (ms < 10_000) return `${Math.round(ms)} ms`;
	return `${(ms / 1000).toFixed(1)} s`;
}

/** Format a rate in MiB/s. */
export function fmtRate(bytes: number, ms: number): string {
	return `${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MiB/s`;
}

/** Format bytes as MiB. */
export function fmtMiB(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
