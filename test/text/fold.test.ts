/**
 * One fold for the query side (query terms, term presence, proximity), checked against what SQLite's
 * `unicode61 remove_diacritics 2` stores. Regression: three near-twin helpers folded differently, and each disagreed
 * with the index on some script: Greek final sigma (JavaScript's toLowerCase writes ς, the index σ), case pairs newer
 * than Unicode 6.1 (Cherokee: JavaScript lowercases them, the index does not) and Hangul beside an accent (decomposed
 * without being composed again).
 */
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { foldLikeUnicode61 } from "../../src/text/fold.js";
import { unicode61Tokens } from "../../src/text/query-compiler.js";

const db = new Database(":memory:");
db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2')");
db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
afterAll(() => db.close());

/** The tokens SQLite stores for `text`, in order. */
function storedTokens(text: string): string[] {
	db.exec("DELETE FROM t");
	db.prepare("INSERT INTO t(rowid, body) VALUES (1, ?)").run(text);
	return (db.prepare("SELECT term FROM v ORDER BY offset").all() as { term: string }[]).map((r) => r.term);
}

/** Samples where an earlier helper's fold differed from the index's. */
const SAMPLES = [
	["Greek final sigma", "ΟΔΟΣ ΚΟΣΜΟΣ"],
	["Cherokee (case pairs after Unicode 6.1)", "ᎠᎡᎢ"],
	["Hangul beside an accent", "café 한국어"],
	["Latin with marks", "Ångström Crème Brûlée"],
	["ASCII", "RETRY_BUDGET_MS parseChunk"],
	["Georgian Mtavruli", "ᲐᲑᲒ"],
] as const;

describe("foldLikeUnicode61", () => {
	for (const [script, text] of SAMPLES) {
		it(`folds ${script} as the index stores it`, () => {
			expect(unicode61Tokens(text).map(foldLikeUnicode61)).toEqual(storedTokens(text));
			// The whole text folds the same as its tokens do (proximity folds whole texts).
			expect(unicode61Tokens(foldLikeUnicode61(text))).toEqual(storedTokens(text));
		});
	}

	it("differs from toLowerCase where the earlier helpers went wrong", () => {
		expect("ΟΔΟΣ".toLowerCase()).toBe("οδος");
		expect(foldLikeUnicode61("ΟΔΟΣ")).toBe("οδοσ");
		expect(foldLikeUnicode61("Ꭰ")).toBe("Ꭰ");
		expect("é한".normalize("NFD").replace(/\p{Mn}/gu, "")).not.toBe("e한");
		expect(foldLikeUnicode61("é한")).toBe("e한");
	});
});
