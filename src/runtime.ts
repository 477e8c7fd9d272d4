/**
 * What differs between the two runtimes the package runs on: Node (Pi installed from npm) and Bun (Pi's release
 * binaries). The SQLite driver is chosen with `onBun` in src/store/db.ts; everything else that differs is here.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** True inside Bun (also Pi's compiled binary). */
export function onBun(): boolean {
	return typeof (process.versions as Record<string, string | undefined>).bun === "string";
}

let fullCollection: (() => void) | null | undefined;

/**
 * A full garbage collection now, where the runtime offers one (otherwise nothing). For after a multi-MB line: V8
 * frees the large strings such a line leaves (the decoded line, its parsed text, its FTS body) only at its next
 * major collection, which it puts off while the heap grows, so a run of such lines stacked up (docs/lifecycle.md,
 * "Memory"). Node offers gc() only behind --expose-gc: the flag is set just long enough for a new context to carry
 * the function, then cleared; Bun has Bun.gc.
 */
export function collectGarbage(): void {
	if (fullCollection === undefined) fullCollection = loadCollector();
	fullCollection?.();
}

function loadCollector(): (() => void) | null {
	try {
		if (onBun()) {
			const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
			return bun ? () => bun.gc(true) : null;
		}
		const exposed = (globalThis as { gc?: unknown }).gc;
		if (typeof exposed === "function") return exposed as () => void;
		setFlagsFromString("--expose-gc");
		try {
			const gc = runInNewContext("gc") as unknown;
			return typeof gc === "function" ? (gc as () => void) : null;
		} finally {
			setFlagsFromString("--no-expose-gc");
		}
	} catch {
		return null;
	}
}
