import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	compileQuery,
	isUnicode61Separator,
	MAX_QUERY_TOKENS,
	unicode61Tokens,
} from "../../src/text/query-compiler.js";
import { ftsFixture } from "../store/temp-store.js";

function ok(query: string) {
	const r = compileQuery(query);
	if (!r.ok) throw new Error(`expected ${JSON.stringify(query)} to compile: ${r.error}`);
	return r;
}

describe("compileQuery", () => {
	it("quotes every token and ANDs terms", () => {
		expect(ok("hello world").match).toBe('"hello" AND "world"');
		expect(ok("  hello \t world\n").terms).toEqual(["hello", "world"]);
	});
	it("turns a term that splits into several tokens into a phrase", () => {
		const r = ok("RETRY_BUDGET_MS");
		expect(r.match).toBe('"RETRY" + "BUDGET" + "MS"');
		expect(r.terms).toEqual(["retry", "budget", "ms"]);
		expect(r.phrases).toEqual([["retry", "budget", "ms"]]);
	});
	it("keeps quoted phrases together", () => {
		const r = ok('"hello world" foo');
		expect(r.match).toBe('"hello" + "world" AND "foo"');
		expect(r.phrases).toEqual([["hello", "world"], ["foo"]]);
	});
	it("treats operators, column filters and special characters as plain text", () => {
		expect(ok("a OR b").match).toBe('"a" AND "OR" AND "b"');
		expect(ok("NOT NEAR(x y)").match).toBe('"NOT" AND "NEAR" + "x" AND "y"');
		expect(ok("body:foo").match).toBe('"body" + "foo"');
		expect(ok("foo* ^bar +baz -qux").match).toBe('"foo" AND "bar" AND "baz" AND "qux"');
		expect(ok("'; DROP TABLE x; --").match).toBe('"DROP" AND "TABLE" AND "x"');
	});
	it("treats an unbalanced quote as plain text", () => {
		expect(ok('"unbalanced foo').match).toBe('"unbalanced" AND "foo"');
		expect(ok('a "b c" "d').match).toBe('"a" AND "b" + "c" AND "d"');
	});
	it("expands CJK like the index: bigrams, single character as prefix", () => {
		expect(ok("中文").match).toBe('"中文"');
		expect(ok("中文分词").match).toBe('"中文" + "文分" + "分词"');
		expect(ok("字").match).toBe('"字"*');
		expect(ok('"中 abc"').match).toBe('"中" + "abc"');
		expect(ok('"中文 abc"').match).toBe('"中文" + "文" + "abc"');
		expect(ok("abc中").match).toBe('"abc" + "中"*');
	});
	it("normalizes terms for highlighting (lowercase, accents stripped)", () => {
		expect(ok("Café ÉCOLE").terms).toEqual(["cafe", "ecole"]);
	});
	it("rejects empty and all-punctuation queries with a clear message", () => {
		for (const q of ["", "   ", '""', "...", "* + - ^ ( ) :", '"   "', "🚀"]) {
			const r = compileQuery(q);
			expect(r.ok, q).toBe(false);
			if (!r.ok) expect(r.error).toMatch(/search query/);
		}
		const empty = compileQuery("");
		expect(!empty.ok && empty.error).toMatch(/empty/);
	});
	it("rejects overly long queries with a clear message", () => {
		const r = compileQuery(Array.from({ length: MAX_QUERY_TOKENS + 1 }, (_, i) => `w${i}`).join(" "));
		expect(r.ok).toBe(false);
		expect(ok(Array.from({ length: MAX_QUERY_TOKENS }, (_, i) => `w${i}`).join(" ")).terms).toHaveLength(
			MAX_QUERY_TOKENS,
		);
	});
	it("splits tokens where unicode61 does, keeping dropped diacritics inside a token", () => {
		expect(unicode61Tokens("e\u0301x a-b")).toEqual(["e\u0301x", "a", "b"]);
		expect(unicode61Tokens("\u0301 x")).toEqual(["x"]);
	});
});

