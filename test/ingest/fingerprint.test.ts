/** Line hashes are proven against files by `verify`: hashing a long input in pieces must give the one-shot value. */

import { beforeAll, describe, expect, it } from "vitest";
import xxhash from "xxhash-wasm";
import { HASH_PIECE_BYTES, hashBytes, lineHash } from "../../src/files/hash.js";
import { onBun } from "../../src/runtime.js";

let oneShot: (bytes: Uint8Array) => bigint;

beforeAll(async () => {
	// A hasher of its own: the module's would grow to fit these inputs (what piecewise hashing avoids). Its memory
	// grows only when it is first used, after the regression test below has measured.
	const fresh = await xxhash();
	oneShot = (bytes) => fresh.h64Raw(bytes);
});

function bytesOf(length: number, seed: number): Uint8Array {
	const out = new Uint8Array(length);
	let s = seed;
	for (let i = 0; i < length; i++) {
		s = (s * 1103515245 + 12345) >>> 0;
		out[i] = s >>> 24;
	}
	return out;
}

describe("fingerprints of long inputs, hashed in pieces so the wasm memory stays small", () => {
	// V8's `external` counts wasm memory; Bun's also counted the input just allocated, so this is measured on Node.
	it.skipIf(onBun())(
		"regression: hashing a 6 MB line leaves the hasher's memory as it was (it grew to fit the line, for good)",
		() => {
			const line = bytesOf(6e6, 99);
			const before = process.memoryUsage().external;
			lineHash(line);
			hashBytes(line);
			expect(process.memoryUsage().external - before).toBeLessThan(1 << 20);
		},
	);

	it("hash in pieces to the one-shot xxHash64", () => {
		const sizes = [0, 1, HASH_PIECE_BYTES - 1, HASH_PIECE_BYTES, HASH_PIECE_BYTES + 1, 3 * HASH_PIECE_BYTES + 17, 6e6];
		for (const [i, size] of sizes.entries()) {
			const bytes = bytesOf(size, i + 1);
			const expected = oneShot(bytes);
			expect(hashBytes(bytes), `size ${size}`).toBe(expected.toString(16).padStart(16, "0"));
			expect(lineHash(bytes).readBigUInt64BE(), `size ${size}`).toBe(expected);
		}
	});
});
