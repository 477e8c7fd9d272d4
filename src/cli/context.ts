/**
 * Resolves the global options into what every command needs: Pi's agent dir (which must exist), the merged
 * configuration, the index directory, the discovery roots, and the workspace used for authorization, by the same
 * rules the extension uses (workspace-index.ts). Reads files, opens nothing.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ENV_AGENT_DIR, type Env, resolveAgentDir } from "../config/pi-paths.js";
import { MAINTENANCE_THREADS } from "../index-admin.js";
import { resolveWorkspace, type WorkspaceIndexOptions, type WorkspaceSetup } from "../workspace-setup.js";
import type { GlobalOptions } from "./args.js";
import { CliError, EXIT } from "./errors.js";

/** Everything a command knows about where things are: the workspace's setup (configuration, roots), and more. */
export interface CliContext
	extends Pick<WorkspaceSetup, "config" | "problems" | "refused" | "roots" | "extraFiles" | "workspaceDirs"> {
	agentDir: string;
	indexDir: string;
	/** The workspace whose sessions may be read (config's project file is read from here too). */
	workspace: string;
	/** `--all`: every workspace's sessions may be read. */
	all: boolean;
	/** `--root` directories, absolute. */
	extraRoots: string[];
	env: Env;
	/** How openWorkspaceIndex opens this index: catch-up in this thread (`reindex` runs its pass in the index worker). */
	open: WorkspaceIndexOptions;
}

/** The process facts the context depends on. */
export interface ProcessFacts {
	env: Env;
	cwd: string;
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** Resolve the global options; throws CliError for a missing agent dir or a missing `--root`. */
export function resolveContext(globals: GlobalOptions, facts: ProcessFacts): CliContext {
	const env = facts.env;
	const agentDir = globals.agentDir !== undefined ? resolve(facts.cwd, globals.agentDir) : resolveAgentDir(env);
	if (!isDirectory(agentDir)) {
		const from =
			globals.agentDir !== undefined ? "--agent-dir" : env[ENV_AGENT_DIR] ? `$${ENV_AGENT_DIR}` : "the default";
		throw new CliError(
			`Pi agent dir ${agentDir} (from ${from}) does not exist or is not a directory; pass --agent-dir DIR or set ${ENV_AGENT_DIR}`,
			"agent_dir_missing",
			EXIT.failure,
			"--agent-dir",
		);
	}
	const extraRoots = globals.roots.map((r) => resolve(facts.cwd, r));
	for (const r of extraRoots)
		if (!isDirectory(r)) throw new CliError(`--root ${r} is not a directory`, "root_missing", EXIT.failure, "--root");
	const workspace = resolve(facts.cwd, globals.workspace ?? facts.cwd);
	const open: WorkspaceIndexOptions = {
		cwd: workspace,
		agentDir,
		env,
		extraRoots,
		useWorker: false,
		catchUpThreads: MAINTENANCE_THREADS,
		...(globals.indexDir !== undefined ? { indexDir: resolve(facts.cwd, globals.indexDir) } : {}),
	};
	const setup = resolveWorkspace(open);
	return {
		agentDir,
		indexDir: setup.config.indexDir,
		workspace,
		all: globals.all,
		extraRoots,
		config: setup.config,
		problems: setup.problems,
		...(setup.refused ? { refused: setup.refused } : {}),
		roots: setup.roots,
		extraFiles: setup.extraFiles,
		workspaceDirs: setup.workspaceDirs,
		env,
		open,
	};
}
