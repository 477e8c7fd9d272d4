/**
 * The text dictionary of a generation (store/text-dictionary.ts), sampled by the first bulk pass that brings enough
 * new text: the fragment texts of the opening events of files spread over the pass's new files, read and projected
 * as a batch would. A pass over a generation that has one uses it; a smaller pass leaves the generation without one
 * (its texts are packed alone) until a larger pass samples it.
 */
import { closeSync } from "node:fs";
import type { SqliteDb } from "../store/driver.js";
import { storeTextDictionary, textDictionaryOf, trainTextDictionary } from "../store/text-dictionary.js";
import { chunkReader } from "./chunk-reader.js";
import { openRegularFile } from "./file-facts.js";
import { fileChunks, type ReadLimits } from "./read-batch.js";

/** New bytes a pass must bring to sample a dictionary. */
export const MIN_SAMPLED_PASS_BYTES = 1 << 20;
/** Files sampled, spread evenly over the pass's new files. */
const SAMPLE_FILES = 64;
/** Events read from the start of each sampled file, and at most this many of its bytes. */
const SAMPLE_EVENTS = 60;
const SAMPLE_FILE_BYTES = 256 << 10;
/** A smaller sample would not pay for its offsets: no dictionary then. */
const MIN_DICTIONARY_BYTES = 1 << 10;

/**
 * The generation's dictionary for this pass: the stored one, or one sampled from `fresh` (the pass's new files)
 * and stored now when they are large enough; undefined otherwise.
 */
export function passDictionary(
	db: SqliteDb,
	fresh: ReadonlyArray<{ path: string; size: number }>,
	read: ReadLimits,
): Uint8Array | undefined {
	const stored = textDictionaryOf(db).get();
	if (stored !== undefined || fresh.reduce((n, f) => n + f.size, 0) < MIN_SAMPLED_PASS_BYTES) return stored;
	const texts = spread(fresh, SAMPLE_FILES).flatMap((f) => openingTexts(f.path, read));
	const sampled = trainTextDictionary(texts);
	return sampled.length < MIN_DICTIONARY_BYTES ? undefined : storeTextDictionary(db, sampled);
}

/** At most `n` of `items`, evenly spread from the first. */
function spread<T>(items: readonly T[], n: number): T[] {
	if (items.length <= n) return [...items];
	const step = items.length / n;
	return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)] as T);
}

/** The fragment texts of the first SAMPLE_EVENTS events of a file (none when it cannot be read or parsed). */
function openingTexts(path: string, read: ReadLimits): string[] {
	const opened = openRegularFile(path);
	if (!opened) return [];
	const texts: string[] = [];
	try {
		const reader = chunkReader(opened.fd, 0, Math.min(opened.file.size, SAMPLE_FILE_BYTES), read.chunkBytes);
		let events = 0;
		for (const { step } of fileChunks(reader, read.maxLineBytes, SAMPLE_FILE_BYTES)) {
			for (const e of step.events.slice(0, SAMPLE_EVENTS - events)) texts.push(...e.fragments.map((f) => f.text));
			events += step.events.length;
			if (events >= SAMPLE_EVENTS) break;
		}
	} catch {
		// A sample is only a sample: the pass meets (and records) whatever is wrong with the file.
	} finally {
		closeSync(opened.fd);
	}
	return texts;
}
