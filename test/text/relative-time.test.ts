/**
 * Relative times ("7d") resolved against now in one pure module, and accepted by the search `time` filter, whose
 * declaration the tool schema derives from; enum filters reject unknown values with the allowed ones and a
 * "did you mean", the error carrying its field as data.
 */
import { describe, expect, it } from "vitest";
import { parseFilters } from "../../src/query/search/filters.js";
import {
	parseRelativeTime,
	RELATIVE_TIME_HELP,
	resolveRelativeTime,
	resolveTime,
	TIME_VALUE_HELP,
} from "../../src/text/relative-time.js";
import { searchParameters } from "../../src/tools/schemas.js";
import { rejection } from "../helpers/query-error.js";

const NOW = new Date("2026-03-31T12:00:00.000Z");

describe("relative times", () => {
	it("h, d, w and m (calendar months, the day clamped) count back from now", () => {
		expect(resolveRelativeTime("12h", NOW)?.toISOString()).toBe("2026-03-31T00:00:00.000Z");
		expect(resolveRelativeTime("7d", NOW)?.toISOString()).toBe("2026-03-24T12:00:00.000Z");
		expect(resolveRelativeTime("2w", NOW)?.toISOString()).toBe("2026-03-17T12:00:00.000Z");
		expect(resolveRelativeTime("1m", NOW)?.toISOString()).toBe("2026-02-28T12:00:00.000Z");
		expect(resolveRelativeTime("13m", NOW)?.toISOString()).toBe("2025-02-28T12:00:00.000Z");
		expect(resolveRelativeTime(" 3D ", NOW)?.toISOString()).toBe("2026-03-28T12:00:00.000Z");
		expect(resolveRelativeTime("0d", NOW)?.toISOString()).toBe(NOW.toISOString());
	});

	it("anything else is not relative; resolveTime falls back to dates", () => {
		for (const text of ["7", "d", "7y", "7 days", "-7d", "1.5d", "yesterday"]) {
			expect(parseRelativeTime(text), text).toBeUndefined();
		}
		expect(resolveTime("2026-01-31", NOW)).toBe("2026-01-31T00:00:00.000Z");
		expect(resolveTime("yesterday", NOW)).toBeUndefined();
	});
});

describe("the time filter accepts relative times (tools and CLI alike)", () => {
	it("from/to resolve against now; a range in the wrong order is rejected with its field", () => {
		const [time] = parseFilters({ query: "x", time: { from: "2w", to: "7d" } }, NOW);
		expect(time?.value).toEqual({ from: "2026-03-17T12:00:00.000Z", to: "2026-03-24T12:00:00.000Z" });
		const reversed = rejection(() => parseFilters({ query: "x", time: { from: "7d", to: "2w" } }, NOW));
		expect(reversed.field).toBe("time.from");
		const bad = rejection(() => parseFilters({ query: "x", time: { from: "last week" } }, NOW));
		expect(bad.field).toBe("time.from");
		expect(bad.message).toMatch(/^"time\.from" must be an ISO date .*an age back from now.*7d/);
	});

	it("the tool schema's from and to, derived from the declaration, say what a time may be as its errors do", () => {
		const props = searchParameters.properties as Record<string, unknown>;
		const time = props.time as { properties: Record<string, { description: string }> };
		expect(Object.keys(time.properties).sort()).toEqual(["from", "to"]);
		for (const end of Object.values(time.properties)) {
			expect(end.description).toContain(TIME_VALUE_HELP);
			expect(end.description).toContain(RELATIVE_TIME_HELP);
			expect(end.description).toMatch(/h \(hours\), d \(days\), w \(weeks\) or m \(months\)/);
			expect(end.description).toContain("inclusive");
		}
		const bad = rejection(() => parseFilters({ query: "x", time: { to: "someday" } }, NOW));
		expect(bad.message).toBe(`"time.to" must be ${TIME_VALUE_HELP}.`);
	});
});

describe("enum filters", () => {
	it("kinds, roles and states reject unknown values with the allowed ones and a did-you-mean", () => {
		const kind = rejection(() => parseFilters({ query: "x", kinds: ["usertext"] }));
		expect(kind.field).toBe("kinds");
		expect(kind.message).toMatch(/^"kinds" has unknown value\(s\) usertext; did you mean user_text\?; use user_text, /);
		const role = rejection(() => parseFilters({ query: "x", roles: ["asistant"] }));
		expect(role.message).toMatch(/did you mean assistant\?; use user, assistant, toolResult, bashExecution, custom/);
		const branch = rejection(() => parseFilters({ query: "x", branchStates: ["selectd" as "selected"] }));
		expect(branch.message).toMatch(/did you mean selected\?/);
		// Entry types stay valid kinds.
		expect(parseFilters({ query: "x", kinds: ["compaction", "user_text"] })).toHaveLength(1);
	});

	it("the tool schema lists the allowed kinds and roles", () => {
		const props = searchParameters.properties as Record<string, { items?: { enum?: string[] } }>;
		expect(props.kinds?.items?.enum).toEqual(expect.arrayContaining(["user_text", "compaction"]));
		expect(props.roles?.items?.enum).toEqual(["user", "assistant", "toolResult", "bashExecution", "custom"]);
	});
});
