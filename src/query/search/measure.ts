/**
 * Questions that ask for a measure ("how many tests passed", "how old are the kids", "how long does CI take"):
 * their answer states a number, so among the relaxed tier's best events those that do are favoured (tiers.ts).
 * Bounded: one read of each event's opening, for the best CONTEXT_GROUPS events of such a question only.
 */
import { indexTokens } from "../../text/term-presence.js";
import type { QueryDb } from "../db.js";
import type { CandidateRow } from "./candidates.js";
import { fragmentOpenings } from "./coalesce.js";

/** Characters read of each event: a measure is stated early in a turn or an output. */
const MEASURE_CHARS = 2_000;

/** Number words: a measure written out ("two kids", "three mornings a week"). */
const NUMBER_WORDS = new Set(
	"one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million billion dozen half once twice".split(
		" ",
	),
);

/** The fragments among `rows` whose opening states a number (digits or a number word): a measure, or a count. */
export function statesNumber(db: QueryDb, rows: readonly CandidateRow[]): Set<number> {
	const texts = fragmentOpenings(
		db,
		rows.map((r) => r.fragmentId),
		MEASURE_CHARS,
	);
	const isNumber = (token: string) => /\d/u.test(token) || NUMBER_WORDS.has(token);
	return new Set([...texts].filter(([, text]) => indexTokens(text).some(isNumber)).map(([id]) => id));
}
