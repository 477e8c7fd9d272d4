import { describe, expect, it } from "vitest";
import { MAX_WORD_FORMS, stem, wordForms } from "../../src/text/stem.js";

/** Groups of words that must count as the same word, in every direction. */
const SAME_WORD: string[][] = [
	["paint", "paints", "painted", "painting"],
	["fail", "fails", "failed", "failing"],
	["migrate", "migrates", "migrated", "migrating", "migration", "migrations"],
	["study", "studies", "studied", "studying"],
	["try", "tries", "tried", "trying"],
	["stop", "stops", "stopped", "stopping"],
	["commit", "commits", "committed", "committing"],
	["make", "makes", "made", "making"],
	["use", "uses", "used", "using"],
	["cache", "caches", "cached", "caching"],
	["match", "matches", "matched", "matching"],
	["fix", "fixes", "fixed", "fixing"],
	["connect", "connects", "connected", "connecting", "connection", "connections"],
	["adopt", "adopts", "adopted", "adopting", "adoption", "adoptions"],
	["delete", "deletes", "deleted", "deleting", "deletion"],
	["implement", "implements", "implemented", "implementing"],
	["enable", "enables", "enabled", "enabling"],
	["optimize", "optimized", "optimization"],
	["create", "created", "creating", "creation"],
	["control", "controls", "controlled", "controlling"],
	["install", "installs", "installed", "installing"],
	["go", "goes", "going", "went", "gone"],
	["write", "writes", "writing", "wrote", "written"],
	["child", "children"],
	["class", "classes"],
	["continue", "continued", "continuing"],
	["merge", "merged", "merging"],
	["configure", "configured", "configuring"],
];

/** Pairs that look alike but are different words, and must stay apart. */
const DIFFERENT: Array<[string, string]> = [
	["user", "use"],
	["folder", "fold"],
	["order", "ord"],
	["session", "sess"],
	["version", "vers"],
	["function", "funct"],
	["string", "str"],
	["painter", "paint"],
	["need", "ne"],
];

describe("stem", () => {
	it.each(SAME_WORD)("gives %s and its forms one key", (...group) => {
		const keys = group.map((w) => `${w}→${stem(w)}`);
		for (const w of group) expect(keys, w).toContain(`${w}→${stem(group[0])}`);
	});

	it.each(DIFFERENT)("keeps %s and %s apart", (a, b) => {
		expect(stem(a)).not.toBe(stem(b));
	});

	it("returns anything that is not a lowercase ASCII word unchanged", () => {
		for (const w of ["café", "données", "数据", "x_y", "v2", "", "Painted"]) expect(stem(w)).toBe(w);
	});
});

describe("wordForms", () => {
	it.each(SAME_WORD)("expands %s to its forms, and each form back to the base", (...group) => {
		const [base, ...forms] = group;
		for (const form of forms) {
			expect(wordForms(base), `${base} → ${form}`).toContain(form);
			expect(wordForms(form), `${form} → ${base}`).toContain(base);
		}
	});

	it("puts the word itself first and never exceeds MAX_WORD_FORMS", () => {
		for (const w of SAME_WORD.flat().concat(["configuration", "validation", "controlled", "status", "aaaaaaaaaa"])) {
			const forms = wordForms(w);
			expect(forms[0]).toBe(w);
			expect(forms.length).toBeLessThanOrEqual(MAX_WORD_FORMS);
			expect(new Set(forms).size).toBe(forms.length);
		}
	});

	it("reaches a verb from its -ion noun even where the verb does not predict the noun", () => {
		expect(wordForms("implementation")).toContain("implement");
		expect(wordForms("implementations")).toContain("implemented");
		expect(stem("implementation")).toBe(stem("implement"));
		expect(wordForms("payment")).toEqual(["payment", "payments", "paymented", "paymenting"]);
	});

	it("does not give verb forms to nouns and adjectives with a telling suffix", () => {
		expect(wordForms("currency")).toEqual(["currency", "currencies"]);
		expect(wordForms("memories")).toEqual(["memories", "memory"]);
		expect(wordForms("daily")).toEqual(["daily", "dailies"]);
		expect(wordForms("apply")).toContain("applied");
		expect(wordForms("disable")).toContain("disabled");
	});

	it("reaches the two-letter singular of a three-letter plural, without verb forms", () => {
		expect(wordForms("ads")).toContain("ad");
		expect(wordForms("ids")).toContain("id");
		expect(wordForms("ads")).not.toContain("added");
		expect(wordForms("bus")).toContain("buses");
	});

	it("doubles the final consonant only where English does", () => {
		expect(wordForms("target")).not.toContain("targetted");
		expect(wordForms("open")).not.toContain("openned");
		expect(wordForms("refer")).toContain("referred");
		expect(wordForms("cancel")).toEqual(expect.arrayContaining(["canceled", "cancelled", "canceling", "cancelling"]));
		expect(wordForms("cancelled")).toContain("cancel");
	});

	it("never adds a function word (used ↛ us)", () => {
		expect(wordForms("used")).not.toContain("us");
		expect(wordForms("uses")).not.toContain("us");
	});

	it("does not inflect -er into a verb (user ↛ use) nor -is nouns", () => {
		expect(wordForms("user")).not.toContain("use");
		expect(wordForms("analysis")).toEqual(["analysis", "analyses"]);
		expect(wordForms("basis")).toEqual(["basis"]);
	});

	it("leaves short, non-ASCII and non-letter words alone", () => {
		for (const w of ["ai", "db", "café", "数据", "v2", "x_y", "Paint", ""]) expect(wordForms(w)).toEqual([w]);
	});

	it("handles a 10,000-letter word quickly and boundedly", () => {
		const long = "ab".repeat(5000);
		const forms = wordForms(long);
		expect(forms[0]).toBe(long);
		expect(forms.length).toBeLessThanOrEqual(MAX_WORD_FORMS);
	});
});
