/**
 * What opening the index for a workspace starts from: the agent dir, the configuration and the discovery roots, by
 * Pi's rules. Reads files, opens nothing, loads no store or ingest module: the CLI resolves this for every command,
 * including those that only read the index (workspace-index.ts opens it).
 */
import { join, resolve } from "node:path";
import { type LoadConfigResult, loadConfig, type ResolvedConfig } from "./config/config.js";
import {
	type Env,
	effectiveSessionDir,
	expandTilde,
	resolveAgentDir,
	sessionRoots,
	subdirectories,
} from "./config/pi-paths.js";
import type { CatchUpThreads } from "./config/threads.js";
import type { DiscoveryRoot } from "./ingest/discover.js";
import { findWorkspaceRoot } from "./query/authorize.js";
import { setSecretRedaction } from "./text/redact.js";

/** How to open the index for a workspace. */
export interface WorkspaceIndexOptions {
	cwd: string;
	/** Pi's agent dir (default: `$PI_CODING_AGENT_DIR` or `~/.pi/agent`). */
	agentDir?: string;
	env?: Env;
	/** The current session file, if any (indexed wherever it lives). */
	sessionFile?: string;
	/** Overrides on top of the configuration files (CLI flags). */
	indexDir?: string;
	extraRoots?: string[];
	/** Run catch-up in a worker thread (default true). */
	useWorker?: boolean;
	/** Threads of a catch-up or rebuild; default the config's `catchUp.threads`. */
	catchUpThreads?: CatchUpThreads;
}

/** Discovery roots and the files to index wherever they live, from Pi's rules and the configuration. */
function discoveryFor(
	opts: { cwd: string; agentDir: string; env?: Env; sessionFile?: string },
	config: ResolvedConfig,
	extraRoots: string[] = [],
): { roots: DiscoveryRoot[]; extraFiles: string[]; workspaceDirs: string[] } {
	const personRoots = [...config.roots, ...extraRoots];
	const found = sessionRoots({
		cwd: opts.cwd,
		agentDir: opts.agentDir,
		env: opts.env,
		extraRoots: personRoots,
		currentFile: opts.sessionFile,
	});
	const roots: DiscoveryRoot[] = [];
	const extraFiles: string[] = [];
	const workspaceDirs: string[] = [];
	for (const r of found) {
		// The current file's folder may hold unrelated files (e.g. --session /tmp/x.jsonl): index the file alone.
		if (r.kind === "current-file") {
			if (r.file) extraFiles.push(r.file);
			continue;
		}
		roots.push(
			r.kind === "effective" && repositoryOnly(opts, r.path, personRoots)
				? { path: r.path, subfolders: r.recursive, confinedTo: findWorkspaceRoot(opts.cwd) }
				: { path: r.path, subfolders: r.recursive },
		);
		if (r.kind === "effective") workspaceDirs.push(r.path);
	}
	return { roots, extraFiles, workspaceDirs };
}

/**
 * True when only the workspace's own `.pi/settings.json` (`sessionDir`) names the effective session folder, which a
 * cloned repository can ship: what is found there only is confined to that workspace (docs/security.md). A folder
 * that is also one of the person's (a `<agentDir>/sessions/` sub-folder, one of `personRoots`: sessionRoots merged
 * it into the effective one) stays the person's.
 */
function repositoryOnly(
	opts: { cwd: string; agentDir: string; env?: Env },
	path: string,
	personRoots: readonly string[],
): boolean {
	if (effectiveSessionDir({ cwd: opts.cwd, agentDir: opts.agentDir, env: opts.env }).source !== "project-settings") {
		return false;
	}
	const person = [
		...subdirectories(join(resolve(opts.agentDir), "sessions")),
		...personRoots.map((root) => resolve(opts.cwd, expandTilde(root))),
	];
	return !person.includes(path);
}

/** What opening the index for a workspace starts from: the agent dir, configuration and discovery roots. */
export interface WorkspaceSetup {
	agentDir: string;
	config: ResolvedConfig;
	/** Configuration problems (each names the file and key); defaults were used for those keys. */
	problems: string[];
	/** The widening keys of the workspace's config file that were ignored, in one path-free line. */
	refused?: string;
	roots: DiscoveryRoot[];
	extraFiles: string[];
	/** Directories holding the workspace's own sessions (catch-up does them first). */
	workspaceDirs: string[];
	/** The current session file, absolute. */
	sessionFile?: string;
}

/** Resolve the agent dir, configuration and roots of `opts` (reads config files; opens nothing). */
export function resolveWorkspace(opts: WorkspaceIndexOptions): WorkspaceSetup {
	const env = opts.env ?? process.env;
	const agentDir = opts.agentDir ? resolve(opts.agentDir) : resolveAgentDir(env);
	const loaded: LoadConfigResult = loadConfig({ cwd: opts.cwd, agentDir, env });
	const config: ResolvedConfig = opts.indexDir ? { ...loaded.config, indexDir: resolve(opts.indexDir) } : loaded.config;
	// The person's setting, for the whole process: every text projected or returned from here on follows it, and the
	// threads it starts are told (index-manager.ts, worker-start.ts).
	setSecretRedaction(config.redactSecrets);
	const sessionFile = opts.sessionFile ? resolve(opts.cwd, opts.sessionFile) : undefined;
	const { roots, extraFiles, workspaceDirs } = discoveryFor(
		{ cwd: opts.cwd, agentDir, env, sessionFile },
		config,
		opts.extraRoots ?? [],
	);
	return {
		agentDir,
		config,
		problems: loaded.problems,
		...(loaded.refused ? { refused: loaded.refused } : {}),
		roots,
		extraFiles,
		workspaceDirs,
		...(sessionFile ? { sessionFile } : {}),
	};
}
