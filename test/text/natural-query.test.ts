import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lowerLikeUnicode61 } from "../../src/text/fold.js";
import { type AnalyzedQuery, analyzeQuery, type QueryTerm } from "../../src/text/natural-query.js";
import { compileQuery, unicode61Tokens } from "../../src/text/query-compiler.js";
import { MAX_WORD_FORMS } from "../../src/text/stem.js";
import { ftsFixture } from "../store/temp-store.js";

function analyzed(query: string): AnalyzedQuery {
	const r = analyzeQuery(query);
	if ("error" in r) throw new Error(`expected ${JSON.stringify(query)} to analyse: ${r.error}`);
	return r;
}

/** term text → its variants, prefix and optional flag, in a compact comparable form. */
function units(query: string): string[] {
	return analyzed(query).terms.map(show);
}

function show(t: QueryTerm): string {
	return `${t.optional ? "?" : ""}${t.variants.join("|")}${t.prefix === undefined ? "" : ` ${t.prefix}*`}`;
}

/** One unit as an FTS5 expression: any variant, or the prefix. How search-core may compile it; here to test. */
function unitMatch(t: QueryTerm): string {
	const parts = t.variants.map((v) => `"${v}"`);
	if (t.prefix !== undefined) parts.push(`"${t.prefix}"*`);
	return `(${parts.join(" OR ")})`;
}

