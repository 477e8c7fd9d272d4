/**
 * Opens the shared index for one workspace: loads the configuration, works out the discovery roots and opens the
 * lifecycle manager. The extension and the CLI both start here, so they see the same index the same way.
 */

import type { ResolvedConfig } from "./config/config.js";
import { requireIndexDir } from "./config/index-dir.js";
import type { DiscoveryRoot } from "./ingest/discover.js";
import { IndexManager } from "./ingest/index-manager.js";
import type { CallerContext } from "./query/caller.js";
import { resolveWorkspace, type WorkspaceIndexOptions } from "./workspace-setup.js";

export { IndexDirError } from "./config/index-dir.js";
// What the extension's runtime sees of the index besides the manager: the outcomes it reports and the errors it
// tells apart (the runtime never imports ingest/ or store/: .dependency-cruiser.cjs).
export type { CatchUpResult } from "./ingest/catch-up.js";
export type { CatchUpOutcome } from "./ingest/catch-up-job.js";
export type { DiscoveryRoot } from "./ingest/discover.js";
export { ForgetError } from "./ingest/forget.js";
export { SHUTDOWN_BUSY_WAIT_MS } from "./ingest/index-manager.js";
export { IndexUnavailableError } from "./ingest/index-unavailable.js";
export type { RebuildOutcome } from "./ingest/rebuild.js";
export type { SyncStatus } from "./ingest/sync-source.js";
export { DISK_FULL_REASON, isBusyCode, isDiskFull, isStoreDamage, sqliteErrorCode } from "./store/db.js";
export { DriverLoadError } from "./store/driver.js";
export type { WorkspaceIndexOptions } from "./workspace-setup.js";

/** An open index plus everything needed to answer queries for this workspace. */
export interface WorkspaceIndex {
	manager: IndexManager;
	config: ResolvedConfig;
	/** Configuration problems (each names the file and key); defaults were used for those keys. */
	problems: string[];
	/** The widening keys of the workspace's config file that were ignored, in one path-free line. */
	refused?: string;
	agentDir: string;
	roots: DiscoveryRoot[];
	extraFiles: string[];
	/** The caller context for queries, minus the per-call session fields. */
	caller(extra?: Partial<CallerContext>): CallerContext;
}

/**
 * Open the shared index for a workspace (the extension and the CLI both come here). Throws IndexDirError when the
 * index dir cannot hold an index and IndexUnavailableError when the store cannot be opened at all.
 */
export async function openWorkspaceIndex(opts: WorkspaceIndexOptions): Promise<WorkspaceIndex> {
	const { agentDir, config, problems, refused, roots, extraFiles, workspaceDirs, sessionFile } = resolveWorkspace(opts);
	// Fails at once (IndexDirError) on a path that cannot hold an index, before any store code touches it.
	requireIndexDir(config.indexDir);
	const manager = await IndexManager.open({
		indexDir: config.indexDir,
		roots,
		extraFiles,
		workspaceDirs,
		useWorker: opts.useWorker,
		catchUpThreads: opts.catchUpThreads ?? config.catchUp.threads,
		excludeWorkspaces: config.excludeWorkspaces,
		idleRecheckSeconds: config.catchUp.idleFilesRecheckSeconds,
	});
	return {
		manager,
		config,
		problems,
		...(refused ? { refused } : {}),
		agentDir,
		roots,
		extraFiles,
		caller: (extra = {}) => ({
			cwd: opts.cwd,
			sessionFile,
			// Extra discovery roots say where session files live, not whose sessions may be read: authorization
			// goes by each session's recorded cwd and only the configuration widens it.
			authorization: {
				extraRoots: config.authorization.extraRoots,
				allRoots: config.authorization.allRoots,
			},
			budgets: config.budgets,
			...extra,
		}),
	};
}
