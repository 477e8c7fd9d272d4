/**
 * The generation's text dictionary in the life of an index (src/ingest/text-sample.ts): a bulk pass that brings
 * MIN_SAMPLED_PASS_BYTES or more samples it once and packs its texts against it; a later hot-path sync packs against
 * the same one; a smaller first pass leaves the generation without one and packs texts alone. Whatever was packed
 * how, search, read and verify see the texts as written. Real SQLite file, real session files.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/config/budgets.js";
import { catchUp } from "../../src/ingest/catch-up.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { MIN_SAMPLED_PASS_BYTES } from "../../src/ingest/text-sample.js";
import { verifyIndex } from "../../src/ingest/verify.js";
import { readEvent } from "../../src/query/read.js";
import { searchEvents } from "../../src/query/search.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { createGeneration } from "../../src/store/generations.js";
import { loadTextDictionary } from "../../src/store/text-dictionary.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../store/temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

const CWD = "/home/dev/shop";
const caller = { cwd: CWD, authorization: { extraRoots: [], allRoots: false }, budgets: DEFAULT_BUDGETS };

/** `files` sessions of about `bytes` each, in a fresh sessions dir, and a fresh generation. */
async function corpus(files: number, bytes: number) {
	const t = tempDir("pei-text-sample-");
	const sessions = join(t.dir, "sessions");
	mkdirSync(sessions);
	const paths: string[] = [];
	for (let i = 0; i < files; i++) {
		const lines = lineFactory({ prefix: `t${i}`, cwd: CWD });
		let text = lines.header();
		for (let n = 0; text.length < bytes; n++) {
			text += lines.user(`please check the checkout flow of the shop, step ${i}.${n}`);
			text += lines.toolResult(`c${n}`, "bash", `$ npm test -- checkout\nPASS src/checkout/cart.test.ts (${n} ms)\n`);
			if (n % 10 === 0) text += lines.toolResult(`b${n}`, "bash", `compiling src/checkout/cart.ts\n`.repeat(5));
		}
		const path = join(sessions, `s${i}.jsonl`);
		writeFileSync(path, text);
		paths.push(path);
	}
	const gen = await createGeneration(t.dir);
	cleanups.push(() => {
		gen.db.close();
		t.cleanup();
	});
	return { db: gen.db, roots: [{ path: sessions, subfolders: false }], paths };
}

/** How many stored texts are packed alone (first byte 0) and against the dictionary (1). */
function packings(db: SqliteDb): { alone: number; withDictionary: number } {
	const rows = db.prepare("SELECT text FROM fragments WHERE typeof(text) = 'blob'").all() as Array<{
		text: Uint8Array;
	}>;
	return {
		alone: rows.filter((r) => r.text[0] === 0).length,
		withDictionary: rows.filter((r) => r.text[0] === 1).length,
	};
}

describe("text dictionary of a generation", () => {
	it("is sampled by a large enough pass, kept for later syncs, and every text reads back as written", async () => {
		const { db, roots, paths } = await corpus(12, (MIN_SAMPLED_PASS_BYTES / 10) | 0);
		expect((await catchUp(db, { roots, groupMs: 250 })).errors).toEqual([]);
		const dictionary = loadTextDictionary(db);
		expect(dictionary?.length).toBeGreaterThan(1_000);
		expect(new TextDecoder().decode(dictionary)).toContain("please check the checkout flow of the shop");
		expect(packings(db)).toMatchObject({ alone: 0 });
		const before = packings(db).withDictionary;
		expect(before).toBeGreaterThan(100);

		// A hot-path sync of an appended line packs against the same dictionary, which stays as it was.
		const lines = lineFactory({ prefix: "late", cwd: CWD });
		appendFileSync(paths[3] as string, lines.user("one more thing about the checkout flow: the zebracoupon field"));
		expect((await new SourceSyncer(db).sync(paths[3] as string)).status).toBe("indexed");
		expect(loadTextDictionary(db)).toEqual(dictionary);
		expect(packings(db)).toEqual({ alone: 0, withDictionary: before + 1 });

		const hit = searchEvents(db, { query: "zebracoupon" }, caller).hits[0];
		expect(hit?.snippet).toContain("zebracoupon");
		const read = readEvent(db, { sessionId: hit?.sessionId as string, entryId: hit?.entryId as string }, caller);
		expect(JSON.stringify(read)).toContain("one more thing about the checkout flow: the zebracoupon field");
		expect(verifyIndex(db, roots).differences).toEqual([]);
	});

	it("is not sampled by a smaller first pass: its texts are packed alone and read back as written", async () => {
		const { db, roots } = await corpus(3, 20_000);
		expect((await catchUp(db, { roots, groupMs: 250 })).errors).toEqual([]);
		expect(loadTextDictionary(db)).toBeUndefined();
		expect(packings(db)).toMatchObject({ withDictionary: 0 });
		expect(packings(db).alone).toBeGreaterThan(10);
		const hits = searchEvents(db, { query: "checkout flow step" }, caller).hits;
		expect(hits.length).toBeGreaterThan(0);
		expect(hits[0]?.snippet).toMatch(/checkout flow of the shop, step \d+\.\d+/);
	});
});
