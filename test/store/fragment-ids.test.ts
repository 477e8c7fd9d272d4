/**
 * A fragment id encodes its weight class (store/fragment-ids.ts), so the weight tables are part of what the ids on
 * disk mean. Retuning a kind weight or a length step without a new INDEX_FORMAT would silently re-weigh every stored
 * row: this test derives the scheme's fingerprint and fails until the format is bumped and the fingerprint recorded.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SEMANTIC_KINDS } from "../../src/contract.js";
import { INDEX_FORMAT } from "../../src/store/format.js";
import { ID_STRIDE, rowWeight, WEIGHT_CLASSES, weightClass } from "../../src/store/fragment-ids.js";

/** The fingerprint of the id scheme each index format was written with. Add a line when the scheme changes. */
const SCHEME_BY_FORMAT: Record<number, string> = {
	12: "5fcf55b15c5ed3ba",
	13: "5fcf55b15c5ed3ba",
};

/** Every fact the scheme holds: the stride, each class's weight, and the class of every kind at every length. */
function schemeFingerprint(): string {
	const lengths = [0, 1_000, 1_001, 2_000, 2_001, 4_001, 16_001, 64_001, 256_001, 1_024_001, 4_096_001];
	const facts = {
		stride: ID_STRIDE,
		// Rounded: Bun's and Node's Math.pow differ in the last bits, which no ranking notices.
		weights: WEIGHT_CLASSES.map((_, i) => rowWeight(i).toPrecision(12)),
		unknown: rowWeight(-1),
		classes: [...SEMANTIC_KINDS, "a-kind-of-a-newer-format"].map((k) => lengths.map((n) => weightClass(k, n))),
	};
	return createHash("sha256").update(JSON.stringify(facts)).digest("hex").slice(0, 16);
}

describe("fragment id scheme", () => {
	it("changes only with a new index format (regression: a retuned weight re-weighed every stored row)", () => {
		expect(SCHEME_BY_FORMAT[INDEX_FORMAT], `record the scheme of format ${INDEX_FORMAT}`).toBe(schemeFingerprint());
	});

	it("keeps every weight class inside the stride", () => {
		for (const k of SEMANTIC_KINDS)
			for (const n of [0, 5_000, 10_000_000]) expect(weightClass(k, n)).toBeLessThan(ID_STRIDE);
	});
});
