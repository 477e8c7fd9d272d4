/**
 * Questions that ask for a measure ("how many tests passed", "how old are the kids", "how long does CI take"):
 * their answer states a number, so among the relaxed tier's best candidates those that do are favoured (tiers.ts).
 * Bounded: one read of the opening of each of the best MEASURE_ROWS candidates, for such a question only.
 */
import type { QueryDb } from "../db.js";
import type { CandidateRow } from "./candidates.js";
import { fragmentOpenings } from "./coalesce.js";

/** Characters read of each event: a measure is stated early in a turn or an output. */
const MEASURE_CHARS = 2_000;

/** A digit, or a number written out ("two kids", "three mornings a week"), as a whole ASCII word. */
const NUMBER =
	/\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half|once|twice)\b/iu;

/** The fragments among `rows` whose opening states a number: a measure, or a count. */
export function statesNumber(db: QueryDb, rows: readonly CandidateRow[]): Set<number> {
	const texts = fragmentOpenings(
		db,
		rows.map((r) => r.fragmentId),
		MEASURE_CHARS,
	);
	return new Set([...texts].filter(([, text]) => NUMBER.test(text)).map(([id]) => id));
}
