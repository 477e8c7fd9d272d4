/** Path keys of the `paths` filter: how a named file and an asked path are keyed, and their exact tags. */
import { describe, expect, it } from "vitest";
import { pathTags, tag } from "../../src/text/fragment-tags.js";
import { askedPathKeys, storedPathKeys } from "../../src/text/path-keys.js";
import { unicode61Tokens } from "../../src/text/query-compiler.js";

describe("storedPathKeys", () => {
	it("a file inside the session's cwd: its absolute path and every trailing part seen from the cwd", () => {
		const keys = ["/repo/src/billing/retry.ts", "src/billing/retry.ts", "billing/retry.ts", "retry.ts"];
		expect(storedPathKeys("src/billing/retry.ts", "/repo")).toEqual(keys);
		expect(storedPathKeys("/repo/src/billing/retry.ts", "/repo")).toEqual(keys);
		expect(storedPathKeys("./src/x/../billing//retry.ts", "/repo/")).toEqual(keys);
	});

	it("a file outside the cwd: the trailing parts of its absolute path", () => {
		expect(storedPathKeys("../lib/a.py", "/repo/app")).toEqual(["/repo/lib/a.py", "repo/lib/a.py", "lib/a.py", "a.py"]);
		expect(storedPathKeys("/tmp/x.log", "/repo")).toEqual(["/tmp/x.log", "tmp/x.log", "x.log"]);
	});

	it("without a cwd: the trailing parts as named; nothing for no file", () => {
		expect(storedPathKeys("src/a.ts", null)).toEqual(["src/a.ts", "a.ts"]);
		expect(storedPathKeys("  ", "/repo")).toEqual([]);
		expect(storedPathKeys("/", "/repo")).toEqual([]);
		expect(storedPathKeys(".", "/repo")).toEqual([]);
	});

	it("keeps at most 16 trailing parts", () => {
		const deep = `${Array.from({ length: 30 }, (_, i) => `d${i}`).join("/")}/f.ts`;
		expect(storedPathKeys(deep, "/r")).toHaveLength(17);
	});
});

describe("askedPathKeys", () => {
	const anchors = { cwd: "/repo/app", root: "/repo" };
	it("relative: a trailing part, and the file under the caller's cwd and workspace root", () => {
		expect(askedPathKeys("./src/a.ts/", anchors)).toEqual(["src/a.ts", "/repo/app/src/a.ts", "/repo/src/a.ts"]);
	});
	it("absolute: itself; climbing out: only under the cwd and root", () => {
		expect(askedPathKeys("/repo/app/../lib/a.py", anchors)).toEqual(["/repo/lib/a.py"]);
		expect(askedPathKeys("../lib/a.py", anchors)).toEqual(["/repo/lib/a.py", "/lib/a.py"]);
	});
});

describe("path tags", () => {
	it("are single tokens, distinct for paths that differ in case, accents or punctuation", () => {
		const paths = ["src/Retry.ts", "src/retry.ts", "src/rétry.ts", "src/retry_ts", "src/retry-ts", "q/qz.ts", "𝔮.ts"];
		const tokens = paths.map((p) => tag.path(p));
		expect(new Set(tokens).size).toBe(paths.length);
		for (const t of tokens) expect(unicode61Tokens(t)).toEqual([t]);
		const text = pathTags(["src/Retry.ts"], "/repo");
		expect(unicode61Tokens(text)).toEqual(text.split(" "));
		expect(text.split(" ")).toHaveLength(3);
	});
});
