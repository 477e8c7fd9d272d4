/**
 * traceSession (internal; also used by the CLI): the authorized parent/child lineage of one session, from the
 * sources table only (header `parentSession`), never from transcripts. An unindexed or unauthorized relative ends
 * the walk in that direction without revealing anything about it.
 */
import type { SessionLineage, SessionLineageNode } from "../contract.js";
import { authorizedRoots } from "./authorize.js";
import type { CallerContext } from "./caller.js";
import type { QueryDb } from "./db.js";
import { invalidField, notFound } from "./errors.js";
import { childSources, parentSource } from "./forks.js";
import { findVisibleSourceForSession, type SourceLite } from "./rows.js";
import { resolveSessionId } from "./session-prefix.js";

/** Request of traceSession. */
export interface SessionLineageRequest {
	sessionId: string;
}

function lineageNode(s: SourceLite, generation: number): SessionLineageNode {
	const node: SessionLineageNode = {
		sessionId: s.sessionId ?? "",
		cwd: s.cwd ?? "",
		timestamp: s.headerTimestamp ?? "",
		generation,
	};
	if (s.sessionName) node.sessionName = s.sessionName;
	return node;
}

/**
 * Ancestors (generation -1, -2 … nearest first) and descendants (1, 2 … breadth first) of a session, at most
 * `budgets.lineageSessions` sessions in all.
 */
export function traceSession(db: QueryDb, req: SessionLineageRequest, caller: CallerContext): SessionLineage {
	if (req === null || typeof req !== "object" || typeof req.sessionId !== "string" || req.sessionId.trim() === "") {
		throw invalidField("sessionId", "is required.");
	}
	const auth = authorizedRoots(caller);
	const root = findVisibleSourceForSession(db, auth, resolveSessionId(db, auth, req.sessionId));
	if (root === undefined) throw notFound();
	const cap = caller.budgets.lineageSessions;
	let used = 1;
	let truncated = false;
	const seen = new Set<number>([root.id]);

	const ancestors: SessionLineageNode[] = [];
	let cur = root;
	for (let gen = -1; ; gen--) {
		const parent = parentSource(db, auth, cur);
		if (parent === undefined || seen.has(parent.id)) break;
		if (used >= cap) {
			truncated = true;
			break;
		}
		used++;
		seen.add(parent.id);
		ancestors.push(lineageNode(parent, gen));
		cur = parent;
	}

	const descendants: SessionLineageNode[] = [];
	let frontier: SourceLite[] = [root];
	for (let gen = 1; frontier.length > 0 && !truncated; gen++) {
		const next: SourceLite[] = [];
		for (const s of frontier) {
			for (const child of childSources(db, auth, s, cap + 1)) {
				if (seen.has(child.id)) continue;
				if (used >= cap) {
					truncated = true;
					break;
				}
				used++;
				seen.add(child.id);
				descendants.push(lineageNode(child, gen));
				next.push(child);
			}
			if (truncated) break;
		}
		frontier = next;
	}
	return { session: lineageNode(root, 0), ancestors, descendants, truncated };
}
