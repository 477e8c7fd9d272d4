/** Small file-system helpers shared by the bench tasks. */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { FTS_FILE_SUFFIX } from "../../src/store/db.js";

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

/**
 * Bytes of the SQLite database files directly in an index directory: each store file (`*.sqlite`) and its full-text
 * file (`*.sqlite-fts`), without their -wal/-shm.
 */
export function databaseBytes(dir: string): number {
	if (!existsSync(dir)) return 0;
	return readdirSync(dir)
		.filter((f) => f.endsWith(".sqlite") || f.endsWith(`.sqlite${FTS_FILE_SUFFIX}`))
		.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

/**
 * Reads every session file once, untimed, so a timed build reads its corpus from the page cache like the raw FTS5
 * floor before it. The bench machine's kernel pages out what was not touched for about a minute (DAMON reclaim:
 * `kdamond`), so a build started after another read part of its corpus from disk: a two-thread build took 80 s
 * instead of 36, its writer waiting 32 s for the prefetch thread.
 */
export function warmFiles(sessionsDir: string): void {
	const buf = Buffer.allocUnsafe(1 << 20);
	for (const file of listJsonl(sessionsDir)) {
		const fd = openSync(file, "r");
		try {
			while (readSync(fd, buf, 0, buf.length, null) > 0) {}
		} finally {
			closeSync(fd);
		}
	}
}
