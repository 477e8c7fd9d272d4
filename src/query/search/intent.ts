/**
 * The question's intent as a prior over event kinds: "what error did we hit" wants a failing output, "what did it
 * print" a command's output, "how did we fix" an edit or write call, "which test did we run" a bash run, "pull up
 * the task" the user's request, "what did we decide" the assistant's turn (request-words.ts says which). A candidate
 * of the wanted kind has its weighted bm25 multiplied by INTENT_BOOST; the others keep theirs. Free: kind, tool and
 * error flag are on every row.
 */
import type { AskedKind } from "../../text/request-words.js";
import type { CandidateRow } from "./candidates.js";

/** Factor on the score of a candidate of the wanted kind. */
const INTENT_BOOST = 2;

const EDIT_TOOLS = new Set(["edit", "write"]);
const OUTPUT_KINDS = new Set(["tool_result", "bash_output"]);

/**
 * What a command printed: a bash call's result, or the output of a bash run of the user's. "What did it print" never
 * means an edit's acknowledgement, a file read back or a directory listing, which fill a task's outputs.
 */
function commandOutput(r: CandidateRow): boolean {
	return r.kind === "bash_output" || (r.kind === "tool_result" && r.eventToolName === "bash");
}

const WANTED: Record<AskedKind, (row: CandidateRow) => boolean> = {
	output: commandOutput,
	failure: (r) => OUTPUT_KINDS.has(r.kind) && r.isError === 1,
	edit: (r) => r.kind === "tool_call" && EDIT_TOOLS.has(r.fragmentToolName ?? ""),
	test: (r) => r.kind === "bash_command" || r.fragmentToolName === "bash" || r.eventToolName === "bash",
	request: (r) => r.kind === "user_text",
	decision: (r) => r.kind === "assistant_text",
	abandon: (r) => r.kind === "assistant_text",
};

/** Whether a row is of the kind the question asks for. */
export function wantedRow(wants: AskedKind): (row: CandidateRow) => boolean {
	return WANTED[wants];
}

/** The factor on a row's score under the question's intent (1 when it wants nothing or another kind). */
export function intentFactor(wants: AskedKind | undefined): (row: CandidateRow) => number {
	if (wants === undefined) return () => 1;
	const wanted = WANTED[wants];
	return (row) => (wanted(row) ? INTENT_BOOST : 1);
}

/** `rows` with their scores under the intent, best first. */
export function withIntent(rows: CandidateRow[], wants: AskedKind | undefined): CandidateRow[] {
	if (wants === undefined) return rows;
	const factor = intentFactor(wants);
	return rows.map((r) => ({ ...r, score: r.score * factor(r) })).sort((a, b) => a.score - b.score);
}
