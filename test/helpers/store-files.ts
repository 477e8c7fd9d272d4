/** Sizes of a store's files as the tests see them: the store file and its full-text file (src/store/db.ts). */
import { statSync } from "node:fs";
import { storeFiles } from "../../src/store/db.js";

function sizeOr0(path: string): number {
	return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}

/** Bytes of both database files of the store whose store file is `path` (without WALs). */
export function storeBytes(path: string): number {
	return storeFiles(path).reduce((n, f) => n + sizeOr0(f.path), 0);
}

/** Bytes of both WAL files of that store. */
export function storeWalBytes(path: string): number {
	return storeFiles(path).reduce((n, f) => n + sizeOr0(`${f.path}-wal`), 0);
}
