/** Small file-system helpers shared by the bench tasks. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every `*.jsonl` under a directory, sorted. */
export function listJsonl(dir: string): string[] {
	const out: string[] = [];
	for (const d of readdirSync(dir, { withFileTypes: true })) {
		const full = join(dir, d.name);
		if (d.isDirectory()) out.push(...listJsonl(full));
		else if (d.name.endsWith(".jsonl")) out.push(full);
	}
	return out.sort();
}

/** Total bytes of the files in and under a directory (0 when it does not exist). */
export function dirBytes(dir: string): number {
	let n = 0;
	if (!existsSync(dir)) return 0;
	for (const d of readdirSync(dir, { withFileTypes: true })) {
		const full = join(dir, d.name);
		if (d.isDirectory()) n += dirBytes(full);
		else if (d.isFile()) n += statSync(full).size;
	}
	return n;
}

/** Bytes of the SQLite database files (`*.sqlite`, without their -wal/-shm) directly in an index directory. */
export function databaseBytes(dir: string): number {
	if (!existsSync(dir)) return 0;
	return readdirSync(dir)
		.filter((f) => f.endsWith(".sqlite"))
		.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}