describe("analyzeQuery: natural phrasing", () => {
	it("makes question and function words optional and lists them as ignored", () => {
		const r = analyzed("When did Caroline go to the support group?");
		expect(r.terms.filter((t) => !t.optional).map((t) => t.text)).toEqual(["caroline", "go", "support", "group"]);
		expect(r.ignored).toEqual(["when", "did", "to", "the"]);
		expect(r.terms.find((t) => t.text === "the")).toEqual({ text: "the", variants: ["the"], optional: true });
	});

	it.each([
		["how do I fix failing migrations", ["how", "do", "i"]],
		["what was the error we got", ["what", "was", "the", "we"]],
		["Didn’t it work?", ["didn't", "it"]],
	])("%s ignores %j", (query, ignored) => {
		expect(analyzed(query).ignored).toEqual(ignored);
	});

	it.each(["the", "what was the", "When did we?", "it's"])(
		"keeps a query of only function words (%s) as required words",
		(query) => {
			const r = analyzed(query);
			expect(r.terms.length).toBeGreaterThan(0);
			expect(r.terms.every((t) => !t.optional)).toBe(true);
			expect(r.ignored).toEqual([]);
		},
	);

	it.each([
		["what did Caroline paint in May", ["caroline", "paint", "may"]],
		["deploys since May?", ["deploys", "may"]],
		["May I see the logs", ["see", "logs"]],
		["the deploy may fail", ["deploy", "fail"]],
	])("%s: a capitalised May after the first word is the month, a required exact word", (query, required) => {
		const r = analyzed(query);
		expect(r.terms.filter((t) => !t.optional).map((t) => t.text)).toEqual(required);
		const may = r.terms.find((t) => t.text === "may");
		if (required.includes("may")) expect(may).toEqual({ text: "may", variants: ["may"], optional: false });
	});

	it.each([
		["how long does the pipeline take", ["pipeline", "take"], "measure"],
		["How old are Melanie's kids?", ["melanie", "kids"], "measure"],
		["how many tests passed", ["tests", "passed"], "measure"],
		["how to fix the build", ["fix", "build"], undefined],
		["what is the long test", ["long", "test"], undefined],
		["Which hook re-renders the dashboard?", ["hook", "re renders", "dashboard"], "name"],
		["the hook which re-renders", ["hook", "re renders"], undefined],
	])("%s: what the question asks for (the word after how is optional)", (query, required, asks) => {
		const r = analyzed(query);
		expect(r.terms.filter((t) => !t.optional).map((t) => t.text)).toEqual(required);
		expect(r.asks).toBe(asks);
	});

	it("keeps function words optional when a quoted phrase carries the query", () => {
		const r = analyzed('the "staging cluster"');
		expect(units('the "staging cluster"')).toEqual(["?the"]);
		expect(r.phrases.map(show)).toEqual(["staging cluster"]);
	});

	it.each([
		["painted", "painted|paint|paints|painting paint*"],
		["paint", "paint|paints|painted|painting paint*"],
		["failing", "failing|fail|failings|fails|failed fail*"],
		["migrations", "migrations|migration|migrate|migrates|migrated|migrating migrat*"],
		["studies", "studies|study|studied|studying stud*"],
		["went", "went|go|goes|going|gone"],
		["uses", "uses|use|used|using"],
	])("inflects %s (exact form first)", (query, expected) => {
		expect(units(query)).toEqual([expected]);
	});

	it.each([
		["RETRY_BUDGET_MS", "retry budget ms"],
		["parseChunk", "parsechunk"],
		["v0.73.1", "v0 73 1"],
		["0.73", "0 73"],
		["node.js", "node js"],
		["GitHub", "github"],
		["API", "api"],
		["ERRORS", "errors"],
		["v2", "v2"],
		["_private", "private"],
		["x-request-id", "x request id"],
		["e2e", "e2e"],
	])("matches the identifier %s exactly, as one phrase unit, without a prefix", (query, text) => {
		expect(analyzed(query).terms).toEqual([{ text, variants: [text], optional: false }]);
	});

	it("treats a sentence-final dot or question mark as punctuation, not an identifier", () => {
		expect(units("migrations.")[0]).toContain("migrate");
		expect(units("painted?")[0]).toContain("paint");
	});

	it("drops the possessive 's", () => {
		expect(units("Caroline's")[0]).toMatch(/^caroline\|/);
		expect(units("Caroline’s")[0]).toMatch(/^caroline\|/);
	});

	it("keeps words not typed in plain ASCII letters exact, lowercased, accents left for SQLite to fold", () => {
		expect(units("Crème données РАБОТА ΟΔΟΣ データ")).toEqual(["crème", "données", "работа", "οδοσ", "デー ータ"]);
	});

	it("keeps CJK segmentation: bigram phrases, a lone character as a prefix", () => {
		expect(units("数据库")).toEqual(["数据 据库"]);
		expect(units("中文")).toEqual(["中文"]);
		expect(units("字")).toEqual(["字 字*"]);
		expect(units("abc中")).toEqual(["abc 中 abc 中*"]);
	});

	it("keeps quoted phrases exact, required and uninflected, stopwords included", () => {
		const r = analyzed('"deploy the staging" "painted" migrations');
		expect(r.phrases).toEqual([
			{ text: "deploy the staging", variants: ["deploy the staging"], optional: false },
			{ text: "painted", variants: ["painted"], optional: false },
		]);
		expect(r.terms.map((t) => t.text)).toEqual(["migrations"]);
		expect(analyzed('"数据 库"').phrases.map(show)).toEqual(["数据 据 库 数据 据 库*"]);
	});

	it("removes duplicate words", () => {
		expect(analyzed("error Error ERROR error").terms.map((t) => t.text)).toEqual(["error"]);
		expect(analyzed('"a b" "A B"').phrases).toHaveLength(1);
	});

	it("bounds every unit to MAX_WORD_FORMS variants", () => {
		const r = analyzed("configuration validation controlled installed deleted status settings");
		for (const t of r.terms) expect(t.variants.length, t.text).toBeLessThanOrEqual(MAX_WORD_FORMS);
	});
});

