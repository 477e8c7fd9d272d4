/**
 * Finds session files under the discovery roots. Pi's own session folders are flat (`<agentDir>/sessions/` holds one
 * flat folder per workspace, each its own root); an archive root may nest (`archive/2025/--ws--/old.jsonl`), so it is
 * scanned at every depth down to MAX_ROOT_DEPTH, symbolic links never followed.
 */
import { readdirSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { type FileFacts, statRegularFile } from "./file-facts.js";

/** A folder to look for `*.jsonl` session files in. */
export interface DiscoveryRoot {
	path: string;
	/** Also scan the root's sub-folders, at every depth down to MAX_ROOT_DEPTH (an archive); false: flat. */
	subfolders: boolean;
	/**
	 * The workspace root of the repository whose own setting alone names this folder (workspace-index.ts `repositoryOnly`): a
	 * session found only through such folders is visible from that workspace alone.
	 */
	confinedTo?: string;
}

/**
 * Sub-folder levels scanned below a root at most. Symbolic links are never followed, so only a bind mount or a
 * pathological tree could go deeper: the bound keeps such a tree from making discovery endless.
 */
export const MAX_ROOT_DEPTH = 32;

/** A session file found on disk, with the stat facts ordering and the unchanged rule need. */
export interface DiscoveredFile extends FileFacts {
	path: string;
}

/** `dir`'s entry `name` (`dir` is resolved: no trailing slash unless it is the root; `join` would normalize again). */
function inDir(dir: string, name: string): string {
	return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

/**
 * The `*.jsonl` names in `dir`, and with `subfolders` its sub-folders (never through a symbolic link: a Dirent is not
 * followed). A flat root lists names alone: whether each is a regular file its stat says (discoverFiles), and a
 * `Dirent` for each of 10,000 files cost a catch-up more than their stats (docs/benchmarks.md, "Where the time goes").
 */
function entriesOf(dir: string, subfolders: boolean): { files: string[]; folders: string[] } {
	const files: string[] = [];
	const folders: string[] = [];
	try {
		if (!subfolders) {
			for (const name of readdirSync(dir)) if (name.endsWith(".jsonl")) files.push(inDir(dir, name));
			return { files, folders };
		}
		for (const d of readdirSync(dir, { withFileTypes: true })) {
			if (d.isFile() && d.name.endsWith(".jsonl")) files.push(inDir(dir, d.name));
			else if (d.isDirectory()) folders.push(inDir(dir, d.name));
		}
	} catch {
		// A root that does not exist (yet) or cannot be read contributes nothing.
	}
	return { files, folders };
}

/**
 * Every `*.jsonl` file of a root: its own, and with `subfolders` those of every sub-folder down to MAX_ROOT_DEPTH.
 * `beforeListing` sees each folder just before it is listed (a full check records the folder's mtime then).
 */
function jsonlUnder(root: DiscoveryRoot, beforeListing?: (dir: string) => void): string[] {
	const out: string[] = [];
	// Breadth first with an explicit queue: no recursion, so no depth of tree can overflow the stack.
	let level = [resolve(root.path)];
	for (let depth = 0; level.length > 0; depth++) {
		const next: string[] = [];
		const deeper = root.subfolders && depth < MAX_ROOT_DEPTH;
		for (const dir of level) {
			beforeListing?.(dir);
			const { files, folders } = entriesOf(dir, deeper);
			// A loop, not a spread: a folder may hold 50,000 files, past what one call's arguments can take.
			for (const f of files) out.push(f);
			for (const f of folders) next.push(f);
		}
		level = next;
	}
	return out;
}

/** True when discovery would find `file` through `root` (directly in it, or below it when it has sub-folders). */
function holds(root: DiscoveryRoot, file: string): boolean {
	const dir = resolve(root.path);
	if (dirname(file) === dir) return true;
	const rel = relative(dir, file);
	return root.subfolders && rel !== "" && !rel.startsWith("../") && rel !== "..";
}

/**
 * The workspace a new source found at `path` is confined to: set when every root that holds it is one a repository
 * configured, undefined when any of the person's roots holds it (or none does: a file Pi was pointed at directly).
 */
export function confinementOf(path: string, roots: readonly DiscoveryRoot[]): string | undefined {
	let confinedTo: string | undefined;
	for (const root of roots) {
		if (!holds(root, path)) continue;
		if (root.confinedTo === undefined) return undefined;
		confinedTo ??= root.confinedTo;
	}
	return confinedTo;
}

/** Every `*.jsonl` file under the roots plus `extraFiles`, deduplicated by resolved path. */
export function discoverFiles(roots: DiscoveryRoot[], extraFiles: string[] = []): DiscoveredFile[] {
	const found: DiscoveredFile[] = [];
	visitDiscoveredFiles(roots, extraFiles, (file) => found.push(file));
	return found;
}

/** What a caller of visitDiscoveredFiles may watch besides the files. */
export interface DiscoveryWatch {
	/** Each folder, just before it is listed. */
	beforeListing?: (dir: string) => void;
}

/**
 * discoverFiles, handing each file to `visit` as soon as it is stat'ed: a caller that keeps only some (a plan keeps the
 * changed ones) leaves the rest to die young, where a list of 10,000 survived into the old generation (GC was a
 * quarter of a planned `search`'s CPU). `named` is true for a file of `extraFiles`, followed through a link.
 */
export function visitDiscoveredFiles(
	roots: DiscoveryRoot[],
	extraFiles: string[],
	visit: (file: DiscoveredFile, named: boolean) => void,
	watch: DiscoveryWatch = {},
): void {
	// Path → follow a symbolic link: a listed name is taken as it is (a link is no session file of the folder, as its
	// Dirent said), a file named on purpose through its link.
	const paths = new Map<string, boolean>();
	for (const root of roots) for (const f of jsonlUnder(root, watch.beforeListing)) paths.set(f, false);
	for (const f of extraFiles) paths.set(resolve(f), true);
	for (const [path, follow] of paths) {
		// Vanished between readdir and stat, or not a regular file (a FIFO is never opened): skipped.
		const facts = statRegularFile(path, follow);
		if (facts) visit({ path, ...facts }, follow);
	}
}

/**
 * Catch-up order: the caller's own workspace first (newest files first), then everything else newest first.
 * `inWorkspace` decides by path (e.g. the effective session dir) since headers are unknown before parsing.
 */
export function orderForCatchUp(files: DiscoveredFile[], inWorkspace: (path: string) => boolean): DiscoveredFile[] {
	return [...files].sort((a, b) => {
		const wa = inWorkspace(a.path) ? 0 : 1;
		const wb = inWorkspace(b.path) ? 0 : 1;
		if (wa !== wb) return wa - wb;
		if (a.mtimeMs !== b.mtimeMs) return b.mtimeMs - a.mtimeMs;
		return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
	});
}
