/** The fixed set of reasons a line can be skipped for (SkipReceipt.reason). Never contains line content. */
export const SKIP_REASONS = {
	/** The line is not valid JSON (Pi skips it too). */
	malformedJson: "malformed JSON",
	/** Valid JSON, but not an object (an array, string, number, boolean or null). */
	notAnObject: "not a JSON object",
	/** The first JSON line is not `{type:"session", id:string}`: Pi treats the file as invalid. */
	noHeader: "no session header",
	/** A second (or later) `type:"session"` line, e.g. Pi's `--session <empty file>` bug. */
	repeatedHeader: "repeated session header",
	/** An entry without a string `type`. */
	missingType: "missing type",
	/** A v2/v3 entry without a non-empty string `id`. */
	missingId: "missing id",
	/** Longer than `maxLineBytes`; skipped without being parsed. */
	lineTooLarge: "line too large",
} as const;

export type SkipReason = (typeof SKIP_REASONS)[keyof typeof SKIP_REASONS];