describe("analyzeQuery: hostile input", () => {
	it.each([
		"",
		"   ",
		'""',
		"!!! ???",
		"🚀",
		".".repeat(10_000),
		Array.from({ length: 65 }, (_, i) => `w${i}`).join(" "),
		"word ".repeat(2000),
	])("fails %# with compileQuery's own message", (query) => {
		const r = analyzeQuery(query);
		const c = compileQuery(query);
		expect(c.ok).toBe(false);
		expect(r).toEqual({ error: !c.ok && c.error });
	});

	it("rejects a non-string query with a clear message", () => {
		expect(analyzeQuery(42 as unknown as string)).toEqual({ error: "The search query must be a string." });
	});

	it("analyses a 10,000-character segment of punctuation between two letters", () => {
		expect(units(`a${"!".repeat(10_000)}b`)).toEqual(["a b"]);
		expect(analyzed(`did${"’".repeat(10_000)}`).ignored).toEqual([]);
	});

	it("analyses one 10,000-character word", () => {
		const r = analyzed("ab".repeat(5000));
		expect(r.terms).toHaveLength(1);
		expect(r.terms[0].variants.length).toBeLessThanOrEqual(MAX_WORD_FORMS);
	});

	it.each([
		['"unbalanced foo', ["unbalanced", "foo"]],
		['a "b c" "d', ["d"]],
		["deploy OR staging NOT prod", ["deploy", "staging", "prod"]],
		["body:deploy NEAR(x y) foo* ^bar -baz", ["body deploy", "near x", "y", "foo", "bar", "baz"]],
		["'; DROP TABLE x; --", ["drop", "table", "x"]],
		["deploy 🚀 🥲", ["deploy", "🥲"]],
	])("treats FTS and SQL syntax in %s as plain words", (query, required) => {
		const r = analyzed(query);
		expect(r.terms.filter((t) => !t.optional).map((t) => t.text)).toEqual(required);
	});
});

