/** Request words and the kind of event a question asks for (request-words.ts, through analyzeQuery). */
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/text/natural-query.js";

function analyzed(query: string) {
	const a = analyzeQuery(query);
	if ("error" in a) throw new Error(a.error);
	return { required: a.terms.filter((t) => !t.optional).map((t) => t.text), ignored: a.ignored, wants: a.wants };
}

describe("request words are optional", () => {
	it.each([
		["remind me what the repro printed for the upload widget", ["remind"]],
		["find the session where I asked about cli help", ["find", "session", "asked"]],
		["sorry, I forget: can you dig up the upload widget failure", ["sorry", "forget", "dig"]],
		["upload widget, show me the change", ["show"]],
	])("%s", (query, words) => {
		const a = analyzed(query);
		for (const w of words) {
			expect(a.ignored).toContain(w);
			expect(a.required).not.toContain(w);
		}
	});

	it("a retrieval verb inside a clause is content", () => {
		expect(analyzed("did the query find duplicated days").required).toContain("find");
		expect(analyzed("what did the adoption agency tell Caroline").required).toContain("tell");
	});

	it("print names the asking in a question about output, and is content in keywords", () => {
		expect(analyzed("what did the repro print for the upload widget?").required).not.toContain("print");
		expect(analyzed("print statement debug").required).toContain("print");
	});

	it("say names the asking in a question with an intent (a log never says it), and is content in keywords", () => {
		expect(analyzed("what did the nginx error log say about the upstream").required).not.toContain("say");
		expect(analyzed("say hello command output").required).toContain("say");
	});

	it("a conversation noun that says no which-one is content", () => {
		expect(analyzed("refresh the session token").required).toContain("session");
	});
});

describe("the kind of event a question asks for", () => {
	it.each([
		["what error did we hit with the upload widget?", "failure"],
		["what did the repro print for the upload widget?", "output"],
		["how did we fix the upload widget?", "edit"],
		["which file did we change for the upload widget", "edit"],
		["which tests did we run after the upload widget, did they pass?", "test"],
		["what did the tests say after the upload widget change?", "test"],
		["pull up the task about the upload widget", "request"],
		["what did we decide about the upload widget?", "decision"],
		["what did we try first for the upload widget?", "abandon"],
		["remind me what didn't work for the upload widget", "abandon"],
		["what did we back out of in the upload widget change?", "abandon"],
	])("%s → %s", (query, kind) => {
		expect(analyzed(query).wants).toBe(kind);
	});

	it.each([
		["borrow error in the follow module", "keywords state no intent"],
		["which test was flaky in the billing repo", "a test, not a test run"],
		["how many hook dependency errors showed up after the lint change", "a measure counts, it wants no kind"],
		["why did stripe give up waiting for our webhook", "someone else gave up, not our approach"],
	])("%s: none (%s)", (query) => {
		expect(analyzed(query).wants).toBeUndefined();
	});
});
