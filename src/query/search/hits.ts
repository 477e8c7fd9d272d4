/** Stage 4: event groups → the hits the model reads (snippet from the best fragment's text). */

import type { EventSearchHit } from "../../contract.js";
import { decodeFragmentText, type StoredFragmentText } from "../../store/fragment-text.js";
import { textDictionaryOf } from "../../store/text-dictionary.js";
import { redactSecrets } from "../../text/redact.js";
import { get, type QueryDb } from "../db.js";
import { entryName } from "../entry-occurrence.js";
import { makeSnippet, snippetFromStart } from "../snippet.js";
import { type StoredText, wholeText } from "../whole-text.js";
import type { EventGroup } from "./coalesce.js";
import type { RelaxedGroup } from "./tiers.js";

/** One hit per group; `needles` are the tokens snippets centre on, `snippetChars` their size. */
export function toHit(
	db: QueryDb,
	group: EventGroup | RelaxedGroup,
	needles: string[],
	snippetChars: number,
): EventSearchHit {
	const { best, count, others } = group;
	const stored = get<{ text: StoredFragmentText }>(db, "SELECT text FROM fragments WHERE id = ?", [best.fragmentId]);
	const snippet =
		stored === undefined
			? ""
			: snippetOf(db, { id: best.fragmentId, text: stored.text, charCount: best.charCount }, needles, snippetChars);
	// An entry that a later one of its id shadows is named by its occurrence (entry-occurrence.ts), so that reading
	// the hit reads this entry.
	const entryId = entryName(db, best);
	const hit: EventSearchHit = {
		sessionId: best.sessionId,
		cwd: best.cwd,
		entryId,
		entryType: best.entryType,
		matchingFragmentId: `${entryId}#${best.ord}`,
		semanticKind: best.kind,
		timestamp: best.timestamp,
		branchState: best.branchState,
		selectionState: best.selectionState,
		snippet,
		matchingFragmentCount: count,
	};
	if (best.sessionName) hit.sessionName = best.sessionName;
	if (others.length > 0) hit.otherFragmentIds = others.map((ord) => `${entryId}#${ord}`);
	if (best.role) hit.role = best.role;
	const toolName = best.fragmentToolName ?? best.eventToolName;
	if (toolName) hit.toolName = toolName;
	if (best.isError) hit.isError = true;
	if ("matched" in group) {
		hit.matchedTerms = group.matched.map((t) => t.label);
		hit.missingTerms = group.missing.map((t) => t.label);
	}
	if (group.taskRequestId) hit.taskRequestId = group.taskRequestId;
	if (group.forkCopies) hit.forkCopies = group.forkCopies.map((c) => ({ sessionId: c.sessionId, entryId: c.entryId }));
	return hit;
}

/** The snippet from the stored head when it holds it, otherwise from the whole text (read from the session file). */
function snippetOf(db: QueryDb, stored: StoredText, needles: string[], snippetChars: number): string {
	const head = decodeFragmentText(stored.text, textDictionaryOf(db));
	// A head holding an unmasked secret (indexed with redaction off) takes the masked whole text's path.
	const fromHead =
		redactSecrets(head) === head ? snippetFromStart(head, stored.charCount, needles, snippetChars) : undefined;
	return fromHead ?? makeSnippet(wholeText(db, stored, head).text, needles, snippetChars);
}
