/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) so the corpus is byte-for-byte reproducible.
 * Math.random is never used by the generator.
 */

/** Deterministic random source with the helpers the generator needs. */
export interface Rng {
	/** Uniform float in [0, 1). */
	next(): number;
	/** Uniform integer in [0, n). */
	int(n: number): number;
	/** Uniform integer in [lo, hi] inclusive. */
	range(lo: number, hi: number): number;
	/** True with probability p. */
	chance(p: number): boolean;
	/** One element of a non-empty array. */
	pick<T>(items: readonly T[]): T;
	/** Lowercase hex string of n characters. */
	hex(n: number): string;
	/** Standard normal sample (Box–Muller). */
	normal(): number;
	/** An independent generator derived from this one and a label (stable sub-streams). */
	fork(label: string): Rng;
}

/** 32-bit FNV-1a of a string, used to turn seeds and labels into integers. */
export function hashString(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

function splitmix32(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s + 0x9e3779b9) >>> 0;
		let z = s;
		z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
		z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
		return (z ^ (z >>> 16)) >>> 0;
	};
}

/** Create a generator from a numeric or string seed. */
export function createRng(seed: number | string): Rng {
	const init = splitmix32(typeof seed === "number" ? seed : hashString(seed));
	let a = init();
	let b = init();
	let c = init();
	let d = init();
	const u32 = (): number => {
		// sfc32
		const t = (((a + b) | 0) + d) | 0;
		d = (d + 1) | 0;
		a = b ^ (b >>> 9);
		b = (c + (c << 3)) | 0;
		c = (c << 21) | (c >>> 11);
		c = (c + t) | 0;
		return t >>> 0;
	};
	for (let i = 0; i < 12; i++) u32();
	const rng: Rng = {
		next: () => u32() / 4294967296,
		int: (n) => Math.floor((u32() / 4294967296) * n),
		range: (lo, hi) => lo + Math.floor((u32() / 4294967296) * (hi - lo + 1)),
		chance: (p) => u32() / 4294967296 < p,
		pick: (items) => items[Math.floor((u32() / 4294967296) * items.length)],
		hex: (n) => {
			let out = "";
			while (out.length < n) out += u32().toString(16).padStart(8, "0");
			return out.slice(0, n);
		},
		normal: () => {
			const u = 1 - u32() / 4294967296;
			const v = u32() / 4294967296;
			return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
		},
		fork: (label) => createRng((u32() ^ hashString(label)) >>> 0),
	};
	return rng;
}
