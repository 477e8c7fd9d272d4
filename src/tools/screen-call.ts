/**
 * The call line of the tools on Pi's screen: the tool, then the query exactly as the model wrote it (no JSON
 * quoting) or the event it targets, then every filter or option given; packed into the width, continuing on more
 * lines rather than dropping a filter.
 */
import { type EventToolName, eventRef, type Paint, safe, shortenPathLeft, wrapWords } from "./screen-text.js";

type Args = Record<string, unknown>;

/** Widest a cwd filter is shown (shortened from the left). */
const CWD_COLUMNS = 40;

/** A string argument, its control characters escaped (the model's words are shown, never obeyed by the terminal). */
const str = (a: Args, key: string): string | undefined =>
	typeof a[key] === "string" ? safe(a[key] as string) : undefined;

/** The search filters as `key=value` words, in the order they matter to people. */
function searchFilterWords(a: Args): string[] {
	const words: string[] = [];
	const session = str(a, "sessionId");
	if (session) words.push(`session=${session}`);
	const cwd = str(a, "cwd");
	if (cwd) words.push(`cwd=${shortenPathLeft(cwd, CWD_COLUMNS)}`);
	const time = a.time as { from?: unknown; to?: unknown } | undefined;
	if (time && typeof time === "object" && (time.from || time.to)) {
		words.push(
			safe(`time=${typeof time.from === "string" ? time.from : ""}..${typeof time.to === "string" ? time.to : ""}`),
		);
	}
	for (const key of ["paths", "kinds", "roles", "toolNames", "branchStates", "selectionStates"]) {
		const v = a[key];
		if (Array.isArray(v) && v.length > 0) words.push(safe(`${key}=${v.join(",")}`));
	}
	if (a.errorOnly === true) words.push("errorOnly");
	return words;
}

/** The target and options of a read or trace: `019cc284-117a/253f41d2 fragment=253f41d2#0 offset=4000`. */
function targetWords(a: Args): string[] {
	const words = [eventRef(str(a, "sessionId") ?? "?", str(a, "entryId") ?? "?")];
	const fragment = str(a, "matchingFragmentId");
	if (fragment) words.push(`fragment=${fragment}`);
	for (const key of ["offset", "before", "after", "depth"])
		if (typeof a[key] === "number") words.push(`${key}=${a[key]}`);
	if (str(a, "order")) words.push(`order=${str(a, "order")}`);
	return words;
}

/** The call line(s) of one tool, each within `width`. */
export function callLines(tool: EventToolName, args: Args | undefined, width: number, paint: Paint): string[] {
	const a = args ?? {};
	if (tool === "event_search") {
		const query = str(a, "query") ?? "";
		// The query's own words wrapWords like the rest, so a long query wraps instead of hiding the filters.
		const words = query.trim() === "" ? ['""'] : query.trim().split(/\s+/);
		return wrapWords([paint.title(tool), ...words.map(paint.accent), ...searchFilterWords(a).map(paint.muted)], width);
	}
	return wrapWords(
		[paint.title(tool), ...targetWords(a).map((w, i) => (i === 0 ? paint.accent(w) : paint.muted(w)))],
		width,
	);
}
