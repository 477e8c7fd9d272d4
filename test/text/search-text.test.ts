import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	CJK_CLASS,
	cjkRunTokens,
	hasCjk,
	identifierParts,
	searchText,
	splitIdentifier,
} from "../../src/text/search-text.js";
import { ftsFixture } from "../store/temp-store.js";

describe("searchText", () => {
	it("passes non-CJK text through unchanged (same string)", () => {
		const s = "RETRY_BUDGET_MS café 😀 dogfoodmarker123abc";
		expect(searchText(s)).toBe(s);
	});
	it("appends the parts of each camelCase identifier once, after the text; raw output is not split", () => {
		const s = "call getContextData, then getContextData again; OuterRef(pk) and combined_queries";
		expect(searchText(s)).toBe(`${s}\nget Context Data Outer Ref`);
		expect(searchText(s, "assistant_text")).toBe(`${s}\nget Context Data Outer Ref`);
		expect(searchText(s, "tool_result")).toBe(s);
		expect(searchText(s, "bash_output")).toBe(s);
		expect(searchText("中文getData")).toBe(" 中文 文 getData\nget Data");
	});
	it("splits identifiers at case joints, keeps acronyms and plurals whole, skips random tokens", () => {
		expect(splitIdentifier("getHTTPResponse")).toEqual(["get", "HTTP", "Response"]);
		expect(splitIdentifier("HTTPServer")).toEqual(["HTTP", "Server"]);
		expect(splitIdentifier("v2Parser")).toEqual(["v2", "Parser"]);
		expect(splitIdentifier("IDs")).toEqual(["IDs"]);
		expect(identifierParts("the IDs and URLs of PutObjectCommand")).toBe("Put Object Command");
		// base64 / keys: capitals everywhere, more than six parts
		expect(identifierParts("aGVsbG8gd29ybGQhIFRoaXMgaXMgYSB0ZXN0IG9mIGJhc2U2NA==")).toBe("");
		expect(identifierParts(`x${"Ab".repeat(40)}`)).toBe("");
	});
	it("expands a CJK run into overlapping bigrams plus the final character", () => {
		expect(searchText("我们中文很好")).toBe(" 我们 们中 中文 文很 很好 好 ");
		expect(cjkRunTokens("字")).toEqual(["字"]);
		expect(cjkRunTokens("日本語")).toEqual(["日本", "本語", "語"]);
	});
	it("separates CJK runs from adjacent Latin letters and keeps CJK punctuation out of runs", () => {
		expect(searchText("abc中文def")).toBe("abc 中文 文 def");
		expect(searchText("中文。日本")).toBe(" 中文 文 。 日本 本 ");
	});
	it("finds every CJK letter, BMP or astral, behind its cheap first test, and nothing else", () => {
		// hasCjk tests the code units a CJK letter may have before the slow property class; a letter missing from
		// those units would be indexed as one long token again.
		const letter = new RegExp(CJK_CLASS, "v");
		const missed: string[] = [];
		let letters = 0;
		for (let cp = 0; cp <= 0x10ffff; cp++) {
			if (cp >= 0xd800 && cp <= 0xdfff) continue;
			const ch = String.fromCodePoint(cp);
			const isLetter = letter.test(ch);
			if (isLetter) letters++;
			if (hasCjk(`x—“${ch}”🎉`) !== isLetter) missed.push(cp.toString(16));
		}
		expect(letters).toBeGreaterThan(90_000);
		expect(missed).toEqual([]);
	});
	it("treats Hiragana, Katakana (with ー) and Hangul as CJK", () => {
		expect(searchText("データ")).toBe(" デー ータ タ ");
		expect(searchText("ひらがな")).toBe(" ひら らが がな な ");
		expect(searchText("한국어")).toBe(" 한국 국어 어 ");
	});
});

