/**
 * What a fragment id means on disk: `slot × ID_STRIDE + weight class`, the class being the fragment's kind weight ×
 * length factor (docs/ranking.md, "Bounded work"), so a ranked full-text query weighs a row without any join. These
 * tables are therefore part of the index format: test/store/fragment-ids.test.ts derives the scheme's fingerprint
 * and fails when it changes while INDEX_FORMAT does not. Also the columns of fragments_fts.
 */
import type { SemanticKind } from "../contract.js";

/** What people and the model said outranks what tools were asked, which outranks what tools printed. */
const KIND_WEIGHTS: Readonly<Record<SemanticKind, number>> = {
	user_text: 1,
	assistant_text: 1,
	compaction_summary: 1,
	branch_summary: 1,
	custom_message: 1,
	session_name: 1,
	label: 1,
	tool_call: 0.6,
	bash_command: 0.6,
	custom_data: 0.6,
	tool_result: 0.35,
	bash_output: 0.35,
};

/** Weight of a kind this version does not know (a newer index format): ranked like tool output. */
const UNKNOWN_KIND_WEIGHT = 0.35;

/** Fragments up to this many code points are not penalized for length. */
const LENGTH_FREE_CHARS = 1000;

/**
 * Length steps: each doubling past LENGTH_FREE_CHARS multiplies by 1/√2 (a 40,000-character output gets 0.125),
 * capped at 2^10 doublings. A step function rather than a sqrt so SQLite needs no math functions.
 */
const LENGTH_STEPS: readonly { upTo: number; factor: number }[] = Array.from({ length: 11 }, (_, k) => ({
	upTo: LENGTH_FREE_CHARS * 2 ** k,
	factor: Math.SQRT1_2 ** k,
}));
const LONGEST_FACTOR = Math.SQRT1_2 ** LENGTH_STEPS.length;

const CLASS_WEIGHTS = [...new Set([...Object.values(KIND_WEIGHTS), UNKNOWN_KIND_WEIGHT])].sort((a, b) => b - a);
const STEP_FACTORS = [...LENGTH_STEPS.map((s) => s.factor), LONGEST_FACTOR];

/**
 * The weight classes, derived from the weight tables above: kindWeight × lengthFactor of every fragment of a class.
 * A fragment's class is its id modulo ID_STRIDE, so a ranked query weighs a row without any join.
 */
export const WEIGHT_CLASSES: readonly number[] = CLASS_WEIGHTS.flatMap((w) => STEP_FACTORS.map((f) => w * f));

/**
 * Fragment ids (rowids of fragments_fts) are `slot × ID_STRIDE + weight class`: slots count up in insertion order,
 * so ids still order fragments oldest to newest, and a span of ids holds a span / ID_STRIDE fragments at most. No
 * wider than the classes: every posting stores the gap to the previous id, and a stride of 64 instead of 36 cost
 * 20 MiB of FTS data on 1 GB (gaps past 127 take a second byte).
 */
export const ID_STRIDE = WEIGHT_CLASSES.length;

/** How many fragments a span of `ids` consecutive ids holds at most: the unit of every count taken from ids. */
export function fragmentsInIds(ids: number): number {
	return ids / ID_STRIDE;
}

/** The weight class of a fragment of this kind and length (its id modulo ID_STRIDE). */
export function weightClass(kind: string, charCount: number): number {
	const step = LENGTH_STEPS.findIndex((s) => charCount <= s.upTo);
	return CLASS_WEIGHTS.indexOf(kindWeight(kind)) * STEP_FACTORS.length + (step < 0 ? LENGTH_STEPS.length : step);
}

/** The bm25 weight of a fragment of weight class `weightClassIndex` (unknown classes weigh like tool output). */
export function rowWeight(weightClassIndex: number): number {
	return WEIGHT_CLASSES[weightClassIndex] ?? UNKNOWN_KIND_WEIGHT;
}

/** The row weight of the fragment with this id. */
export function rowWeightOfId(id: number): number {
	return rowWeight(id % ID_STRIDE);
}

/** The text column of fragments_fts: every fragment's text, column 0 (FTS5 writes no column number for it). */
export const BODY_COLUMN = "body";
/** The filter-token column of fragments_fts (src/text/fragment-tags.ts); its bm25 weight is 0. */
export const TAGS_COLUMN = "tags";

/** All columns of fragments_fts in table order (migration 0007 spells them out; a test checks they agree). */
export const FTS_COLUMNS: readonly string[] = [BODY_COLUMN, TAGS_COLUMN];

/**
 * The weighted bm25 of a row of a `fragments_fts` query, in SQL: bm25 with the text column weighted by the row
 * weight of the row's id (a CASE over WEIGHT_CLASSES; SQLite has no math functions to rely on) and the tags by 0.
 * FTS5's bm25 reads its column weights again on every row, so a per-row weight ranks exactly as format 3's 36 text
 * columns did, each weighted by its class: inside the term-frequency saturation, where a long output that holds the
 * words again and again still counts them (a factor applied to bm25 outside it lost such outputs on the ranking set).
 */
export const WEIGHTED_BM25 = `bm25(fragments_fts, CASE rowid % ${ID_STRIDE} ${WEIGHT_CLASSES.map(
	(_, i) => `WHEN ${i} THEN ${sqlNumber(rowWeight(i))}`,
).join(" ")} ELSE ${sqlNumber(rowWeight(-1))} END, 0.0)`;

/** The weight of a semantic kind. */
export function kindWeight(kind: string): number {
	return (KIND_WEIGHTS as Record<string, number>)[kind] ?? UNKNOWN_KIND_WEIGHT;
}

/** The length factor of a fragment of `charCount` code points (1 for short fragments, smaller for long ones). */
export function lengthFactor(charCount: number): number {
	for (const step of LENGTH_STEPS) if (charCount <= step.upTo) return step.factor;
	return LONGEST_FACTOR;
}

function sqlNumber(n: number): string {
	return Number.isInteger(n) ? `${n}.0` : String(n);
}

/**
 * Column filter restricting an FTS5 expression to the text columns (never the tags). Costly (FTS5 then decodes
 * position lists), so only used for query words that look like tag tokens (fragment-tags.ts).
 */
export function textColumns(expr: string): string {
	return `(- {${TAGS_COLUMN}} : (${expr}))`;
}
