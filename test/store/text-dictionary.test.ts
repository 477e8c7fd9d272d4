/**
 * A generation's text dictionary (src/store/text-dictionary.ts): sampled deterministically, stored once (the first
 * process to store it wins, every other one gets that one), and found by a connection that looked before it existed.
 * Two real connections to one real SQLite file.
 */
import { afterEach, describe, expect, it } from "vitest";
import { isStoreDamage, openDatabase } from "../../src/store/db.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { createGeneration } from "../../src/store/generations.js";
import {
	loadTextDictionary,
	MAX_DICTIONARY_BYTES,
	storeTextDictionary,
	textDictionaryOf,
	trainTextDictionary,
} from "../../src/store/text-dictionary.js";
import { tempDir } from "./temp-store.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

async function twoConnections(): Promise<[SqliteDb, SqliteDb]> {
	const t = tempDir("pei-dictionary-");
	const gen = await createGeneration(t.dir);
	const other = await openDatabase(gen.path);
	cleanups.push(() => {
		other.close();
		gen.db.close();
		t.cleanup();
	});
	return [gen.db, other];
}

describe("text dictionary", () => {
	it("is the opening of each distinct text, in order, without short ones, at most MAX_DICTIONARY_BYTES", () => {
		const long = `${"a".repeat(300)}tail`;
		const dict = trainTextDictionary([
			"first text of sixteen+",
			"tiny",
			"first text of sixteen+",
			long,
			"café au lait, again",
		]);
		expect(new TextDecoder().decode(dict)).toBe(`first text of sixteen+${"a".repeat(256)}café au lait, again`);
		const many = Array.from({ length: 2_000 }, (_, i) => `${i} ${"distinct opening ".repeat(20)}`);
		expect(trainTextDictionary(many).length).toBe(MAX_DICTIONARY_BYTES);
		expect(trainTextDictionary(many)).toEqual(trainTextDictionary(many));
	});

	it("is stored once: a second process's sample is not stored, and it gets the first one", async () => {
		const [a, b] = await twoConnections();
		const first = trainTextDictionary(["the first process sampled this text"]);
		const second = trainTextDictionary(["another process sampled something else"]);
		expect(storeTextDictionary(a, first)).toEqual(first);
		expect(storeTextDictionary(b, second)).toEqual(first);
		expect(textDictionaryOf(b).get()).toEqual(first);
	});

	it("is found by a connection that looked before another one stored it", async () => {
		const [a, b] = await twoConnections();
		const cache = textDictionaryOf(b);
		expect(cache.get()).toBeUndefined();
		expect(cache.forPacking()).toBeUndefined();
		const dict = trainTextDictionary(["sampled after the reader first looked"]);
		storeTextDictionary(a, dict);
		expect(cache.get()).toEqual(dict);
		expect(cache.forPacking()?.bytes).toEqual(dict);
		expect(textDictionaryOf(b)).toBe(cache);
	});

	it("regression: a damaged stored dictionary is store damage, never used to unpack wrong texts", async () => {
		const [a, b] = await twoConnections();
		storeTextDictionary(a, trainTextDictionary(["a dictionary that a bad disk will flip one byte of"]));
		const value = (a.prepare("SELECT value FROM meta WHERE key = 'text_dictionary'").get() as { value: string }).value;
		const flipped = `${value.slice(0, -6)}${value.slice(-6, -5) === "A" ? "B" : "A"}${value.slice(-5)}`;
		a.prepare("UPDATE meta SET value = ? WHERE key = 'text_dictionary'").run(flipped);
		let error: unknown;
		try {
			loadTextDictionary(b);
		} catch (err) {
			error = err;
		}
		expect((error as Error).message).toBe("packed text: the index's text dictionary is damaged");
		expect(isStoreDamage(error)).toBe(true);
	});
});
