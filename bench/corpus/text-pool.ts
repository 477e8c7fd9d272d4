/**
 * Real text for tool results: source files, docs and manifests read from the installed packages in
 * node_modules. Chosen deterministically (sorted walk, fixed caps) so the same install yields the same pool.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** One real file whose text can be quoted by read/cat/grep results. */
export interface PoolFile {
	/** Path relative to the project root, e.g. `node_modules/typebox/readme.md`. */
	path: string;
	text: string;
	/** Line start offsets into `text` (computed once, for cheap line windows). */
	lineStarts: number[];
}

/** The whole pool plus a few derived word lists. */
export interface TextPool {
	files: PoolFile[];
	totalBytes: number;
	/** Identifier-like words seen in the pool (sorted, deduplicated), for grep commands and prose. */
	words: string[];
}

/** Limits of the pool; the defaults keep loading under a second. */
export interface PoolOptions {
	/** Project root whose node_modules is read. */
	root: string;
	maxFilesPerPackage?: number;
	maxFileBytes?: number;
	minFileBytes?: number;
	maxTotalBytes?: number;
}

const EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".md", ".json", ".txt", ".yml", ".yaml"];
const SKIP = /(\.min\.js$|\.map$|package-lock\.json$|\.d\.mts$|\.d\.cts$)/;

function sortedEntries(dir: string): string[] {
	try {
		return readdirSync(dir).sort();
	} catch {
		return [];
	}
}

/** Package directories under node_modules, scoped ones included, in sorted order. */
function packageDirs(nodeModules: string): string[] {
	const out: string[] = [];
	for (const name of sortedEntries(nodeModules)) {
		if (name.startsWith(".")) continue;
		const dir = join(nodeModules, name);
		if (name.startsWith("@")) {
			for (const sub of sortedEntries(dir)) out.push(join(dir, sub));
		} else out.push(dir);
	}
	return out;
}

function lineStartsOf(text: string): number[] {
	const starts = [0];
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
	return starts;
}

/** Load the pool. Throws a clear error when node_modules has no usable text. */
export function loadTextPool(options: PoolOptions): TextPool {
	const perPackage = options.maxFilesPerPackage ?? 6;
	const maxFile = options.maxFileBytes ?? 160 * 1024;
	const minFile = options.minFileBytes ?? 600;
	const maxTotal = options.maxTotalBytes ?? 20 * 1024 * 1024;
	const nodeModules = join(options.root, "node_modules");
	const files: PoolFile[] = [];
	let total = 0;
	for (const pkg of packageDirs(nodeModules)) {
		if (total >= maxTotal) break;
		let taken = 0;
		// Depth-first sorted walk, skipping nested node_modules; stop at the per-package cap.
		const stack = [pkg];
		while (stack.length > 0 && taken < perPackage) {
			const dir = stack.pop() as string;
			const names = sortedEntries(dir);
			const subdirs: string[] = [];
			for (const name of names) {
				if (taken >= perPackage) break;
				if (name === "node_modules" || name.startsWith(".")) continue;
				const full = join(dir, name);
				let st: ReturnType<typeof statSync>;
				try {
					st = statSync(full);
				} catch {
					continue;
				}
				if (st.isDirectory()) {
					subdirs.push(full);
					continue;
				}
				if (!EXTENSIONS.some((ext) => name.endsWith(ext)) || SKIP.test(name)) continue;
				if (st.size < minFile || st.size > maxFile) continue;
				const text = readFileSync(full, "utf8");
				if (text.includes("\u0000")) continue;
				files.push({ path: relative(options.root, full), text, lineStarts: lineStartsOf(text) });
				total += st.size;
				taken++;
			}
			// Push in reverse so the walk visits sub-directories in sorted order.
			for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
		}
	}
	if (files.length === 0) throw new Error(`no usable text files under ${nodeModules}; run npm ci first`);
	const wordSet = new Set<string>();
	for (const file of files.slice(0, 400)) {
		for (const m of file.text.slice(0, 4000).matchAll(/\b[A-Za-z][A-Za-z0-9_]{5,24}\b/g)) wordSet.add(m[0]);
	}
	return { files, totalBytes: total, words: [...wordSet].sort() };
}

/** Lines [from, to) of a pool file (0-based, clamped), joined with their newlines. */
export function lineWindow(file: PoolFile, from: number, count: number): string {
	const n = file.lineStarts.length;
	const a = Math.max(0, Math.min(from, n - 1));
	const b = Math.min(n, a + count);
	const start = file.lineStarts[a];
	const end = b < n ? file.lineStarts[b] : file.text.length;
	return file.text.slice(start, end);
}
