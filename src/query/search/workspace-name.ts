/**
 * The caller's workspace name ("django" asked inside /home/dev/django) is context, not a term: every session the
 * caller sees by default is of that workspace, so the name tells no event apart, and an answer rarely says it.
 * A plain term equal to the last folder of the caller's cwd or of its git root is dropped from the query, unless
 * it is the only term (then the name is what is looked for). Quoted, it stays.
 */
import path from "node:path";
import { indexTokens } from "../../text/term-presence.js";
import { findWorkspaceRoot } from "../authorize.js";
import type { CallerContext } from "../caller.js";
import type { SearchTerm } from "./terms.js";

/** The caller's workspace names as folded token sequences joined by spaces ("twat-search" → "twat search"). */
function workspaceNames(cwd: string): Set<string> {
	const folders = [path.basename(cwd), path.basename(findWorkspaceRoot(cwd))];
	return new Set(folders.map((f) => indexTokens(f).join(" ")).filter((n) => n !== ""));
}

/** `terms` without the plain terms that name the caller's workspace; all of them when nothing else would remain. */
export function withoutWorkspaceName(terms: SearchTerm[], caller: CallerContext): SearchTerm[] {
	if (!caller.cwd) return terms;
	const names = workspaceNames(caller.cwd);
	const kept = terms.filter((t) => t.quoted || !names.has(t.forms[0].join(" ")));
	return kept.length > 0 ? kept : terms;
}
