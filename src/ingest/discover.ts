/**
 * Finds session files under the discovery roots. Pi's own session folders are flat (`<agentDir>/sessions/` holds one
 * flat folder per workspace, each its own root); an archive root may nest (`archive/2025/--ws--/old.jsonl`), so it is
 * scanned at every depth down to MAX_ROOT_DEPTH, symbolic links never followed.
 */
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
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

/** The `*.jsonl` files and the sub-folders of `dir` (never through a symbolic link: a Dirent is not followed). */
function entriesOf(dir: string): { files: string[]; folders: string[] } {
	try {
		const files: string[] = [];
		const folders: string[] = [];
		for (const d of readdirSync(dir, { withFileTypes: true })) {
			if (d.isFile() && d.name.endsWith(".jsonl")) files.push(join(dir, d.name));
			else if (d.isDirectory()) folders.push(join(dir, d.name));
		}
		return { files, folders };
	} catch {
		// A root that does not exist (yet) or cannot be read contributes nothing.
		return { files: [], folders: [] };
	}
}

/** Every `*.jsonl` file of a root: its own, and with `subfolders` those of every sub-folder down to MAX_ROOT_DEPTH. */
function jsonlUnder(root: DiscoveryRoot): string[] {
	const out: string[] = [];
	// Breadth first with an explicit queue: no recursion, so no depth of tree can overflow the stack.
	let level = [resolve(root.path)];
	for (let depth = 0; level.length > 0; depth++) {
		const next: string[] = [];
		for (const dir of level) {
			const { files, folders } = entriesOf(dir);
			// A loop, not a spread: a folder may hold 50,000 files, past what one call's arguments can take.
			for (const f of files) out.push(f);
			if (root.subfolders && depth < MAX_ROOT_DEPTH) for (const f of folders) next.push(f);
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
	const paths = new Set<string>();
	for (const root of roots) for (const f of jsonlUnder(root)) paths.add(f);
	for (const f of extraFiles) paths.add(resolve(f));
	const found: DiscoveredFile[] = [];
	for (const path of paths) {
		// Vanished between readdir and stat, or not a regular file (a FIFO is never opened): skipped.
		const facts = statRegularFile(path);
		if (facts) found.push({ path, ...facts });
	}
	return found;
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