describe("FTS matching through searchText + compileQuery (real FTS5 table)", () => {
	let fts: Awaited<ReturnType<typeof ftsFixture>>;
	const ids: Record<string, number> = {};
	beforeAll(async () => {
		fts = await ftsFixture();
		ids.ident = fts.add("config: RETRY_BUDGET_MS = 250 for the uploader");
		ids.dogfood = fts.add("see dogfoodmarker123abc in the log");
		ids.marker = fts.add("the marker123 value is set");
		ids.cafe = fts.add("Meet at the Café Noir tomorrow");
		ids.cafePlain = fts.add("cafe au lait");
		ids.zh = fts.add("我们今天讨论了中文分词的问题");
		ids.ja = fts.add("東京でデータベースを設計する");
		ids.ko = fts.add("한국어 형태소 분석기");
		ids.emoji = fts.add("deploy 🚀 finished ✅ rocket_launch ok");
		ids.mixed = fts.add("error在服务器端 happened");
		ids.camel = fts.add("the view calls getContextData() before render");
	});
	afterAll(() => fts.close());

	it("finds identifiers by their parts and as a whole", () => {
		expect(fts.search("retry budget ms")).toEqual([ids.ident]);
		expect(fts.search("RETRY_BUDGET_MS")).toEqual([ids.ident]);
		expect(fts.search('"retry budget ms"')).toEqual([ids.ident]);
		expect(fts.search("budget_retry")).toEqual([]); // a split identifier is a phrase: order matters
	});
	it("finds a camelCase identifier by its parts, as their phrase, and as a whole", () => {
		expect(fts.search("get context data")).toEqual([ids.camel]);
		expect(fts.search('"get context data"')).toEqual([ids.camel]);
		expect(fts.search("getcontextdata")).toEqual([ids.camel]);
		expect(fts.search("getContextData")).toEqual([ids.camel]);
		expect(fts.search("context")).toEqual([ids.camel]);
		// The parts follow the text: a phrase of the text itself is not broken by them.
		expect(fts.search('"getContextData before render"')).toEqual([ids.camel]);
	});
	it("matches whole alphanumeric runs only: marker123 is not found inside dogfoodmarker123abc", () => {
		expect(fts.search("marker123")).toEqual([ids.marker]);
		expect(fts.search("dogfoodmarker123abc")).toEqual([ids.dogfood]);
	});
	it("folds diacritics both ways", () => {
		expect(fts.search("cafe")).toEqual([ids.cafe, ids.cafePlain]);
		expect(fts.search("café")).toEqual([ids.cafe, ids.cafePlain]);
		expect(fts.search("CAFÉ noir")).toEqual([ids.cafe]);
		expect(fts.search("cafe\u0301")).toEqual([ids.cafe, ids.cafePlain]); // decomposed accent
	});
	it("finds a two-character CJK word inside a longer run", () => {
		expect(fts.search("中文")).toEqual([ids.zh]);
		expect(fts.search("分词")).toEqual([ids.zh]);
		expect(fts.search("问题")).toEqual([ids.zh]);
		expect(fts.search("英文")).toEqual([]);
	});
	it("finds a longer CJK word as the phrase of its bigrams, in order only", () => {
		expect(fts.search("中文分词")).toEqual([ids.zh]);
		expect(fts.search("分词中文")).toEqual([]);
		expect(fts.search("データベース")).toEqual([ids.ja]);
		expect(fts.search("形态")).toEqual([]);
		expect(fts.search("형태소")).toEqual([ids.ko]);
	});
	it("finds a single CJK character (prefix), including the last character of a run", () => {
		expect(fts.search("们")).toEqual([ids.zh]);
		expect(fts.search("题")).toEqual([ids.zh]); // final character of the run
		expect(fts.search("京")).toEqual([ids.ja]);
		expect(fts.search("猫")).toEqual([]);
	});
	it("finds CJK adjacent to Latin, as separate terms and as one term", () => {
		expect(fts.search("服务器 error")).toEqual([ids.mixed]);
		expect(fts.search("error在服务器端")).toEqual([ids.mixed]);
		expect(fts.search('"服务器端 happened"')).toEqual([ids.mixed]);
	});
	it("searches emoji text by its words; emoji themselves are separators to unicode61", () => {
		expect(fts.search("deploy finished")).toEqual([ids.emoji]);
		expect(fts.search("rocket_launch")).toEqual([ids.emoji]);
		expect(fts.search("🚀 deploy")).toEqual([ids.emoji]);
		expect(fts.search('"deploy 🚀 finished"')).toEqual([ids.emoji]);
	});
	it("applies implicit AND across terms", () => {
		expect(fts.search("marker123 value")).toEqual([ids.marker]);
		expect(fts.search("marker123 uploader")).toEqual([]);
	});
});
