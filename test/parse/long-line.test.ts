/**
 * The long-line scanner (parse/long-line.ts): its skeleton parses to the line's value with each long string value a
 * marker, in any split of the bytes; lines it cannot promise that for are left to the whole parse.
 */
import { describe, expect, it } from "vitest";
import { LONG_VALUE_BYTES, type LongLineScan, LongLineScanner } from "../../src/parse/long-line.js";

const marker = (i: number) => Buffer.from(`@M${i}@`, "utf8");

function scan(line: string, splits: number[] = []): LongLineScan | undefined {
	const bytes = Buffer.from(line, "utf8");
	const s = new LongLineScanner(marker);
	let at = 0;
	for (const cut of [...splits, bytes.length]) {
		s.push(bytes.subarray(at, cut));
		at = cut;
	}
	return s.finish();
}

/** The value the skeleton parses to, with each marker replaced by JSON.parse of its span. */
function rebuilt(line: string, result: LongLineScan): unknown {
	const bytes = Buffer.from(line, "utf8");
	const values = result.spans.map(
		(sp) => JSON.parse(`"${bytes.subarray(sp.start, sp.end).toString("utf8")}"`) as string,
	);
	return JSON.parse(Buffer.from(result.skeleton).toString("utf8"), (_k, v) => {
		const m = typeof v === "string" ? /^@M(\d+)@$/.exec(v) : null;
		return m ? values[Number(m[1])] : v;
	});
}

const long = (unit: string) => unit.repeat(Math.ceil(LONG_VALUE_BYTES / unit.length) + 3);

describe("LongLineScanner", () => {
	it("leaves each long string value out of the skeleton and keeps every short one", () => {
		const value = {
			type: "message",
			id: "a1",
			message: {
				role: "toolResult",
				content: [
					{ type: "text", text: long('say "hi"\\ \n\t\u00e9\u4e2d\ud83d\ude00 ') },
					{ type: "text", text: 'short "quoted" text' },
				],
				details: { list: [1, true, null, long("x")] },
			},
		};
		const line = JSON.stringify(value);
		const result = scan(line) as LongLineScan;
		expect(result.spans).toHaveLength(2);
		expect(result.skeleton.length).toBeLessThan(400);
		expect(rebuilt(line, result)).toEqual(value);
	});

	it("gives the same scan whatever the split of the bytes, escapes and characters cut included", () => {
		const line = JSON.stringify({ a: long('\\"\u00e9\u4e2d\ud83d\ude00\u0001'), b: ["k", long("y")] });
		const whole = scan(line) as LongLineScan;
		const bytes = Buffer.byteLength(line);
		for (const step of [1, 2, 3, 5, 4096, 65_537]) {
			const splits: number[] = [];
			for (let at = step; at < bytes; at += step) splits.push(at);
			const parted = scan(line, splits) as LongLineScan;
			expect(parted.spans).toEqual(whole.spans);
			expect(Buffer.from(parted.skeleton).equals(Buffer.from(whole.skeleton))).toBe(true);
		}
	});

	it("leaves the line to the whole parse when a long string is a key, or one JSON would reject", () => {
		expect(scan(`{"${long("k")}": 1}`)).toBeUndefined();
		expect(scan(`{"${long("k")}"  \t:1}`)).toBeUndefined();
		// A raw control character, a bad escape, a bad \u escape, an unterminated long string.
		expect(scan(`{"a":"${long("x")}\u0001"}`)).toBeUndefined();
		expect(scan(`{"a":"${long("x")}\\q"}`)).toBeUndefined();
		expect(scan(`{"a":"${long("x")}\\u12G4"}`)).toBeUndefined();
		expect(scan(`{"a":"${long("x")}`)).toBeUndefined();
	});

	it("copies a malformed line whose long strings are sound, so the skeleton fails to parse as the line does", () => {
		const line = `{"a":"${long("x")}", "b": tru}`;
		const result = scan(line) as LongLineScan;
		expect(() => JSON.parse(line)).toThrow();
		expect(() => JSON.parse(Buffer.from(result.skeleton).toString("utf8"))).toThrow();
	});

	it("keeps a string of one byte less than LONG_VALUE_BYTES in the skeleton", () => {
		const text = "z".repeat(LONG_VALUE_BYTES - 1);
		const result = scan(JSON.stringify({ text })) as LongLineScan;
		expect(result.spans).toEqual([]);
		expect(JSON.parse(Buffer.from(result.skeleton).toString("utf8"))).toEqual({ text });
	});
});
