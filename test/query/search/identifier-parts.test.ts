/**
 * Identifier parts (search-text.ts): a question names an identifier in words ("outer ref", "get context data"), the
 * session in code (`OuterRef`, `getContextData`). Through the real ingest path, what people and the model said is
 * found by the identifier's parts; raw tool output is not split, and a relaxed hit's matched terms agree with the
 * index on both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchEvents } from "../../../src/query/search.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { ALL_ROOTS_CALLER, storeWithSession, type TempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const caller = ALL_ROOTS_CALLER;
const search = (query: string) => searchEvents(store.db, { query }, caller);

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	store = await storeWithSession([
		f.header(),
		f.user("wrap the subquery in OuterRef so the annotation sees the row"),
		f.assistant("added getContextData to the list view"),
		f.toolResult("call-1", "read", "class ListView:\n    def getContextData(self):\n        return self.data"),
	]);
});
afterAll(() => store.cleanup());

describe("identifier parts", () => {
	it("finds a camelCase identifier said in words, with every term", () => {
		const r = search("outer ref");
		expect(r.relaxed).toBeUndefined();
		expect(r.hits.map((h) => h.snippet)).toEqual(["wrap the subquery in OuterRef so the annotation sees the row"]);
	});

	it("raw tool output keeps its identifiers whole: found as typed, not by the parts", () => {
		const all = search("get context data").hits.filter((h) => h.missingTerms === undefined);
		expect(all.map((h) => h.semanticKind)).toEqual(["assistant_text"]);
		expect(
			search("getContextData")
				.hits.map((h) => h.semanticKind)
				.sort(),
		).toEqual(["assistant_text", "tool_result"]);
	});

	it("a relaxed hit's matched terms agree with the index", () => {
		const r = search("get context data zeppelin");
		expect(r.relaxed).toBe(true);
		const said = r.hits.find((h) => h.semanticKind === "assistant_text");
		expect(said?.matchedTerms?.sort()).toEqual(["context", "data", "get"]);
		const output = r.hits.find((h) => h.semanticKind === "tool_result");
		expect(output?.matchedTerms).toEqual(["data"]);
	});
});
