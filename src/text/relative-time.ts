/**
 * Relative times ("7d" = seven days before now), the one place they are read: the search `time` filter (tools and
 * CLI `--from`/`--to`/`--since`/`--until`) and the CLI `sessions` command resolve them here. Pure: `now` is passed in.
 */

/** Units of a relative time and how far back one of each goes. `m` is months (calendar), never minutes. */
const RELATIVE_UNITS = {
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
 * An ISO date, or date-time with minutes, optional seconds and fraction, and an optional offset (`Z`, `+02:00`). A
 * space may stand for the `T`. Nothing else: Date.parse also takes "0" (the year 2000) and rolls "2026-02-30" over
 * into March.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Days in `month` (1–12) of `year`. */
function daysIn(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Why `text` is no ISO date or date-time: undefined when it has not the form, "" when it is one. */
function isoProblem(text: string): string | undefined {
	const m = ISO.exec(text.trim());
	if (!m) return undefined;
	const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
	if (month < 1 || month > 12) return `has no month ${m[2]}`;
	if (day < 1 || day > daysIn(year, month)) return `has no day ${m[3]} (${m[1]}-${m[2]} has ${daysIn(year, month)})`;
	if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) {
		return "has no such time of day";
	}
	const offset = m[7]?.replace(":", "");
	if (offset && offset.toUpperCase() !== "Z" && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(3)) > 59)) {
		return "has no such UTC offset";
	}
	return "";
}

/**
 * An ISO instant for `text` (a relative time resolved against `now`, or an ISO date or date-time); otherwise
 * `problem` says what is wrong with a value of the right form (a day or time that does not exist), and is absent
 * for a value of no accepted form.
 */
export function checkTime(text: string, now: Date): { iso: string } | { problem?: string } {
	const relative = resolveRelativeTime(text, now);
	if (relative !== undefined) return { iso: relative.toISOString() };
	const problem = isoProblem(text);
	if (problem === undefined) return {};
	if (problem !== "") return { problem };
	// Date.parse gives the validated form its usual meaning: a date alone is UTC, a date-time without offset local.
	const ms = Date.parse(text.trim().replace(" ", "T"));
	return Number.isNaN(ms) ? {} : { iso: new Date(ms).toISOString() };
}

/** An ISO instant for `text` (checkTime), or undefined when it names none. */
export function resolveTime(text: string, now: Date): string | undefined {
	const checked = checkTime(text, now);
	return "iso" in checked ? checked.iso : undefined;
}
