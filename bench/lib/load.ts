/** The machine's load beside each figure: on a shared machine a time means little without it. */
import { loadavg } from "node:os";
import type { FigureRow } from "../figures/types.js";

/**
 * A figure's rows, each with the machine's 1-minute load average as the figure started and ended (`load`, unless
 * the row set its own). `readLoad` is for tests.
 */
export async function withLoad(
	run: () => Promise<FigureRow[]>,
	readLoad: () => number = () => loadavg()[0],
): Promise<FigureRow[]> {
	const before = readLoad();
	const rows = await run();
	const load = `${before.toFixed(1)} → ${readLoad().toFixed(1)}`;
	return rows.map((r) => ({ ...r, load: r.load ?? load }));
}
