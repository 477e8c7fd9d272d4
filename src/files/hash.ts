/**
 * xxHash64 of bytes: checkpoint fingerprints (ingest/fingerprint.ts), line hashes (`events.line_hash`) and the text
 * dictionary's id. One wasm hasher per process or worker.
 */
import xxhash from "xxhash-wasm";

type Hasher = Awaited<ReturnType<typeof xxhash>>;

/** The wasm hasher, once `hasherReady` has settled. */
let hasher: Hasher;

/**
 * Settles when the wasm hasher is loaded, once per process (or worker). The await below makes every module that
 * imports this one wait for it, so no caller prepares anything before its first hash; the one build without top-level
 * await, the program script of scripts/bundle-cli.mjs, drops that statement and its entry awaits this first. The
 * package is imported statically: a dynamic import of it is not bundled into a compiled Pi binary (Bun `--compile`).
 */
export const hasherReady: Promise<void> = xxhash().then((loaded) => {
	hasher = loaded;
});
await hasherReady;

/**
 * Inputs longer than this are hashed in pieces. The hasher copies its input into its wasm memory, which grows to fit
 * and never shrinks: one 6 MB line kept 6 MB more in every process that had indexed it.
 */
export const HASH_PIECE_BYTES = 64 * 1024;

/** xxHash64 of the bytes: the same value whole or in pieces. */
function h64(bytes: Uint8Array): bigint {
	if (bytes.length <= HASH_PIECE_BYTES) return hasher.h64Raw(bytes);
	const state = hasher.create64();
	feed(state, bytes);
	return state.digest();
}

function feed(state: ReturnType<Hasher["create64"]>, bytes: Uint8Array): void {
	for (let at = 0; at < bytes.length; at += HASH_PIECE_BYTES) state.update(bytes.subarray(at, at + HASH_PIECE_BYTES));
}

/** Hex xxHash64 of the given bytes. */
export function hashBytes(bytes: Uint8Array): string {
	return h64(bytes).toString(16).padStart(16, "0");
}

/** Bytes of a line hash. */
export const LINE_HASH_BYTES = 8;

/** xxHash64 of one line's bytes as LINE_HASH_BYTES big-endian bytes (the `events.line_hash` column). */
export function lineHash(bytes: Uint8Array): Buffer {
	return asLineHash(h64(bytes));
}

function asLineHash(value: bigint): Buffer {
	const out = Buffer.alloc(LINE_HASH_BYTES);
	out.writeBigUInt64BE(value);
	return out;
}

/** A line's lineHash, its bytes fed part by part (a long line read without holding it whole). */
export function lineHasher(): { update(bytes: Uint8Array): void; digest(): Buffer } {
	const state = hasher.create64();
	return {
		update: (bytes) => feed(state, bytes),
		digest: () => asLineHash(state.digest()),
	};
}
