/** "Did you mean" for commands and options, the `--` hint for terms starting with "-", and --all. */
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../src/cli/args.js";
import { closest } from "../../src/text/did-you-mean.js";

describe("did you mean", () => {
	it("suggests the closest command or option, and nothing for a word unlike any", () => {
		expect(closest("serch", ["reindex", "status", "search"])).toBe("search");
		expect(closest("stauts", ["reindex", "status", "search"])).toBe("status");
		expect(closest("zzzzzz", ["reindex", "status", "search"])).toBeUndefined();
		expect(() => parseCommandLine(["serch", "x"])).toThrow(/unknown command "serch"; did you mean search\?/);
		expect(() => parseCommandLine(["search", "x", "--jsn"])).toThrow(/unknown option --jsn; did you mean --json\?/);
	});

	it("a search term that starts with '-' gets a hint about --, and after -- it is a term", () => {
		expect(() => parseCommandLine(["search", "-term"])).toThrow(/goes after --, e\.g\. pi-event-index search -- -t/);
		expect(parseCommandLine(["search", "--", "-term"]).positionals).toEqual(["-term"]);
	});

	it("--all is a global flag", () => {
		expect(parseCommandLine(["search", "x", "--all"]).globals.all).toBe(true);
		expect(parseCommandLine(["search", "x"]).globals.all).toBe(false);
	});
});
