/**
 * Relative times ("7d" = seven days before now), the one place they are read: the search `time` filter (tools and
 * CLI `--from`/`--to`/`--since`/`--until`) and the CLI `sessions` command resolve them here. Pure: `now` is passed in.
 */

/** Units of a relative time and how far back one of each goes. `m` is months (calendar), never minutes. */
export const RELATIVE_UNITS = {
	h: "hours",
	d: "days",
	w: "weeks",
	m: "months",
} as const;

/** A unit letter. */
export type RelativeUnit = keyof typeof RELATIVE_UNITS;

/** One sentence describing the accepted relative forms (schema, help and docs derive from it). */
export const RELATIVE_TIME_HELP = `or an age back from now: a number and h (hours), d (days), w (weeks) or m (months), e.g. 7d`;

/** What a time value may be, absolute or relative (the time filter's schema and its errors derive from it). */
export const TIME_VALUE_HELP = `an ISO date or date-time, e.g. 2026-01-31 or 2026-01-31T12:00:00Z, ${RELATIVE_TIME_HELP}`;

const PATTERN = /^(\d{1,6})\s*([hdwm])$/i;

/** `{ amount, unit }` when `text` is a relative time such as "7d" or "12h", else undefined. */
export function parseRelativeTime(text: string): { amount: number; unit: RelativeUnit } | undefined {
	const m = PATTERN.exec(text.trim());
	if (!m) return undefined;
	return { amount: Number(m[1]), unit: (m[2] as string).toLowerCase() as RelativeUnit };
}

/** The instant `text` (a relative time) names, counted back from `now`; undefined when it is not one. */
export function resolveRelativeTime(text: string, now: Date): Date | undefined {
	const rel = parseRelativeTime(text);
	if (rel === undefined) return undefined;
	const t = new Date(now.getTime());
	const hour = 3_600_000;
	switch (rel.unit) {
		case "h":
			return new Date(t.getTime() - rel.amount * hour);
		case "d":
			return new Date(t.getTime() - rel.amount * 24 * hour);
		case "w":
			return new Date(t.getTime() - rel.amount * 7 * 24 * hour);
		case "m":
			// Calendar months: 1m on March 31 is the last day of February (the day clamps, it never spills over).
			return monthsBack(t, rel.amount);
	}
}

function monthsBack(t: Date, months: number): Date {
	const day = t.getUTCDate();
	const out = new Date(t.getTime());
	out.setUTCDate(1);
	out.setUTCMonth(out.getUTCMonth() - months);
	const lastDay = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate();
	out.setUTCDate(Math.min(day, lastDay));
	return out;
}

/**
 * An ISO instant for `text`: a relative time resolved against `now`, or any date Date.parse accepts. Undefined when
 * it is neither.
 */
export function resolveTime(text: string, now: Date): string | undefined {
	const relative = resolveRelativeTime(text, now);
	if (relative !== undefined) return relative.toISOString();
	const ms = Date.parse(text);
	return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
