/**
 * A batch frees the chunks a long line was joined from before the parse decodes it (read-batch.ts); which buffers
 * count as starting a long line is pinned here: a full collection per ordinary 1 MiB buffer would cost every bulk pass.
 */
import { describe, expect, it } from "vitest";
import { HUGE_LINE_BYTES } from "../../src/ingest/chunk-reader.js";
import { startsLongLine } from "../../src/ingest/read-batch.js";

function buffer(firstLineBytes: number, total: number): Uint8Array {
	const b = new Uint8Array(total).fill(0x61);
	if (firstLineBytes < total) b[firstLineBytes] = 0x0a;
	return b;
}

describe("startsLongLine", () => {
	it("is true when the buffer's first line reaches HUGE_LINE_BYTES", () => {
		expect(startsLongLine(buffer(HUGE_LINE_BYTES, HUGE_LINE_BYTES + 10))).toBe(true);
		expect(startsLongLine(buffer(3 * HUGE_LINE_BYTES, 3 * HUGE_LINE_BYTES + 1))).toBe(true);
	});

	it("is true for a long buffer without a line end (an oversized line read in pieces)", () => {
		expect(startsLongLine(buffer(HUGE_LINE_BYTES + 1, HUGE_LINE_BYTES + 1))).toBe(true);
	});

	it("is false for a large buffer of ordinary lines, and for a short one", () => {
		expect(startsLongLine(buffer(700, 2 * HUGE_LINE_BYTES))).toBe(false);
		expect(startsLongLine(buffer(HUGE_LINE_BYTES - 1, HUGE_LINE_BYTES + 10))).toBe(false);
		expect(startsLongLine(buffer(100, 200))).toBe(false);
	});
});
