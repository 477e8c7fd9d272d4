/**
 * Keys of file paths, for the `paths` search filter (docs/query-language.md, "Look-up by file"). A file named in a
 * session is keyed by its absolute path and by each trailing part of its path, whole segments, as seen from the
 * session's cwd: `/repo/src/billing/retry.ts` in a session started in `/repo` has the keys
 * `/repo/src/billing/retry.ts`, `src/billing/retry.ts`, `billing/retry.ts` and `retry.ts`. A file outside the cwd
 * gets the trailing parts of its absolute path. A path asked for is one key (or, relative, also its absolute forms
 * under the caller's cwd and workspace root), so a look-up is an exact key match. `./` and `a/../` are folded, a
 * trailing `/` dropped; case is kept. Pure, POSIX paths.
 */
import path from "node:path";

/** Trailing parts kept per path at most (the deepest are the base name and its parents). */
const MAX_TRAILING_PARTS = 16;

/** Keys longer than this (UTF-16 units) are not kept: no one types such a path. */
export const MAX_KEY_LENGTH = 400;

const posix = path.posix;

/** `p` with `./` and `a/..` folded and no trailing `/` (the root stays `/`); "" for nothing. */
export function foldPath(p: string): string {
	const trimmed = p.trim();
	if (trimmed === "") return "";
	const folded = posix.normalize(trimmed);
	const bare = folded.length > 1 ? folded.replace(/\/+$/, "") : folded;
	return bare === "." ? "" : bare;
}

/** Every trailing part of a relative path by whole segments, the whole first (at most MAX_TRAILING_PARTS). */
function trailingParts(rel: string): string[] {
	const segments = rel.split("/").filter((s) => s !== "" && s !== "..");
	const out: string[] = [];
	for (let i = Math.max(0, segments.length - MAX_TRAILING_PARTS); i < segments.length; i++) {
		out.push(segments.slice(i).join("/"));
	}
	return out;
}

const keep = (key: string) => key !== "" && key.length <= MAX_KEY_LENGTH;

/** The keys of a file a session named as `file`, the session's cwd being `cwd` (null: unknown). */
export function storedPathKeys(file: string, cwd: string | null): string[] {
	const folded = foldPath(file);
	if (folded === "" || folded === "/") return [];
	const base = cwd && posix.isAbsolute(cwd) ? foldPath(cwd) : undefined;
	const abs = posix.isAbsolute(folded) ? folded : base ? posix.resolve(base, folded) : undefined;
	if (abs === undefined) return [...new Set(trailingParts(folded))].filter(keep);
	const rel = base ? posix.relative(base, abs) : "";
	const inside = rel !== "" && !rel.startsWith("..") && !posix.isAbsolute(rel);
	return [...new Set([abs, ...trailingParts(inside ? rel : abs)])].filter(keep);
}

/** Where a relative path asked for is resolved, besides matching as a trailing part. */
export interface PathAnchors {
	/** The caller's cwd. */
	cwd: string;
	/** The caller's workspace root. */
	root: string;
}

/**
 * The keys a path asked for matches: an absolute path its own key; a relative one as a trailing part, and as the
 * file it names under the caller's cwd and workspace root; one that climbs out (`../x`) only as the latter.
 */
export function askedPathKeys(asked: string, anchors: PathAnchors): string[] {
	const folded = foldPath(asked);
	if (folded === "") return [];
	if (posix.isAbsolute(folded)) return [folded].filter(keep);
	const under = [posix.resolve(anchors.cwd, folded), posix.resolve(anchors.root, folded)];
	const climbs = folded === ".." || folded.startsWith("../");
	return [...new Set(climbs ? under : [folded, ...under])].filter(keep);
}
