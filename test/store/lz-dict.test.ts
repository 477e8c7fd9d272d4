/**
 * The dictionary codec of stored texts (src/store/lz-dict.ts): every text comes back byte for byte, whatever its
 * size, repetition or dictionary (offsets into the dictionary, across it into the text, overlapping repeats, long
 * counts, 3-byte offsets); a prefix is a prefix; packing is deterministic whichever dictionaries were used before;
 * and bytes that are not a packed text are refused with PackedTextError, never read out of bounds or taken as a text.
 */
import { describe, expect, it } from "vitest";
import { PackedTextError, pack, prepareDictionary, unpack } from "../../src/store/lz-dict.js";
import { prng } from "../parse/helpers.js";

const WORDS = [
	"the",
	"build",
	"failed",
	"src/index.ts",
	"npm test",
	"  ",
	"\n",
	'{"path":',
	"中文",
	"😀",
	"error TS2322",
];
const utf8 = (s: string) => new TextEncoder().encode(s);
/** Byte equality without vitest's element-by-element diff (slow for the 600 texts of a round trip). */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);

/** Text made of words (compressible), random bytes (not) or one repeated byte (overlapping matches), mixed. */
function sampleText(next: () => number, maxLength: number): Uint8Array {
	const parts: Uint8Array[] = [];
	let size = 0;
	const target = Math.floor(next() * maxLength);
	while (size < target) {
		const r = next();
		let part: Uint8Array;
		if (r < 0.6) part = utf8(WORDS[Math.floor(next() * WORDS.length)] as string);
		else if (r < 0.8) part = Uint8Array.from({ length: 1 + Math.floor(next() * 400) }, () => Math.floor(next() * 256));
		else part = new Uint8Array(1 + Math.floor(next() * 700)).fill(Math.floor(next() * 256));
		parts.push(part);
		size += part.length;
	}
	return Buffer.concat(parts, size);
}

const DICTIONARIES = {
	none: prepareDictionary(),
	small: prepareDictionary(utf8("the build failed in src/index.ts with error TS2322\n")),
	// 64 KiB: matches near its start are more than 2^15 back (3-byte offsets).
	large: prepareDictionary(sampleText(prng(7), 200_000).subarray(0, 64 << 10)),
};

describe("lz-dict codec", () => {
	it.each(Object.keys(DICTIONARIES))("round-trips 600 varied texts with the %s dictionary", (name) => {
		const dict = DICTIONARIES[name as keyof typeof DICTIONARIES];
		const next = prng(name.length);
		for (let i = 0; i < 600; i++) {
			const text = i === 0 ? new Uint8Array(0) : sampleText(next, i % 50 === 0 ? 70_000 : 3_000);
			const packed = pack(text, dict);
			expect(same(unpack(packed, dict.bytes), text), `text ${i}`).toBe(true);
		}
	});

	it("round-trips texts made of the dictionary's own bytes (matches into it, and from it into the text)", () => {
		const dict = DICTIONARIES.large;
		const next = prng(3);
		for (let i = 0; i < 300; i++) {
			const start = Math.floor(next() * dict.bytes.length);
			const piece = dict.bytes.subarray(start, start + Math.floor(next() * 2_000));
			const text = new Uint8Array([...piece, ...sampleText(next, 200), ...piece]);
			expect(same(unpack(pack(text, dict), dict.bytes), text)).toBe(true);
		}
		// Random bytes repeat no 4-byte sequence: a slice of such a dictionary packs to a few matches (hash slots collide now and then).
		const next2 = prng(4);
		const random = prepareDictionary(Uint8Array.from({ length: 60_000 }, () => Math.floor(next2() * 256)));
		const slice = random.bytes.subarray(100, 3_100);
		const packed = pack(slice, random);
		expect(packed.length).toBeLessThan(40);
		expect(unpack(packed, random.bytes)).toEqual(slice);
	});

	it("counts past one extension byte: 5,000 literals and a 10,000-byte repeat", () => {
		const next = prng(11);
		const text = new Uint8Array([
			...Uint8Array.from({ length: 5_000 }, () => Math.floor(next() * 256)),
			...new Uint8Array(10_000).fill(97),
		]);
		const packed = pack(text, DICTIONARIES.none);
		expect(packed.length).toBeLessThan(5_100);
		expect(unpack(packed, DICTIONARIES.none.bytes)).toEqual(text);
	});

	it("unpacks a prefix of at least `limit` bytes that the whole text starts with", () => {
		const next = prng(5);
		for (let i = 0; i < 100; i++) {
			const text = sampleText(next, 5_000);
			const packed = pack(text, DICTIONARIES.small);
			for (const limit of [0, 1, 17, 400, text.length, text.length + 9]) {
				const prefix = unpack(packed, DICTIONARIES.small.bytes, limit);
				expect(prefix.length).toBeGreaterThanOrEqual(Math.min(limit, text.length));
				expect(same(prefix, text.subarray(0, prefix.length))).toBe(true);
			}
		}
	});

	it("packs the same text to the same bytes, whatever was packed before with other dictionaries", () => {
		const text = sampleText(prng(9), 4_000);
		const first = pack(text, DICTIONARIES.large);
		pack(sampleText(prng(10), 90_000), DICTIONARIES.small);
		pack(text, DICTIONARIES.none);
		const again = pack(text, prepareDictionary(Uint8Array.from(DICTIONARIES.large.bytes)));
		expect(again).toEqual(first);
		expect(pack(text, DICTIONARIES.large, 1)).toEqual(new Uint8Array([1, ...first]));
	});

	it("refuses every cut-short packed text", () => {
		const dict = DICTIONARIES.small;
		const packed = pack(sampleText(prng(12), 2_000), dict);
		for (let n = 0; n < packed.length; n++) {
			expect(() => unpack(packed.subarray(0, n), dict.bytes), `cut at ${n}`).toThrow(PackedTextError);
		}
	});

	it("refuses an offset before the dictionary, trailing bytes and a count past the end", () => {
		const none = DICTIONARIES.none.bytes;
		// No literals, match code 1 (4 bytes) at offset 5: nothing precedes the output.
		expect(() => unpack(Uint8Array.from([0x01, 5, 0, 0x00]), none)).toThrow("offset 5 before the dictionary");
		expect(() => unpack(Uint8Array.from([0x10, 65, 0x00, 0x00]), none)).toThrow(PackedTextError);
		expect(() => unpack(Uint8Array.from([0xf0, 255, 255]), none)).toThrow("a count runs past the end");
		expect(new TextDecoder().decode(unpack(Uint8Array.from([0x20, 104, 105]), none))).toBe("hi");
	});

	it("never throws anything but PackedTextError on random bytes", () => {
		const next = prng(13);
		for (let i = 0; i < 3_000; i++) {
			const junk = Uint8Array.from({ length: Math.floor(next() * 64) }, () => Math.floor(next() * 256));
			try {
				unpack(junk, DICTIONARIES.small.bytes);
			} catch (err) {
				expect(err).toBeInstanceOf(PackedTextError);
			}
		}
	});
});