describe("analyzeQuery against a real FTS5 table", () => {
	let fts: Awaited<ReturnType<typeof ftsFixture>>;
	beforeAll(async () => {
		fts = await ftsFixture();
	});
	afterAll(() => fts.close());

	it("lowercases exactly as unicode61 does, for every code point JavaScript lowercases", () => {
		const db = fts.db;
		db.exec("CREATE VIRTUAL TABLE lc USING fts5(body, tokenize='unicode61 remove_diacritics 2')");
		db.exec("CREATE VIRTUAL TABLE lc_v USING fts5vocab(lc, 'instance')");
		const ins = db.prepare<[number, string]>("INSERT INTO lc(rowid, body) VALUES (?, ?)");
		const cps: number[] = [];
		for (let cp = 0x41; cp <= 0x10ffff; cp++) {
			if (cp >= 0xd800 && cp <= 0xdfff) continue;
			const ch = String.fromCodePoint(cp);
			if (ch.toLowerCase() !== ch) cps.push(cp);
		}
		db.transaction(() => {
			for (const cp of cps) {
				const ch = String.fromCodePoint(cp);
				ins.run(cp * 2, `q${ch}q`);
				ins.run(cp * 2 + 1, `q${lowerLikeUnicode61(ch)}q`);
			}
		});
		const stored = new Map(
			db
				.prepare<[], { doc: number; t: string }>("SELECT doc, group_concat(term, ' ') AS t FROM lc_v GROUP BY doc")
				.all()
				.map((r) => [r.doc, r.t]),
		);
		const differ = cps.filter((cp) => stored.get(cp * 2) !== stored.get(cp * 2 + 1)).map((cp) => cp.toString(16));
		expect(cps.length).toBeGreaterThan(1000);
		expect(differ).toEqual([]);
		// Final sigma is not applied: unicode61 stores Σ as σ wherever it stands.
		expect(lowerLikeUnicode61("ΟΔΟΣ")).toBe("οδοσ");
	});

	it("finds inflected forms and identifiers in indexed text", () => {
		const painted = fts.add("We painted the fence on Saturday.");
		const migration = fts.add("the migration failed: RETRY_BUDGET_MS exceeded in parseChunk (v0.73.1)");
		const studied = fts.add("Caroline studied 数据库连接 all night");
		const find = (query: string) => {
			const r = analyzed(query);
			const required = [...r.terms.filter((t) => !t.optional), ...r.phrases];
			return fts.raw(required.map(unitMatch).join(" AND "));
		};
		expect(find("When did we paint the fence?")).toEqual([painted]);
		expect(find("failing migrations")).toEqual([migration]);
		expect(find("retry_budget_ms parseChunk v0.73.1")).toEqual([migration]);
		expect(find("what did Caroline's study 数据库?")).toEqual([studied]);
		// Identifiers stay phrases: the split tokens in another order do not match.
		expect(find("MS_BUDGET_RETRY")).toEqual([]);
	});

	it("matches a word with a joinable prefix written joined or hyphenated (re-run, pre-process)", () => {
		const hyphenated = fts.add("so re-running a day is idempotent");
		const joined = fts.add("preprocessing took an hour");
		const base = fts.add("re-run the backfill");
		const find = (query: string) =>
			fts.raw(
				analyzed(query)
					.terms.filter((t) => !t.optional)
					.map(unitMatch)
					.join(" AND "),
			);
		expect(find("is rerunning the load safe?").includes(hyphenated)).toBe(false); // `load`, `safe` absent
		expect(find("rerunning")).toEqual([hyphenated, base]);
		expect(find("rerun")).toEqual([base]);
		expect(find("pre-processing")).toEqual([joined]);
		// A short remainder is not a word of its own: `redo` is not split.
		expect(units("redo")).toEqual(["redo|redos|redoed|redoing redo*"]);
	});

	const PIECES = [
		'"',
		'""',
		"'",
		"’s",
		"(",
		")",
		"*",
		"^",
		"+",
		"-",
		":",
		".",
		"_",
		"?",
		"NEAR",
		"AND",
		"OR",
		"NOT",
		"body:",
		"\\",
		"\u0000",
		"\t",
		" ",
		" ",
		" ",
		"when",
		"did",
		"the",
		"The",
		"painted",
		"studies",
		"Migrations",
		"failing",
		"user's",
		"didn't",
		"RETRY_BUDGET_MS",
		"parseChunk",
		"v0.73.1",
		"café",
		"e\u0301",
		"中",
		"中文",
		"数据库",
		"データ",
		"한",
		"😀",
		"🥲",
		"\u0301",
		"İ",
		"ß",
		"ﬁ",
		"Σ",
		"\uD800",
		"1e5",
		"%",
		"€",
	];

	function fuzzQueries(count: number, seed0: number, random: boolean): string[] {
		let seed = seed0;
		const rand = (n: number) => {
			seed = (seed * 1664525 + 1013904223) >>> 0;
			return seed % n;
		};
		const out: string[] = [];
		for (let i = 0; i < count; i++) {
			let q = "";
			for (let k = rand(8) + 1; k > 0; k--) {
				q += random && rand(5) === 0 ? String.fromCodePoint(rand(0x3000) + 0x21) : PIECES[rand(PIECES.length)];
			}
			out.push(q);
		}
		return out;
	}

	it("every variant and prefix is valid double-quoted in MATCH and made of whole unicode61 tokens (seeded fuzz)", () => {
		fts.add("the quick brown fox painted 中文分词 データ café");
		let analysedCount = 0;
		for (const q of fuzzQueries(3000, 20261202, true)) {
			let r: ReturnType<typeof analyzeQuery> | undefined;
			expect(() => {
				r = analyzeQuery(q);
			}, JSON.stringify(q)).not.toThrow();
			if (r === undefined || "error" in r) continue;
			analysedCount++;
			for (const t of [...r.terms, ...r.phrases]) {
				expect(t.variants[0], JSON.stringify(q)).toBe(t.text);
				expect(t.variants.length).toBeLessThanOrEqual(MAX_WORD_FORMS);
				for (const v of t.variants) {
					for (const token of v.split(" ")) expect(unicode61Tokens(token), JSON.stringify(q)).toEqual([token]);
				}
				expect(() => fts.raw(unitMatch(t)), JSON.stringify(q)).not.toThrow();
			}
		}
		expect(analysedCount).toBeGreaterThan(2000);
	});

	it("every unit of a query finds the query's own text once indexed (seeded fuzz)", () => {
		// A lone surrogate is a token character to the tokenizer but reaches SQLite as U+FFFD, a separator.
		for (const q of fuzzQueries(1500, 7, false).filter((q) => !q.includes("\uD800"))) {
			const r = analyzeQuery(q);
			if ("error" in r) continue;
			const id = fts.add(q);
			for (const t of [...r.terms, ...r.phrases]) {
				expect(fts.raw(unitMatch(t)), `${JSON.stringify(q)} → ${show(t)}`).toContain(id);
			}
		}
	});
});
