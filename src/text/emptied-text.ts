/** The one sentence that says which filters emptied a search (tools and CLI, each naming filters its own way). */
import type { EmptiedBy } from "../contract.js";

/** "the filter kinds excludes every event that holds its terms", with `name` giving each filter's name. */
export function emptiedText(e: EmptiedBy, name: (field: string) => string): string {
	const names = e.filters.map(name);
	const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
	const what = "every event that holds its terms";
	if (names.length === 1) return `the filter ${list}${e.alone ? "" : ", together with the others,"} excludes ${what}`;
	return e.alone ? `each of the filters ${list} excludes ${what}` : `the filters ${list} together exclude ${what}`;
}
