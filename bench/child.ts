/**
 * Benchmark tasks that run in their own process (spawned by bench/lib/child.ts), so peak RSS, event-loop
 * stalls and warm-start times are not polluted by the orchestrator. Prints one `@@BENCH_RESULT {json}` line.
 */
import { appendFileSync, existsSync, rmSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import type { EventSearchRequest } from "../src/contract.js";
import { appendLine } from "./corpus/generate.js";
import { RESULT_PREFIX } from "./lib/child.js";
import { loadExtractor } from "./lib/extract.js";
import { databaseBytes, dirBytes, listJsonl } from "./lib/files.js";
import { median, now, startRssSampler, startStallMonitor } from "./lib/measure.js";
import { loadProjectApi, projectModuleUrl } from "./lib/project-api.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Args = Record<string, unknown>;

const tasks: Record<string, (a: Args) => Promise<unknown>> = {
	/** What a task process runs: Node's flags (inherited by its worker threads) and the project module it loads. */
	async runtime() {
		return { execArgv: process.execArgv, projectModule: projectModuleUrl() };
	},

	/** Insert the extracted fragment text of every file into a bare FTS5 table; only inserts are timed. */
	async "raw-fts"(a) {
		const files = listJsonl(a.sessionsDir as string);
		const extractor = await loadExtractor();
		const dbPath = a.dbPath as string;
		rmSync(dbPath, { force: true });
		rmSync(`${dbPath}-wal`, { force: true });
		rmSync(`${dbPath}-shm`, { force: true });
		const rss = startRssSampler();
		const db = new Database(dbPath);
		db.pragma("journal_mode = WAL");
		db.pragma("synchronous = NORMAL");
		db.exec(
			"CREATE VIRTUAL TABLE f USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')",
		);
		const insert = db.prepare("INSERT INTO f(rowid, body) VALUES (?, ?)");
		let batch: string[] = [];
		let batchBytes = 0;
		let rowid = 0;
		let insertMs = 0;
		let textBytes = 0;
		let jsonlBytes = 0;
		const flush = db.transaction((rows: string[]) => {
			for (const body of rows) insert.run(++rowid, body);
		});
		const wall = now();
		const commit = () => {
			const t = now();
			flush(batch);
			insertMs += now() - t;
			batch = [];
			batchBytes = 0;
		};
		for (const file of files) {
			jsonlBytes += statSync(file).size;
			for (const body of extractor.extract(file)) {
				const n = Buffer.byteLength(body);
				textBytes += n;
				batch.push(body);
				batchBytes += n;
				if (batchBytes >= 4 << 20) commit();
			}
		}
		if (batch.length) commit();
		const wallMs = now() - wall;
		db.close();
		return {
			extractor: extractor.name,
			files: files.length,
			rows: rowid,
			jsonlBytes,
			textBytes,
			insertMs,
			wallMs,
			dbBytes: statSync(dbPath).size,
			peakRss: rss.stop(),
		};
	},

	/** Full build of a fresh index: time, event-loop stalls of this (the host) process, peak RSS, index size. */
	async "cold-build"(a) {
		const api = await loadProjectApi();
		if (!api.ok) return { skipped: api.reason };
		const indexDir = a.indexDir as string;
		if (!a.keepIndex) rmSync(indexDir, { recursive: true, force: true });
		const stall = startStallMonitor();
		const rss = startRssSampler();
		const t0 = now();
		const idx = await api.open({
			agentDir: a.agentDir as string,
			indexDir,
			catchUpThreads: a.threads as 1 | 2 | undefined,
		});
		await idx.catchUp();
		const ms = now() - t0;
		const stalls = stall.stop();
		const peakRss = rss.stop();
		const coverage = await idx.coverage();
		const fragmentTextBytes = idx.fragmentTextBytes();
		// Settled: the pass is over and this process still holds its connection, as a running Pi does.
		const settled = { dirBytes: dirBytes(indexDir), databaseBytes: databaseBytes(indexDir) };
		await idx.close();
		return { ms, stalls, peakRss, coverage, fragmentTextBytes, indexBytes: dirBytes(indexDir), settled };
	},

	/** Open an existing index and answer one search: the time to the first answer. */
	async "warm-start"(a) {
		const api = await loadProjectApi();
		if (!api.ok) return { skipped: api.reason };
		const t0 = now();
		const idx = await api.open({ agentDir: a.agentDir as string, indexDir: a.indexDir as string });
		const t1 = now();
		const hits = idx.search(a.request as EventSearchRequest);
		const t2 = now();
		// The same search again, warm: what the first answer costs beyond the search itself is the difference.
		const again: number[] = [];
		for (let i = 0; i < 5; i++) {
			const t = now();
			idx.search(a.request as EventSearchRequest);
			again.push(now() - t);
		}
		await idx.close();
		return { ms: t2 - t0, openMs: t1 - t0, searchMs: t2 - t1, steadyMs: median(again), hits };
	},

	/** Append one line to each file in turn and time the hot-path sync of each. */
	async append(a) {
		const api = await loadProjectApi();
		if (!api.ok) return { skipped: api.reason };
		const files = a.files as Array<{ file: string; leafId: string; lastMs: number }>;
		const idx = await api.open({ agentDir: a.agentDir as string, indexDir: a.indexDir as string });
		const t0 = now();
		for (const f of files) await idx.syncFile(f.file);
		const initialMs = now() - t0;
		const times: number[][] = files.map(() => []);
		const leaf = files.map((f) => f.leafId);
		const reps = a.reps as number;
		for (let r = 0; r < reps; r++) {
			// Alternate the order so neither file always runs first.
			const order = r % 2 === 0 ? files.map((_, i) => i) : files.map((_, i) => files.length - 1 - i);
			for (const i of order) {
				const { line, id } = appendLine(leaf[i], 1000 + r, files[i].lastMs + (r + 1) * 1000);
				appendFileSync(files[i].file, line);
				leaf[i] = id;
				const t = now();
				await idx.syncFile(files[i].file);
				times[i].push(now() - t);
			}
		}
		await idx.close();
		return { initialMs, times };
	},

	/** Time each query `reps` times on an open index. */
	async search(a) {
		const api = await loadProjectApi();
		if (!api.ok) return { skipped: api.reason };
		const queries = a.queries as EventSearchRequest[];
		const idx = await api.open({ agentDir: a.agentDir as string, indexDir: a.indexDir as string });
		const times: number[][] = queries.map(() => []);
		const hits: number[] = [];
		// One untimed round first: these rows are a running process's latency (its first answer is figure 2).
		for (const q of queries) idx.search(q);
		for (let r = 0; r < (a.reps as number); r++) {
			queries.forEach((q, i) => {
				const t = now();
				hits[i] = idx.search(q);
				times[i].push(now() - t);
			});
		}
		await idx.close();
		return { times, hits };
	},

	/** Pi's own SessionManager.listAll() (what /resume reads), with PI_CODING_AGENT_DIR set by the parent. */
	async "list-all"(a) {
		const { SessionManager } = await import("@mariozechner/pi-coding-agent");
		const times: number[] = [];
		let sessions = 0;
		const rss = startRssSampler();
		for (let r = 0; r < (a.reps as number); r++) {
			const t = now();
			const list = await SessionManager.listAll();
			times.push(now() - t);
			sessions = list.length;
		}
		return { times, sessions, peakRss: rss.stop() };
	},

	/** Hot-path syncs of one appended file, every `intervalMs`, until `stopFile` exists or `count` samples. */
	async "hot-sync"(a) {
		const api = await loadProjectApi();
		if (!api.ok) return { skipped: api.reason };
		const idx = await api.open({ agentDir: a.agentDir as string, indexDir: a.indexDir as string });
		let leaf = a.leafId as string;
		const times: number[] = [];
		let busy = 0;
		const stopFile = a.stopFile as string | undefined;
		const deadline = now() + (a.maxMs as number);
		for (let n = 0; now() < deadline; n++) {
			if (stopFile ? existsSync(stopFile) : n >= (a.count as number)) break;
			const { line, id } = appendLine(leaf, 5000 + n + (a.offset as number), (a.lastMs as number) + (n + 1) * 1000);
			appendFileSync(a.file as string, line);
			leaf = id;
			const t = now();
			if ((await idx.syncFile(a.file as string)) === "busy") busy++;
			times.push(now() - t);
			await sleep(a.intervalMs as number);
		}
		await idx.close();
		return { times, busy, leafId: leaf };
	},
};

async function main(): Promise<void> {
	const [task, json] = process.argv.slice(2);
	const fn = tasks[task];
	if (!fn) throw new Error(`unknown bench task ${JSON.stringify(task)}; known: ${Object.keys(tasks).join(", ")}`);
	const result = await fn(JSON.parse(json ?? "{}"));
	// Flushed before exit: a pipe write is asynchronous, and process.exit cut a long result (11,000+ sync times).
	await new Promise<void>((resolve) =>
		process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`, () => resolve()),
	);
}

main().then(
	() => process.exit(0),
	(err) => {
		process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
		process.exit(1);
	},
);
