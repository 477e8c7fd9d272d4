/**
 * THE ONE PLACE the benchmarks touch the project's ingestion and query code.
 *
 * Everything is loaded with dynamic imports inside try/catch, so the bench runs (and marks figures "not available
 * yet") while those modules are still being written. LEAD: if the APIs below change, adjust only this file.
 * Expected: `IndexManager.open({ indexDir, roots, ... })`, `.startCatchUp()`, `.syncFile(path)`, `.coverage()`,
 * `.close()`, `.store.db`; `searchEvents(db, req, caller)` with `DEFAULT_BUDGETS`.
 */
import { join } from "node:path";
import type { Coverage, EventSearchRequest } from "../../src/contract.js";
import { CORPUS_ROOT_CWD } from "../corpus/markers.js";

/** An open index as the benchmarks use it. */
interface BenchIndex {
	/** Whole-corpus catch-up (worker thread unless `useWorker: false`); rejects when it fails or is skipped. */
	catchUp(): Promise<void>;
	/** Hot-path sync of one file; its status ("busy": the lock stayed taken, answered from the index as it is). */
	syncFile(path: string): Promise<string>;
	/** Run one search as a caller authorized for every workspace; returns the number of hits. */
	search(req: EventSearchRequest): number;
	coverage(): Promise<Coverage>;
	/** Fragment text bytes (UTF-8) stored in the index. */
	fragmentTextBytes(): number;
	close(): Promise<void>;
}

/** Where the index lives and which agent dir it covers. */
interface OpenOptions {
	agentDir: string;
	indexDir: string;
	useWorker?: boolean;
	/** Threads of its catch-ups (src/config/threads.ts); the default is Pi's. */
	catchUpThreads?: 1 | 2;
}

/** The project API as loaded, or why it is not available. */
export type ProjectApi = { ok: true; open(o: OpenOptions): Promise<BenchIndex> } | { ok: false; reason: string };

// The shipped JavaScript (dist/, which `npm run bench` builds when stale): what Pi and the CLI run. Variable
// specifiers, so the bundled child (bench/lib/child.ts) imports dist/ rather than carrying a copy of it.
const INDEX_MANAGER = "../../dist/ingest/index-manager.js";
const QUERY_INDEX = "../../dist/query/index.js";

/** Where the index manager the tasks measure is loaded from. */
export function projectModuleUrl(): string {
	return import.meta.resolve(INDEX_MANAGER);
}

interface ManagerLike {
	startCatchUp(): Promise<{ kind: string; error?: string; reason?: string }>;
	syncFile(path: string): Promise<{ status: string; error?: string }>;
	coverage(): Promise<Coverage>;
	close(): Promise<void>;
	store: { db: { prepare(sql: string): { get(...p: unknown[]): unknown; all(...p: unknown[]): unknown[] } } };
}

/** Load the project's IndexManager and searchEvents, or explain why not. */
export async function loadProjectApi(): Promise<ProjectApi> {
	let manager: { open(o: unknown): Promise<ManagerLike> };
	let query: { searchEvents: (...a: unknown[]) => { hits: unknown[] }; DEFAULT_BUDGETS: unknown };
	try {
		manager = (await import(INDEX_MANAGER)).IndexManager;
		query = await import(QUERY_INDEX);
		if (typeof manager?.open !== "function" || typeof query.searchEvents !== "function")
			return { ok: false, reason: "IndexManager.open / searchEvents not exported yet" };
	} catch (err) {
		return { ok: false, reason: `not available yet (${(err as Error).message.split("\n")[0]})` };
	}
	const caller = {
		cwd: CORPUS_ROOT_CWD,
		authorization: { extraRoots: [], allRoots: true },
		budgets: query.DEFAULT_BUDGETS,
	};
	return {
		ok: true,
		async open(o: OpenOptions): Promise<BenchIndex> {
			const m = await manager.open({
				indexDir: o.indexDir,
				roots: [{ path: join(o.agentDir, "sessions"), subfolders: true }],
				useWorker: o.useWorker ?? true,
				catchUpThreads: o.catchUpThreads,
			});
			return {
				async catchUp() {
					const outcome = await m.startCatchUp();
					if (outcome.kind !== "done") throw new Error(`catch-up ${outcome.kind}: ${outcome.error ?? outcome.reason}`);
				},
				async syncFile(path) {
					const r = await m.syncFile(path);
					if (r.status === "failed") throw new Error(`sync failed: ${r.error ?? ""}`);
					return r.status;
				},
				search(req) {
					return query.searchEvents(m.store.db, req, caller).hits.length;
				},
				coverage: () => m.coverage(),
				fragmentTextBytes() {
					const row = m.store.db.prepare("SELECT sum(length(CAST(text AS BLOB))) AS n FROM fragments").get() as {
						n: number | null;
					};
					return row.n ?? 0;
				},
				close: () => m.close(),
			};
		},
	};
}
