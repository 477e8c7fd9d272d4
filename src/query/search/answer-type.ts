/**
 * Questions whose words say what kind of answer they want. A measure ("how many tests passed", "how old are the
 * kids", "how long does CI take"): the answer states a number. A name ("which test was flaky", "which hook
 * re-renders"): in a coding conversation the answer names it as code does (`src/charts/useChartData.ts`,
 * `load_events.py`, a code span). Among the relaxed tier's best candidates those that state one are favoured
 * (tiers.ts). Bounded: one read of the opening of each of the best ANSWER_ROWS candidates, for such a question only.
 */

import type { QuestionAsks } from "../../text/natural-query.js";
import { STORED_HEAD_CHARS } from "../../text/stored-head.js";
import type { QueryDb } from "../db.js";
import type { CandidateRow } from "./candidates.js";
import { fragmentOpenings } from "./coalesce.js";

/** Characters read of each event (its stored head): an answer is stated early in a turn or an output. */
const ANSWER_CHARS = STORED_HEAD_CHARS;

/** A digit, or a number written out ("two kids", "three mornings a week"), as a whole ASCII word. */
const NUMBER =
	/\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half|once|twice)\b/iu;

/** A name written as code: dotted, slashed or snake_case (`a.ts`, `src/x`, `load_events`), camelCase, a code span. */
const CODE_NAME = /[A-Za-z]\w*[._/][A-Za-z]\w*|[a-z][A-Z]|`/u;

/** Said, not printed: every tool output is full of paths and identifiers. */
const SAID = new Set(["user_text", "assistant_text"]);

/** The fragments among `rows` whose opening states what `asks` wants. */
export function statesAnswer(db: QueryDb, rows: readonly CandidateRow[], asks: QuestionAsks): Set<number> {
	const eligible = asks === "name" ? rows.filter((r) => SAID.has(r.kind)) : rows;
	const texts = fragmentOpenings(
		db,
		eligible.map((r) => r.fragmentId),
		ANSWER_CHARS,
	);
	const states = asks === "measure" ? NUMBER : CODE_NAME;
	return new Set([...texts].filter(([, text]) => states.test(text)).map(([id]) => id));
}
