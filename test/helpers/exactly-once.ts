/**
 * The exactly-once checks of the multi-process ingest tests (Node only, and Node with Bun): flat session files that
 * grow a backlog pass by pass, and the index compared with those files line for line.
 */

import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCatchUpJob } from "../../src/ingest/catch-up-job.js";
import type { CatchUpThreads } from "../../src/ingest/catch-up-threads.js";
import { initFingerprints } from "../../src/ingest/fingerprint.js";
import { type Difference, verifyIndex } from "../../src/ingest/verify.js";
import { openStore } from "../../src/store/open-store.js";
import { lineFactory } from "./session-lines.js";
import { tempDir } from "./temp-store.js";

/** The layout of one exactly-once test: a temp root holding the session files, the index and the stop file. */
export interface ExactlyOnceDirs {
	/** The temp root; remove it in afterEach. */
	root: string;
	/** Flat folder of session files (created). */
	sessions: string;
	/** The index directory (created). */
	indexDir: string;
	/** Indexer children stop once this file exists (not created). */
	stopFile: string;
}

/** A fresh temp root (`<prefix>…`) laid out as {@link ExactlyOnceDirs}. */
export async function exactlyOnceDirs(prefix?: string): Promise<ExactlyOnceDirs> {
	const root = await tempDir(prefix);
	const dirs = { root, sessions: join(root, "sessions"), indexDir: join(root, "index"), stopFile: join(root, "stop") };
	mkdirSync(dirs.sessions);
	mkdirSync(dirs.indexDir);
	return dirs;
}

/** Writes `files` session headers (`<prefix>-<i>.jsonl`) into `sessions`; each call of the result appends a pass. */
export function backlogCorpus(sessions: string, files: number, prefix: string, label: string): (pass: number) => void {
	const corpus = Array.from({ length: files }, (_, i) => {
		const f = lineFactory({ prefix: `${prefix}${i}` });
		const path = join(sessions, `${prefix}-${i}.jsonl`);
		writeFileSync(path, f.header());
		return { f, path, i };
	});
	// 150 user lines of ~250 bytes per file and pass.
	return (pass) => {
		for (const c of corpus) {
			let body = "";
			for (let n = 0; n < 150; n++) body += c.f.user(`${label} ${c.i} pass ${pass} line ${n} ${"text ".repeat(40)}`);
			appendFileSync(c.path, body);
		}
	};
}

/** Complete lines in the session files of `sessions`, minus each file's header (and its empty or partial tail). */
export function completeLines(sessions: string): number {
	let n = 0;
	for (const f of readdirSync(sessions)) n += readFileSync(join(sessions, f), "utf8").split("\n").length - 2;
	return n;
}

/** What {@link indexVsFiles} found. */
export interface IndexVsFiles {
	/** Where the index and the files differ (see verifyIndex). */
	differences: Difference[];
	/** (source, entry) pairs indexed more than once. */
	dupes: unknown[];
	/** Indexed events. */
	events: number | undefined;
	generation: string;
}

/** The index in `indexDir` against the files of `sessions`; `committedOnly` ignores bytes not indexed yet (a killed indexer). */
export async function indexVsFiles(
	indexDir: string,
	sessions: string,
	lockStaleMs: number,
	committedOnly = false,
): Promise<IndexVsFiles> {
	await initFingerprints();
	const opened = await openStore({ dir: indexDir, lockStaleMs });
	if (!opened.ok) throw new Error(opened.error);
	try {
		const db = opened.store.db;
		const report = verifyIndex(db, [{ path: sessions, subfolders: false }]);
		const dupes = db
			.prepare("SELECT source_id, entry_id, count(*) AS n FROM events GROUP BY source_id, entry_id HAVING n > 1")
			.all();
		const events = db.prepare<[], { c: number }>("SELECT count(*) AS c FROM events").get()?.c;
		const differences = committedOnly
			? report.differences.filter((d) => d.kind !== "behind" && d.kind !== "not-indexed")
			: report.differences;
		return { differences, dupes, events, generation: opened.store.generation };
	} finally {
		opened.store.close();
	}
}

/**
 * A whole catch-up of `sessions` to the end, waiting for a killed holder's lock to go stale (`lockStaleMs`) and be
 * taken over; throws when the lock was never had.
 */
export async function finalCatchUp(
	indexDir: string,
	sessions: string,
	lockStaleMs: number,
	threads: CatchUpThreads = 1,
): Promise<void> {
	const end = Date.now() + 6 * lockStaleMs;
	for (;;) {
		const outcome = await runCatchUpJob({
			indexDir,
			roots: [{ path: sessions, subfolders: false }],
			extraFiles: [],
			workspaceDirs: [],
			lockStaleMs,
			threads,
		});
		if (outcome.kind === "done") return;
		if (Date.now() > end) throw new Error(`catch-up never got the lock: ${JSON.stringify(outcome)}`);
		await new Promise((r) => setTimeout(r, 200));
	}
}

/** A seeded pseudo-random sequence in [0, 1) (the kill moments of a crash test, the same on every run). */
export function seededRandom(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}
