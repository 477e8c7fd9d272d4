/**
 * The dictionary a generation's packed fragment texts refer to (lz-dict.ts, fragment-text.ts). It is sampled once,
 * by the first bulk pass with enough new text (ingest/text-sample.ts), from the opening events of files spread over
 * that pass, and kept in `meta` under TEXT_DICTIONARY_KEY as `<xxHash64 hex>:<base64>` (a damaged dictionary would
 * unpack wrong texts without an error, so it is checked when read). It never changes afterwards: every text packed
 * against it stays readable for the generation's life, so every process can cache it once per connection.
 */
import { hashBytes } from "../files/hash.js";
import type { SqliteDb } from "./driver.js";
import { PackedTextError, type PreparedDictionary, prepareDictionary } from "./lz-dict.js";

/** The `meta` key of the dictionary. */
const TEXT_DICTIONARY_KEY = "text_dictionary";

/** Largest dictionary: past 64 KiB the 1 GB corpora gained under 2 % more (docs/store.md, "Fragment text"). */
export const MAX_DICTIONARY_BYTES = 64 * 1024;

/** Bytes taken from the start of each sampled text: openings repeat (tool arguments, paths, phrasing), tails less. */
const SAMPLE_HEAD_BYTES = 256;
/** Shorter samples add little but offsets. */
const MIN_SAMPLE_BYTES = 16;

/** Reads `meta`; both drivers' connections and the query layer's satisfy it. */
interface MetaReader {
	prepare(sql: string): { get(...params: unknown[]): unknown };
}

/**
 * The dictionary made of `texts`: the first SAMPLE_HEAD_BYTES of each distinct text, in order, until
 * MAX_DICTIONARY_BYTES. Pure and deterministic.
 */
export function trainTextDictionary(texts: Iterable<string>): Uint8Array {
	const seen = new Set<string>();
	const parts: Uint8Array[] = [];
	let size = 0;
	const encoder = new TextEncoder();
	for (const text of texts) {
		if (size >= MAX_DICTIONARY_BYTES) break;
		// At most SAMPLE_HEAD_BYTES UTF-16 units give at least that many UTF-8 bytes.
		const opening = text.slice(0, SAMPLE_HEAD_BYTES);
		const head = encoder.encode(opening).subarray(0, SAMPLE_HEAD_BYTES);
		if (head.length < MIN_SAMPLE_BYTES || seen.has(opening)) continue;
		seen.add(opening);
		const part = head.subarray(0, Math.min(head.length, MAX_DICTIONARY_BYTES - size));
		parts.push(part);
		size += part.length;
	}
	// A plain Uint8Array, as the dictionary read back from meta is.
	return new Uint8Array(Buffer.concat(parts, size));
}

/** The stored dictionary, or undefined when the generation has none yet; PackedTextError when it is damaged. */
export function loadTextDictionary(db: MetaReader): Uint8Array | undefined {
	const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(TEXT_DICTIONARY_KEY) as
		| { value: string }
		| undefined;
	if (row === undefined) return undefined;
	const colon = row.value.indexOf(":");
	const bytes = new Uint8Array(Buffer.from(row.value.slice(colon + 1), "base64"));
	if (colon < 0 || hashBytes(bytes) !== row.value.slice(0, colon)) {
		throw new PackedTextError("the index's text dictionary is damaged");
	}
	return bytes;
}

/**
 * Stores `bytes` unless the generation already has a dictionary (another process sampled first), in one write
 * transaction; returns the generation's dictionary, the one every packed text must use.
 */
export function storeTextDictionary(db: SqliteDb, bytes: Uint8Array): Uint8Array {
	return db.transaction(() => {
		db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING").run(
			TEXT_DICTIONARY_KEY,
			`${hashBytes(bytes)}:${Buffer.from(bytes).toString("base64")}`,
		);
		return loadTextDictionary(db) as Uint8Array;
	});
}

/** Where an unpacking reader gets the generation's dictionary, only when a value needs it. */
export interface DictionaryLookup {
	get(): Uint8Array | undefined;
}

/** A connection's view of its generation's dictionary: looked up until found, then kept (it never changes). */
export class TextDictionaryCache implements DictionaryLookup {
	private bytes: Uint8Array | undefined;
	private prepared: PreparedDictionary | undefined;

	constructor(private readonly db: MetaReader) {}

	/** The dictionary's bytes (unpacking). */
	get(): Uint8Array | undefined {
		this.bytes ??= loadTextDictionary(this.db);
		return this.bytes;
	}

	/** The dictionary ready for packing. */
	forPacking(): PreparedDictionary | undefined {
		if (this.prepared) return this.prepared;
		const bytes = this.get();
		if (bytes !== undefined) this.prepared = prepareDictionary(bytes);
		return this.prepared;
	}
}

const caches = new WeakMap<object, TextDictionaryCache>();

/** The dictionary cache of connection `db`, one per connection. */
export function textDictionaryOf(db: MetaReader): TextDictionaryCache {
	let cache = caches.get(db);
	if (cache === undefined) {
		cache = new TextDictionaryCache(db);
		caches.set(db, cache);
	}
	return cache;
}
