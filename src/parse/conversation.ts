/**
 * Entries Pi 1.x writes between turns that are no part of the conversation (docs/data-model.md, "Fragment kinds"):
 * `system` messages (the prompt and tool loadout: the same sections start every session, later ones patch them) and
 * `usage` entries (model usage outside any message; Pi hides them from its own tree). They stay events, so the tree
 * and its states are Pi's, but they have no fragments, and reads and traces step over them: a first user message's
 * conversational parent is whatever precedes the system message, not the prompt.
 */

/** The role of Pi 1.x's prompt-and-tools messages. */
export const SYSTEM_ROLE = "system";

/** The entry type of Pi 1.x's usage records. */
export const USAGE_ENTRY = "usage";

/** True for a `message` entry whose message is a system message. */
export function isSystemMessage(entryType: string, role: string | null | undefined): boolean {
	return entryType === "message" && role === SYSTEM_ROLE;
}

/** Whether an event is part of the conversation (read and trace show it as a parent, child or neighbour). */
export function inConversation(entryType: string, role: string | null | undefined): boolean {
	return entryType !== USAGE_ENTRY && !isSystemMessage(entryType, role);
}
