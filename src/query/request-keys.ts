/**
 * Unknown request keys are errors. A misspelled filter (`kind` for `kinds`, `time.since` for `time.from`) used to be
 * ignored, so the caller believed it had filtered. The tool schemas allow extra keys on purpose: Pi's own validation
 * would echo every argument back (unbounded) and name no valid key; this check names the key and the nearest valid
 * one, within the error budget.
 */
import { closest, editDistance } from "../text/did-you-mean.js";
import { echo, invalidField } from "./errors.js";

/** Characters of an unknown key compared with the valid ones (a 100,000-character key costs no more than this). */
const COMPARED_CHARS = 64;

/** Lower case without `_` and `-`: `tool_names` and `ToolNames` are near `toolNames`. */
const folded = (key: string) => key.slice(0, COMPARED_CHARS).toLowerCase().replace(/[_-]/g, "");

/** The valid key nearest to `key`: an alias's target, a close spelling, else the least edit distance. */
function nearestKey(key: string, known: readonly string[], aliases: Readonly<Record<string, string>> = {}): string {
	const alias = Object.hasOwn(aliases, key) ? aliases[key] : undefined;
	if (alias !== undefined) return alias;
	const byFolded = new Map(known.map((k) => [folded(k), k]));
	const near = closest(folded(key), [...byFolded.keys()]);
	if (near !== undefined) return byFolded.get(near) as string;
	// A part of a key (`fragmentId` for `matchingFragmentId`) or a key with more around it (`sessionIdPrefix`).
	const f = folded(key);
	const within = known.find((k) => f.length >= 3 && (folded(k).includes(f) || f.includes(folded(k))));
	if (within !== undefined) return within;
	let best = known[0] as string;
	let bestDistance = Number.POSITIVE_INFINITY;
	for (const k of known) {
		const d = editDistance(folded(key), folded(k));
		if (d < bestDistance) [best, bestDistance] = [k, d];
	}
	return best;
}

/**
 * Throws a QueryError naming the first key of `req` not in `known` (as `prefix` + key, e.g. "time.since") and the
 * nearest valid one; `aliases` maps another name of a key (the CLI's `since`) to it.
 */
export function checkKeys(
	req: object,
	known: readonly string[],
	what: string,
	{ prefix = "", aliases = {} }: { prefix?: string; aliases?: Readonly<Record<string, string>> } = {},
): void {
	for (const key of Object.keys(req)) {
		if (known.includes(key)) continue;
		const nearest = nearestKey(key, known, aliases);
		throw invalidField(
			`${prefix}${echo(key)}`,
			`is not a key of ${what}; the nearest is "${prefix}${nearest}" (keys: ${known.join(", ")}).`,
		);
	}
}
