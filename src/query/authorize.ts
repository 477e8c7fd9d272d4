/**
 * Workspace authorization: which sessions a caller may see. A session is visible iff its header `cwd` equals or lies
 * inside an authorized root. Roots come from the caller's cwd (its enclosing git repository, found with fs checks only,
 * never a child process) plus configured extra roots; `allRoots` disables the check. Whatever those say, a session
 * confined to a workspace (found only through a folder that workspace's own settings named: `sources.confined_to`)
 * is visible from that workspace alone: its header's cwd is the repository's word, not the person's.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { CallerContext } from "./caller.js";

/** The roots a caller may read, or every root; `workspace` is the caller's own (confined sessions match it). */
export type AuthorizedRoots = { all: true; workspace: string } | { all: false; roots: string[]; workspace: string };

/** A SQL condition over a sources alias and its parameters. */
export interface SqlClause {
	sql: string;
	params: Array<string | number>;
}

const gitRootCache = new Map<string, string>();

/** Absolute, normalized, without a trailing separator (except the filesystem root). */
export function normalizeRoot(p: string): string {
	const resolved = path.resolve(p);
	return resolved.length > 1 && resolved.endsWith(path.sep) ? resolved.slice(0, -1) : resolved;
}

/**
 * The nearest ancestor of `cwd` (itself included) holding a `.git` directory or file, else `cwd` itself.
 * Cached per cwd: the hot path does at most one walk per workspace per process.
 */
export function findWorkspaceRoot(cwd: string): string {
	const start = normalizeRoot(cwd);
	const cached = gitRootCache.get(start);
	if (cached !== undefined) return cached;
	let dir = start;
	let found = start;
	for (;;) {
		if (existsSync(path.join(dir, ".git"))) {
			found = dir;
			break;
		}
		const parent = path.dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	gitRootCache.set(start, found);
	return found;
}

/** The caller's authorized roots: workspace root + configured extra roots, or all. */
export function authorizedRoots(caller: CallerContext): AuthorizedRoots {
	const workspace = findWorkspaceRoot(caller.cwd);
	if (caller.authorization.allRoots) return { all: true, workspace };
	const roots = new Set<string>([workspace]);
	for (const extra of caller.authorization.extraRoots) {
		if (extra.trim() !== "") roots.add(normalizeRoot(extra));
	}
	return { all: false, roots: [...roots].sort(), workspace };
}

/** True when `p` equals `root` or lies inside it, by whole path segments (/a/b does not contain /a/bc). */
export function isInsideRoot(p: string, root: string): boolean {
	const r = normalizeRoot(root);
	if (p === r) return true;
	const prefix = r.endsWith(path.sep) ? r : r + path.sep;
	return p.startsWith(prefix);
}

/**
 * True when a session with header cwd `cwd` may be visible under `auth` (its confinement aside: authorizationSql
 * checks that too). Sessions without a cwd are invisible.
 */
export function isVisibleCwd(cwd: string | null | undefined, auth: AuthorizedRoots): boolean {
	if (cwd === null || cwd === undefined || cwd === "") return false;
	if (auth.all) return true;
	return auth.roots.some((root) => isInsideRoot(cwd, root));
}

/** True when a source (its header cwd and confinement) is visible under `auth`: the rule authorizationSql states. */
export function isVisibleSource(
	source: { cwd: string | null; confinedTo: string | null },
	auth: AuthorizedRoots,
): boolean {
	return (source.confinedTo === null || source.confinedTo === auth.workspace) && isVisibleCwd(source.cwd, auth);
}

/**
 * Equal-or-inside test for a SQL text column. Case-sensitive and wildcard-free (substr, not LIKE);
 * SQLite's length/substr count characters, so lengths are passed in code points.
 */
export function pathInsideSql(column: string, root: string): SqlClause {
	const r = normalizeRoot(root);
	const prefix = r.endsWith(path.sep) ? r : r + path.sep;
	return {
		sql: `(${column} = ? OR substr(${column}, 1, ?) = ?)`,
		params: [r, Array.from(prefix).length, prefix],
	};
}

/** The visibility condition for a sources alias (e.g. `s`): its cwd authorized, and confined to nobody or to us. */
export function authorizationSql(alias: string, auth: AuthorizedRoots): SqlClause {
	const column = `${alias}.cwd`;
	const confined = `(${alias}.confined_to IS NULL OR ${alias}.confined_to = ?)`;
	if (auth.all) return { sql: `(${column} IS NOT NULL AND ${column} <> '' AND ${confined})`, params: [auth.workspace] };
	if (auth.roots.length === 0) return { sql: "0", params: [] };
	const parts = auth.roots.map((root) => pathInsideSql(column, root));
	return {
		sql: `((${parts.map((p) => p.sql).join(" OR ")}) AND ${confined})`,
		params: [...parts.flatMap((p) => p.params), auth.workspace],
	};
}
