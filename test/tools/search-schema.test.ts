/** The search surface is derived from the filter declarations: schema, CLI flags and prompt sentence. */
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/args.js";
import { searchRequest } from "../../src/cli/query.js";
import { SEARCH_FILTERS } from "../../src/query/search/filters.js";
import { SEARCH_PROMPT } from "../../src/tools/prompts.js";
import { searchParameters } from "../../src/tools/schemas.js";

describe("search filters declared once", () => {
	it("the tool schema has the query and exactly the declared filters", () => {
		expect(Object.keys(searchParameters.properties).sort()).toEqual(
			["query", ...SEARCH_FILTERS.map((f) => f.field)].sort(),
		);
	});

	it("the CLI has one flag per declared flag, and the flags build the request", () => {
		const flags = SEARCH_FILTERS.flatMap((f) => f.flags.map((x) => x.flag));
		for (const flag of flags) expect(Object.keys(COMMANDS.search.options)).toContain(flag);
		const req = searchRequest(
			["deploy", "now"],
			{ cwd: "app", from: "2025-01-01", "error-only": true, role: ["user"] },
			"/home/me",
		);
		expect(req).toEqual({
			query: "deploy now",
			cwd: "/home/me/app",
			time: { from: "2025-01-01" },
			errorOnly: true,
			roles: ["user"],
		});
	});

	it("the prompt names every filter", () => {
		for (const f of SEARCH_FILTERS) expect(SEARCH_PROMPT.description).toContain(f.promptName);
	});
});
