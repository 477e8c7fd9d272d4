/**
 * The conversation as reads and traces show it: parents, children and neighbours step over the events that are no
 * part of it (Pi 1.x's system messages and usage entries, src/parse/conversation.ts). Such an event is still read
 * and traced when asked for by id; it is only never shown as another event's parent, child or neighbour.
 */
import { inConversation, SYSTEM_ROLE, USAGE_ENTRY } from "../parse/conversation.js";
import { codeSql, storedSql } from "../store/column-codes.js";
import type { QueryDb } from "./db.js";
import { childrenOf, type EventLite, eventById } from "./rows.js";

/** Out-of-conversation events stepped over in a row before giving up (Pi writes one at a time). */
const MAX_STEPS = 16;

/** SQL condition on `events e`: the event is part of the conversation (inConversation, for append-order walks). */
export const IN_CONVERSATION_SQL = `NOT (e.entry_type = ${codeSql("entryType", USAGE_ENTRY)}
	OR (e.entry_type = ${codeSql("entryType", "message")} AND e.role IS ${storedSql("role", SYSTEM_ROLE)}))`;

/** An event reached through the tree, and whether out-of-conversation events were stepped over to reach it. */
export interface ConversationStep {
	event: EventLite;
	/** True when the recorded link goes through events that are no part of the conversation. */
	stepped: boolean;
}

function shown(e: EventLite): boolean {
	return inConversation(e.entryType, e.role);
}

/** The nearest ancestor of `e` that is part of the conversation (undefined at a root or a missing parent). */
export function conversationalParent(db: QueryDb, sourceId: number, e: EventLite): ConversationStep | undefined {
	let cur = e;
	for (let step = 0; step < MAX_STEPS && cur.parentId !== null; step++) {
		const parent = eventById(db, sourceId, cur.parentId);
		if (parent === undefined) return undefined;
		if (shown(parent)) return { event: parent, stepped: step > 0 };
		cur = parent;
	}
	return undefined;
}

/**
 * The children of `entryId` in the conversation, in file order, at most `limit`: an out-of-conversation child is
 * replaced by its own children, as Pi's tree shows them.
 */
export function conversationalChildren(
	db: QueryDb,
	sourceId: number,
	entryId: string,
	limit: number,
): ConversationStep[] {
	const out: ConversationStep[] = [];
	const visit = (id: string, depth: number) => {
		for (const kid of childrenOf(db, sourceId, id, limit + 1)) {
			if (out.length >= limit) return;
			if (shown(kid)) out.push({ event: kid, stepped: depth > 0 });
			else if (depth < MAX_STEPS) visit(kid.entryId, depth + 1);
		}
	};
	visit(entryId, 0);
	return out;
}
