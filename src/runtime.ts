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

const WASM_PAGE = 65_536;
// Typed here: the package's TypeScript libs leave WebAssembly out, and both runtimes have it.
const wasm = (globalThis as { WebAssembly?: { Memory: new (d: { initial: number }) => { buffer: ArrayBuffer } } })
	.WebAssembly;

/**
 * `size` zeroed bytes that do not come from malloc: the pages of a WebAssembly.Memory (whole 64 KiB pages), which the
 * engine maps and unmaps itself. For multi-MB buffers: freeing a multi-MB malloc block raises glibc's dynamic mmap
 * threshold to its size, after which blocks of up to that size come from the thread's heap and stay there once
 * freed; a multi-MB line joined from its chunks was such a block (docs/lifecycle.md, "Memory"). Plain bytes where
 * the engine refuses (no WebAssembly, or no address space for one more memory).
 */
export function pagedBytes(size: number): Uint8Array {
	if (wasm) {
		try {
			const memory = new wasm.Memory({ initial: Math.ceil(size / WASM_PAGE) });
			return new Uint8Array(memory.buffer, 0, size);
		} catch {
			// Out of address space for one more memory: malloc it is.
		}
	}
	return new Uint8Array(size);
}