describe("compileQuery against a real FTS5 table", () => {
	let fts: Awaited<ReturnType<typeof ftsFixture>>;
	beforeAll(async () => {
		fts = await ftsFixture();
		fts.add("the quick brown fox AND OR NOT NEAR body: café 中文分词 データ 한국어 x_y-z");
	});
	afterAll(() => fts.close());

	it("never produces an FTS5 syntax error (seeded fuzz, 4000 queries)", () => {
		const pieces = [
			'"',
			'""',
			"'",
			"(",
			")",
			"*",
			"^",
			"+",
			"-",
			":",
			"NEAR",
			"NEAR/2",
			"AND",
			"OR",
			"NOT",
			"body:",
			"{",
			"}",
			",",
			";",
			"--",
			"/*",
			"\\",
			"\u0000",
			"\t",
			"\n",
			" ",
			"  ",
			"fox",
			"café",
			"中",
			"中文",
			"データ",
			"한",
			"😀",
			"\u0301",
			"x_y",
			"SELECT * FROM fragments",
			"'); DROP TABLE meta; --",
			"%",
			"_",
			"€",
			"\uD800",
			"\u{1E900}",
			"\u19B0",
			"ー",
			"々",
			"1e5",
			"0x1F",
		];
		let seed = 20240607;
		const rand = (n: number) => {
			seed = (seed * 1664525 + 1013904223) >>> 0;
			return seed % n;
		};
		let compiled = 0;
		for (let i = 0; i < 4000; i++) {
			let q = "";
			for (let k = rand(10) + 1; k > 0; k--) {
				q += rand(5) === 0 ? String.fromCodePoint(rand(0x3000) + 0x21) : pieces[rand(pieces.length)];
			}
			const r = compileQuery(q);
			if (!r.ok) continue;
			compiled++;
			expect(() => fts.raw(r.match), JSON.stringify(q)).not.toThrow();
		}
		expect(compiled).toBeGreaterThan(3000);
	});

	it("finds the document through operator-like words used as plain text", () => {
		expect(fts.search("AND OR NOT NEAR")).toEqual([1]);
		expect(fts.search("body: fox*")).toEqual([1]);
		expect(fts.search("x_y-z")).toEqual([1]);
	});

	it("every emitted token is a single, non-empty unicode61 token (checked by SQLite)", () => {
		const vocab = fts.db;
		vocab.exec("CREATE VIRTUAL TABLE tmp_q USING fts5(body, tokenize='unicode61 remove_diacritics 2')");
		vocab.exec("CREATE VIRTUAL TABLE tmp_v USING fts5vocab(tmp_q, 'instance')");
		const ins = vocab.prepare<[number, string]>("INSERT INTO tmp_q(rowid, body) VALUES (?, ?)");
		const count = vocab.prepare<[number], { n: number }>("SELECT count(*) AS n FROM tmp_v WHERE doc = ?");
		const samples = ["e\u0301x", "ﬁle", "Straße", "naïve", "ǅemal", "x\u19B0y", "١٢٣", "𞤀𞤁", "ⅻ", "❶"];
		samples.forEach((s, i) => {
			const tokens = unicode61Tokens(s);
			for (const [j, t] of tokens.entries()) {
				ins.run(i * 100 + j + 1, t);
				expect(count.get(i * 100 + j + 1)?.n, `${s} → ${t}`).toBe(1);
			}
		});
	});
});

describe("unicode61 separator table", () => {
	it("agrees with SQLite's unicode61 for every BMP code point and a stride of the rest", async () => {
		const fts = await ftsFixture();
		try {
			const db = fts.db;
			db.exec("CREATE VIRTUAL TABLE cp USING fts5(body, tokenize='unicode61 remove_diacritics 2')");
			db.exec("CREATE VIRTUAL TABLE cp_v USING fts5vocab(cp, 'instance')");
			const ins = db.prepare<[number, string]>("INSERT INTO cp(rowid, body) VALUES (?, ?)");
			const cps: number[] = [];
			for (let cp = 0x21; cp <= 0x10ffff; cp += cp < 0x10000 ? 1 : 97) {
				if (cp >= 0xd800 && cp <= 0xdfff) continue;
				cps.push(cp);
			}
			db.transaction(() => {
				for (const cp of cps) ins.run(cp, `q${String.fromCodePoint(cp)}q`);
			});
			// "q<cp>q" is one token unless <cp> separates; a dropped diacritic leaves "qq".
			const separated = new Set(
				db
					.prepare<[], { doc: number }>("SELECT doc FROM cp_v WHERE term = 'q'")
					.all()
					.map((r) => r.doc),
			);
			const mismatches = cps.filter((cp) => isUnicode61Separator(cp) !== separated.has(cp));
			expect(mismatches.map((c) => c.toString(16))).toEqual([]);
		} finally {
			fts.close();
		}
	});
});
