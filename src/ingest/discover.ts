/**
 * Finds session files under the discovery roots. Pi's session folders are flat, and `<agentDir>/sessions/` holds
 * one folder per workspace, so a root is either scanned flat or one level of sub-folders deep.
 */
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { subdirectories } from "../config/pi-paths.js";
import { type FileFacts, statRegularFile } from "./file-facts.js";

/** A folder to look for `*.jsonl` session files in. */
export interface DiscoveryRoot {
	path: string;
	/** Also scan the root's immediate sub-folders (one level, no deeper). */
	subfolders: boolean;
	/**
	 * The workspace root of the repository whose own setting alone names this folder (workspace-index.ts `repositoryOnly`): a
	 * session found only through such folders is visible from that workspace alone.
	 */
	confinedTo?: string;
}

/** A session file found on disk, with the stat facts ordering and the unchanged rule need. */
export interface DiscoveredFile extends FileFacts {
	path: string;
}

function jsonlIn(dir: string): string[] {
	try {
		return readdirSync(dir, { withFileTypes: true })
			.filter((d) => d.isFile() && d.name.endsWith(".jsonl"))
			.map((d) => join(dir, d.name));
	} catch {
		// A root that does not exist (yet) or cannot be read contributes nothing.
		return [];
	}
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
	for (const root of roots) {
		const dir = resolve(root.path);
		for (const f of jsonlIn(dir)) paths.add(f);
		if (root.subfolders) for (const sub of subdirectories(dir)) for (const f of jsonlIn(sub)) paths.add(f);
	}
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
