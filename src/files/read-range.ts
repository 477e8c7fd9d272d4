/** Reading a byte range of an open file, whole or as much as the file still holds. */
import { readSync } from "node:fs";

/** Reads exactly [start, end) of an open file into `allocate(size)`; returns fewer bytes only if the file is shorter. */
export function readRange(
	fd: number,
	start: number,
	end: number,
	allocate: (size: number) => Uint8Array = (size) => new Uint8Array(size),
): Uint8Array {
	const length = Math.max(0, end - start);
	const buf = allocate(length);
	let filled = 0;
	while (filled < length) {
		const n = readSync(fd, buf, filled, length - filled, start + filled);
		if (n === 0) break;
		filled += n;
	}
	return filled === length ? buf : buf.subarray(0, filled);
}
