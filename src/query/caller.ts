/** Who is asking: the calling Pi session, its workspace, and the budgets that bound every answer. */
import type { Budgets } from "../config/budgets.js";

/** Explicit authorization overrides from the extension's configuration. */
export interface AuthorizationConfig {
	/** Extra roots whose sessions may be read, in addition to the caller's workspace root. */
	extraRoots: string[];
	/** Every indexed session may be read (disables the workspace check). */
	allRoots: boolean;
}

/** The context every query service receives from the tool layer or the CLI. */
export interface CallerContext {
	/** The caller's working directory; its enclosing git root is the default authorized root. */
	cwd: string;
	/** Resolved path of the caller's session file (undefined with --no-session). Finds the caller's source. */
	sessionFile?: string;
	sessionId?: string;
	/** The calling assistant entry; it and everything after it in file order are excluded from search. */
	cutoffEntryId?: string;
	authorization: AuthorizationConfig;
	budgets: Budgets;
}
