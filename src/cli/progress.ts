/**
 * Progress of a catch-up or rebuild: a redrawn bar with rate and ETA on a terminal, a quiet line every few seconds
 * otherwise (logs and pipes), nothing at all when asked to be silent. Written to stderr so stdout stays the result.
 */
import type { CatchUpProgress } from "../index-admin.js";
import { formatBytes, formatDuration } from "./format.js";

/** Where progress goes. */
export interface ProgressStream {
	write(text: string): unknown;
}

/** How progress is shown. */
export type ProgressMode = "bar" | "lines" | "silent";

/** Receives progress and status lines; `end()` leaves the terminal clean. */
export interface ProgressReporter {
	update(p: CatchUpProgress): void;
	/** A one-line message (e.g. "waiting for the catch-up lock"); on a bar it replaces the bar until the next update. */
	note(text: string): void;
	end(): void;
}

const BAR_REDRAW_MS = 100;
const LINE_EVERY_MS = 5_000;

/** Rate (files and bytes per second) and ETA of a progress snapshot, or undefined before any file finished. */
function progressRates(p: CatchUpProgress): { filesPerSec: number; bytesPerSec: number; etaMs: number } | undefined {
	if (p.done === 0 || p.elapsedMs <= 0) return undefined;
	const filesPerSec = (p.done / p.elapsedMs) * 1000;
	const bytesPerSec = (p.bytesRead / p.elapsedMs) * 1000;
	const etaMs = (Math.max(0, p.total - p.done) / filesPerSec) * 1000;
	return { filesPerSec, bytesPerSec, etaMs };
}

/** One bar line fitting `columns`, e.g. `indexing [#####-----] 50/100 files 12.0 files/s 3.1 MB/s ETA 4s`. */
export function renderBar(label: string, p: CatchUpProgress, terminalColumns: number): string {
	// Some terminals (or `script`) report 0 columns: assume the classic width.
	const columns = terminalColumns >= 20 ? terminalColumns : 80;
	const ratio = p.total > 0 ? Math.min(1, p.done / p.total) : 1;
	const rates = progressRates(p);
	const tail = [
		`${p.done}/${p.total} files`,
		rates ? `${rates.filesPerSec.toFixed(1)} files/s` : "",
		rates ? `${formatBytes(rates.bytesPerSec)}/s` : "",
		rates ? `ETA ${formatDuration(rates.etaMs)}` : "ETA --",
		p.failed ? `${p.failed} failed` : "",
	]
		.filter(Boolean)
		.join(" ");
	const width = Math.max(10, Math.min(40, columns - label.length - tail.length - 5));
	const filled = Math.round(ratio * width);
	const line = `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${tail}`;
	return line.length > columns - 1 ? line.slice(0, Math.max(0, columns - 1)) : line;
}

/** One quiet progress line, e.g. `indexing: 50/100 files (50%), 3.1 MB/s, ETA 4s`. */
export function renderLine(label: string, p: CatchUpProgress): string {
	const pct = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 100;
	const rates = progressRates(p);
	const parts = [`${label}: ${p.done}/${p.total} files (${pct}%)`];
	if (rates) parts.push(`${formatBytes(rates.bytesPerSec)}/s`, `ETA ${formatDuration(rates.etaMs)}`);
	if (p.failed) parts.push(`${p.failed} failed`);
	return parts.join(", ");
}

/** A reporter for `mode`; `now` and `columns` are injectable for tests. */
export function createProgress(
	stream: ProgressStream,
	mode: ProgressMode,
	label: string,
	opts: { columns?: () => number; now?: () => number } = {},
): ProgressReporter {
	const now = opts.now ?? Date.now;
	const columns = opts.columns ?? (() => 80);
	let last = Number.NEGATIVE_INFINITY;
	let drawn = false;
	let latest: CatchUpProgress | undefined;
	if (mode === "silent") return { update() {}, note() {}, end() {} };
	if (mode === "lines") {
		return {
			update(p) {
				latest = p;
				if (now() - last < LINE_EVERY_MS) return;
				// The first update only starts the clock: short runs print no progress line at all.
				if (last !== Number.NEGATIVE_INFINITY) stream.write(`${renderLine(label, p)}\n`);
				last = now();
			},
			note(text) {
				stream.write(`${text}\n`);
			},
			end() {},
		};
	}
	const draw = (text: string) => {
		stream.write(`\r${text}\x1b[K`);
		drawn = true;
	};
	return {
		update(p) {
			latest = p;
			const t = now();
			if (t - last < BAR_REDRAW_MS && p.done < p.total) return;
			last = t;
			draw(renderBar(label, p, columns()));
		},
		note(text) {
			const width = columns() >= 20 ? columns() : 80;
			draw(text.slice(0, width - 1));
		},
		end() {
			if (latest) draw(renderBar(label, latest, columns()));
			if (drawn) stream.write("\n");
			drawn = false;
		},
	};
}
