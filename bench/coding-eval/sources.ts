/**
 * The manifest of the coding eval's sources (sources.json): each project's public repository, licence, the workspace
 * its sessions are given, and every SpecStory export taken from it (path and commit). Where the raw exports and the
 * converted corpus live on this machine: never in the repository, which holds only this manifest, the converter and
 * the questions.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One export: its path in the repository and the commit it was read at. */
export interface SourceFile {
	path: string;
	commit: string;
}

/** One project. */
export interface SourceProject {
	/** Short name; session labels start with it. */
	name: string;
	/** owner/name on GitHub. */
	repo: string;
	licence: string;
	/** The workspace its sessions are written in (the caller's cwd for its questions). */
	cwd: string;
	files: SourceFile[];
}

/** The manifest. */
export interface SourceManifest {
	format: "specstory";
	note: string;
	projects: SourceProject[];
}

const HERE = dirname(fileURLToPath(import.meta.url));

/** Default home of the raw exports and the converted corpus (outside the repository). */
export const CACHE_DIR = "/work/.cache/coding-eval";
/** The converted corpus: env PEI_CODING_CORPUS, else the cache's sessions directory. */
export function corpusDir(): string {
	return process.env.PEI_CODING_CORPUS || join(CACHE_DIR, "sessions");
}

export function loadManifest(path = join(HERE, "sources.json")): SourceManifest {
	return JSON.parse(readFileSync(path, "utf8")) as SourceManifest;
}

/** A session's stable label: `<project>/<file stem>`. */
export function labelOf(project: SourceProject, file: SourceFile): string {
	const base = file.path.split("/").pop() ?? file.path;
	return `${project.name}/${base.replace(/\.md$/, "")}`;
}

/** Where the raw export of a file is kept under `rawDir`. */
export function rawPathOf(rawDir: string, project: SourceProject, file: SourceFile): string {
	return join(rawDir, project.name, file.path.split("/").pop() ?? file.path);
}
