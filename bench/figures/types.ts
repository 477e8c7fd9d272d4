/** Shapes shared by the figure modules and the orchestrator. */
import type { CorpusManifest } from "../corpus/generate.js";

/** One line of the results table: a figure measured against its baseline in the same run. */
export interface FigureRow {
	figure: string;
	measured: string;
	baseline: string;
	/** Human-readable ratio (e.g. "0.82×", "35× faster"), or "—". */
	ratio: string;
	goal: string;
	/** true/false against the goal; null when there is no goal or the figure was skipped. */
	met: boolean | null;
	note?: string;
	/** The machine's 1-minute load average when the figure started and ended (set by bench/run.ts). */
	load?: string;
}

/** What every figure module gets. */
export interface BenchContext {
	quick: boolean;
	/** Scratch directory for indexes and extra files (corpora are cached under it). */
	workDir: string;
	small: CorpusManifest;
	large: CorpusManifest;
	/** Whether the project's ingestion/search modules loaded, and why not. */
	project: { ok: boolean; reason?: string };
	/** Index directories built by the cold-build figure, reused by later figures. */
	indexDirs: { small?: string; large?: string };
	/** Progress line on stderr. */
	log(message: string): void;
}

/** A figure module. */
export interface Figure {
	name: string;
	run(ctx: BenchContext): Promise<FigureRow[]>;
}

/** A row for a figure that cannot run yet. */
export function skippedRow(figure: string, goal: string, reason: string, baseline = "—"): FigureRow {
	return { figure, measured: "skipped", baseline, ratio: "—", goal, met: null, note: reason };
}

/** "1.23×" formatting. */
export function ratioText(r: number, suffix = ""): string {
	if (!Number.isFinite(r)) return "—";
	return `${r >= 100 ? Math.round(r) : r.toFixed(2)}×${suffix}`;
}

/** Label of a corpus scale, e.g. "10 sessions / 2.0 MiB". */
export function scaleLabel(m: CorpusManifest): string {
	const mib = m.totalBytes / 1024 / 1024;
	return `${m.sessions.toLocaleString("en-US")} sessions / ${mib >= 1024 ? `${(mib / 1024).toFixed(2)} GiB` : `${mib.toFixed(1)} MiB`}`;
}
