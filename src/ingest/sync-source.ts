/**
 * Sync of one session file (index-lifecycle.md, "Sync of one source"):
 *   1. stat; unchanged identity, size and mtime → done.
 *   2. gone → its rows are removed.
 *   3. shrunk, new identity or a fingerprint mismatch → rows dropped, indexed again from byte 0.
 *   4. otherwise read from the checkpoint to the last `\n`, parse, project, insert and advance the checkpoint,
 *      all in one transaction.
 *   5. malformed lines become receipts; they never abort the file.
 * Each batch is one BEGIN IMMEDIATE transaction that re-reads the checkpoint first, so concurrent indexers in any
 * number of processes index every complete line exactly once.
 */
import { type BigIntStats, closeSync, fstatSync, openSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { initialParseState, parseChunk } from "../parse/parse-chunk.js";
import type { ParseState, SkipReceipt } from "../parse/types.js";
import { projectEntry } from "../project/project-entry.js";
import { computeTreeStates, extendsLeaf, leafExtensionStates } from "../project/tree-states.js";
import type { ProjectedEvent, TreeNode, TreeStates } from "../project/types.js";
import { DEFAULT_BUSY_TIMEOUT_MS, type SqliteDb, sqliteErrorCode } from "../store/db.js";
import { CHUNK_BYTES, chunkReader } from "./chunk-reader.js";
import { fingerprintRanges, hashRange } from "./fingerprint.js";
import { type CheckpointUpdate, mergeReceipts, type SourceCheckpoint, SourceRows } from "./source-rows.js";

export interface SyncOptions {
	/** Input bytes per transaction; a longer backlog is committed in several batches. */
	batchBytes?: number;
	/** Lines longer than this are skipped with a receipt, without being held in memory. */
	maxLineBytes?: number;
	chunkBytes?: number;
	/** Called between batches (e.g. to yield to the event loop). */
	between?: () => Promise<void>;
	/** Checked between batches; true stops after the current batch (the checkpoint stays consistent). */
	shouldStop?: () => boolean;
	/**
	 * Wait for the write lock by polling every millisecond without blocking the thread, instead of SQLite's busy
	 * handler (which sleeps 1, 2, 5 … 100 ms between tries and blocks the event loop meanwhile). The hot path uses it.
	 */
	pollLock?: boolean;
	/**
	 * The caller holds an open write transaction (a bulk group, group-commit.ts): batches run in it without a
	 * savepoint each, since a savepoint makes FTS5 flush its pending terms (one small segment per file, merged again
	 * and again later). A failing batch throws `BatchFailed`: the caller must roll its transaction back.
	 */
	inTransaction?: boolean;
}

/** A batch failed inside the caller's transaction (`inTransaction`), which now holds half a batch. */
export class BatchFailed extends Error {
	constructor(
		readonly path: string,
		cause: unknown,
	) {
		super(cause instanceof Error ? cause.message : String(cause), { cause });
	}
}

export type SyncStatus = "unchanged" | "indexed" | "reindexed" | "removed" | "missing" | "failed" | "stopped";

export interface SyncResult {
	status: SyncStatus;
	/** Why the file was indexed again from byte 0. */
	reason?: "identity" | "shrunk" | "head-changed" | "tail-changed";
	entriesAdded: number;
	fragmentsAdded: number;
	bytesRead: number;
	/** Bytes read to check and refresh fingerprints: bounded by 4 × FINGERPRINT_BYTES per batch. */
	fingerprintBytes: number;
	skipped: number;
	/** The file was re-keyed from another path (moved between roots) rather than parsed again. */
	movedFrom?: string;
	error?: string;
}

export const DEFAULT_BATCH_BYTES = 4 << 20;

/** The result of a sync that found nothing to do. */
export function unchangedResult(): SyncResult {
	return { status: "unchanged", entriesAdded: 0, fragmentsAdded: 0, bytesRead: 0, fingerprintBytes: 0, skipped: 0 };
}
export const DEFAULT_MAX_LINE_BYTES = 8 << 20;

interface BatchResult extends SyncResult {
	done: boolean;
}

interface FileFacts {
	dev: string;
	ino: string;
	size: number;
	mtimeMs: number;
}

function facts(st: BigIntStats): FileFacts {
	return {
		dev: String(st.dev),
		ino: String(st.ino),
		size: Number(st.size),
		mtimeMs: Math.trunc(Number(st.mtimeMs)),
	};
}

/** The file is exactly as the last complete sync saw it: nothing to read. */
function matchesCheckpoint(row: SourceCheckpoint, file: FileFacts): boolean {
	return (
		row.syncedAt !== null &&
		row.dev === file.dev &&
		row.ino === file.ino &&
		row.size === file.size &&
		row.mtimeMs === file.mtimeMs
	);
}

function isGone(err: unknown): boolean {
	const code = (err as NodeJS.ErrnoException).code;
	return code === "ENOENT" || code === "ENOTDIR";
}

function exists(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch (err) {
		if (isGone(err)) return false;
		throw err;
	}
}

/** Opens the file and takes its facts from the open descriptor, so both describe the same inode. */
function openFile(path: string): { fd: number; file: FileFacts } | null {
	let fd: number;
	try {
		fd = openSync(path, "r");
	} catch (err) {
		if (isGone(err)) return null;
		throw err;
	}
	const st = fstatSync(fd, { bigint: true });
	if (!st.isFile()) {
		closeSync(fd);
		return null;
	}
	return { fd, file: facts(st) };
}

/** Per-connection sync machinery (prepared statements are reused across files and batches). */
export class SourceSyncer {
	private readonly rows: SourceRows;
	/** Bytes read for fingerprints in the current batch (constant per sync, whatever the file size). */
	private fingerprintBytes = 0;

	constructor(
		private readonly db: SqliteDb,
		private readonly options: SyncOptions = {},
	) {
		this.rows = new SourceRows(db);
	}

	/**
	 * True when the file's stat matches a complete checkpoint: nothing to read, and no write lock needed to learn
	 * it (a plain read, so a caller never queues behind another process's catch-up just to find nothing new).
	 */
	unchanged(path: string): boolean {
		const row = this.rows.get(path);
		if (!row) return false;
		let st: BigIntStats;
		try {
			st = statSync(path, { bigint: true });
		} catch {
			return false;
		}
		return matchesCheckpoint(row, facts(st));
	}

	/** Brings one file's rows up to date with its bytes on disk. Never throws for file or content problems. */
	async sync(path: string, opts: SyncOptions = {}): Promise<SyncResult> {
		const o = { ...this.options, ...opts };
		const total = unchangedResult();
		for (;;) {
			let batch: BatchResult;
			try {
				const run = () => this.batch(path, o);
				batch = o.inTransaction ? run() : o.pollLock ? await this.transactionPolling(run) : this.db.transaction(run);
			} catch (err) {
				if (o.inTransaction) throw new BatchFailed(path, err);
				return { ...total, status: "failed", error: this.recordFailure(path, err) };
			}
			total.entriesAdded += batch.entriesAdded;
			total.fragmentsAdded += batch.fragmentsAdded;
			total.bytesRead += batch.bytesRead;
			total.fingerprintBytes += batch.fingerprintBytes;
			total.skipped += batch.skipped;
			total.reason ??= batch.reason;
			total.movedFrom ??= batch.movedFrom;
			if (batch.status !== "unchanged" || total.status === "unchanged") {
				total.status = total.status === "reindexed" && batch.status === "indexed" ? "reindexed" : batch.status;
			}
			if (batch.done) return total;
			if (o.shouldStop?.()) return { ...total, status: "stopped" };
			await o.between?.();
		}
	}

	/** `db.transaction(fn)`, retried every millisecond while another connection holds the write lock. */
	private async transactionPolling<T>(fn: () => T): Promise<T> {
		const timeout = Number(this.db.pragma("busy_timeout"));
		const deadline = Date.now() + (Number.isFinite(timeout) ? timeout : DEFAULT_BUSY_TIMEOUT_MS);
		for (;;) {
			this.db.pragma("busy_timeout = 0");
			try {
				return this.db.transaction(fn);
			} catch (err) {
				if (sqliteErrorCode(err) !== "SQLITE_BUSY" || Date.now() >= deadline) throw err;
			} finally {
				this.db.pragma(`busy_timeout = ${timeout}`);
			}
			await new Promise((r) => setTimeout(r, 1));
		}
	}

	private recordFailure(path: string, err: unknown): string {
		const message = err instanceof Error ? err.message : String(err);
		try {
			this.db.transaction(() => {
				const row = this.rows.get(path);
				if (row) {
					this.db
						.prepare("UPDATE sources SET last_error = ?, failures = failures + 1 WHERE id = ?")
						.run(message.slice(0, 500), row.id);
				}
			});
		} catch {
			// The store itself is failing; the caller reports the original error.
		}
		return message;
	}

	/** One transaction: checks the file against its checkpoint and indexes at most one batch of new bytes. */
	private batch(path: string, o: SyncOptions): BatchResult {
		const result: BatchResult = { ...unchangedResult(), done: true };
		this.fingerprintBytes = 0;
		const opened = openFile(path);
		let row = this.rows.get(path);
		if (!opened) {
			if (row) this.rows.remove(row.id);
			result.status = row ? "removed" : "missing";
			return result;
		}
		const { fd, file } = opened;
		if (row && matchesCheckpoint(row, file)) {
			closeSync(fd);
			return result;
		}
		try {
			if (!row) {
				const moved = this.rekeyMoved(path, file, fd);
				if (moved) {
					result.movedFrom = moved.from;
					row = moved.row;
				}
			}
			if (!row) {
				row = this.rows.create(path, file.dev, file.ino, file.size, file.mtimeMs);
			} else {
				const reason = this.rewriteReason(row, file, fd);
				if (reason) {
					this.rows.clear(row.id);
					row = resetCheckpoint(row);
					result.reason = reason;
					result.status = "reindexed";
				}
			}
			return this.indexNewBytes(row, file, fd, o, result);
		} finally {
			closeSync(fd);
		}
	}

	/** A new path whose (dev, ino) and fingerprints match a source whose old path is gone: the file moved. */
	private rekeyMoved(path: string, file: FileFacts, fd: number): { row: SourceCheckpoint; from: string } | undefined {
		for (const candidate of this.rows.withIdentity(file.dev, file.ino)) {
			if (candidate.path === path || exists(candidate.path)) continue;
			if (this.rewriteReason(candidate, file, fd)) continue;
			this.rows.saveCheckpoint(candidate.id, { path });
			return { row: { ...candidate, path }, from: candidate.path };
		}
		return undefined;
	}

	private rewriteReason(row: SourceCheckpoint, file: FileFacts, fd: number): SyncResult["reason"] | undefined {
		if (row.dev !== file.dev || row.ino !== file.ino) return "identity";
		if (file.size < row.offset) return "shrunk";
		if (row.headLen > 0 && this.hash(fd, 0, row.headLen) !== row.headHash) return "head-changed";
		if (row.offset > row.tailStart && this.hash(fd, row.tailStart, row.offset) !== row.tailHash) return "tail-changed";
		return undefined;
	}

	private indexNewBytes(
		row: SourceCheckpoint,
		file: FileFacts,
		fd: number,
		o: SyncOptions,
		result: BatchResult,
	): BatchResult {
		const batchBytes = o.batchBytes ?? DEFAULT_BATCH_BYTES;
		const maxLine = o.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
		let state: ParseState = row.offset === 0 ? initialParseState() : parseStateOf(row);
		const reader = chunkReader(fd, state.byteOffset, file.size, o.chunkBytes ?? CHUNK_BYTES);
		const projected: ProjectedEvent[] = [];
		const receipts: SkipReceipt[] = [];
		let pending: Uint8Array = new Uint8Array(0);
		let sessionName: string | null | undefined;

		for (;;) {
			if (state.byteOffset - row.offset >= batchBytes) break;
			const chunk = reader.next();
			if (!chunk) break;
			pending = pending.length === 0 ? chunk : concat(pending, chunk);
			// The parser consumes an oversized line as it arrives (receipt at its `\n`), so `pending` stays bounded.
			const parsed = parseChunk(pending, state, { maxLineBytes: maxLine });
			const consumed = parsed.state.byteOffset - state.byteOffset;
			state = parsed.state;
			receipts.push(...parsed.receipts);
			for (const entry of parsed.entries) {
				const event = projectEntry(entry);
				if (event.sessionName !== undefined) sessionName = event.sessionName || null;
				projected.push(event);
			}
			pending = pending.subarray(consumed);
		}
		result.bytesRead = reader.bytesRead;
		const reachedEnd = state.byteOffset + pending.length >= file.size && !hasNewline(pending);
		const header = state.header;

		const states = this.treeStates(row, projected);
		result.fragmentsAdded = this.rows.insert(row.id, projected, (seq) => states.get(seq) ?? UNKNOWN_STATES);
		result.entriesAdded = projected.length;
		result.skipped = receipts.length;
		if (projected.length > 0 || receipts.length > 0 || row.offset !== state.byteOffset) {
			if (result.status === "unchanged") result.status = "indexed";
		}

		const last = projected[projected.length - 1];
		const { headLen, tailStart } = fingerprintRanges(state.byteOffset);
		const update: CheckpointUpdate = {
			dev: file.dev,
			ino: file.ino,
			size: file.size,
			mtimeMs: file.mtimeMs,
			offset: state.byteOffset,
			lineCount: state.lineCount,
			parseState: JSON.stringify(state),
			headLen,
			headHash: headLen === row.headLen && headLen > 0 ? row.headHash : headLen > 0 ? this.hash(fd, 0, headLen) : "",
			tailStart,
			tailHash: state.byteOffset > tailStart ? this.hash(fd, tailStart, state.byteOffset) : "",
			entryCount: state.entryCount,
			skippedCount: row.skippedCount + receipts.length,
			receipts: mergeReceipts(row.receipts, receipts),
			lastError: null,
			failures: 0,
			syncedAt: reachedEnd ? Date.now() : null,
		};
		if (last) {
			update.leafEntryId = last.entryId;
			update.leafSeq = last.seq;
		}
		if (sessionName !== undefined) update.sessionName = sessionName;
		if (header && row.sessionId === null) {
			update.sessionId = header.id;
			update.sessionVersion = header.version;
			update.cwd = header.cwd;
			update.headerTimestamp = header.timestamp;
			update.parentSession = header.parentSession ?? null;
			update.parentSessionPath = header.parentSession
				? resolveParentSession(header.parentSession, header.cwd, row.path)
				: null;
		}
		this.rows.saveCheckpoint(row.id, update);
		result.done = reachedEnd || reader.position >= file.size;
		result.fingerprintBytes = this.fingerprintBytes;
		return result;
	}

	private hash(fd: number, start: number, end: number): string {
		this.fingerprintBytes += end - start;
		return hashRange(fd, start, end) ?? "";
	}

	/**
	 * Tree states for the new events, computed before they are inserted. An append that only extends the current
	 * leaf gets them in O(new); a file's first batch from the new nodes alone; anything else (a branch, a compaction,
	 * a branch summary) from the whole source's skeleton, updating only the older rows whose states changed.
	 */
	private treeStates(row: SourceCheckpoint, projected: ProjectedEvent[]): Map<number, TreeStates> {
		const nodes: TreeNode[] = projected.map(toNode);
		if (nodes.length === 0) return new Map();
		if (row.entryCount === 0) return computeTreeStates(nodes);
		const fast = extendsLeaf(row.leafEntryId, nodes, {
			prevLeafStates: row.leafSeq === null ? undefined : this.rows.statesOf(row.id, row.leafSeq),
			idInUse: (id) => this.rows.idInUse(row.id, id),
		});
		if (fast) return leafExtensionStates(nodes);
		const stored = this.rows.loadSkeleton(row.id);
		const states = computeTreeStates([...stored, ...nodes]);
		this.rows.applyStates(row.id, stored, states);
		return states;
	}
}

const UNKNOWN_STATES = { branchState: "unknown", selectionState: "unknown" } as const;

function toNode(e: ProjectedEvent): TreeNode {
	return { seq: e.seq, entryId: e.entryId, parentId: e.parentId, entryType: e.entryType, linkId: e.linkId ?? null };
}

function resetCheckpoint(row: SourceCheckpoint): SourceCheckpoint {
	return {
		...row,
		offset: 0,
		lineCount: 0,
		parseState: "{}",
		headHash: "",
		headLen: 0,
		tailHash: "",
		tailStart: 0,
		leafEntryId: null,
		leafSeq: null,
		entryCount: 0,
		skippedCount: 0,
		receipts: "[]",
		syncedAt: null,
		sessionId: null,
	};
}

function parseStateOf(row: SourceCheckpoint): ParseState {
	try {
		const s = JSON.parse(row.parseState) as ParseState;
		if (typeof s.byteOffset === "number" && s.byteOffset === row.offset) return s;
	} catch {
		// fall through
	}
	throw new Error(`checkpoint of source ${row.id} has an unreadable parser state`);
}

/** Pi records parentSession as given on its command line; a relative one is relative to where Pi ran. */
export function resolveParentSession(parent: string, cwd: string, ownPath: string): string {
	if (isAbsolute(parent)) return resolve(parent);
	return cwd ? resolve(cwd, parent) : resolve(dirname(ownPath), parent);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
	const out = new Uint8Array(a.length + b.length);
	out.set(a, 0);
	out.set(b, a.length);
	return out;
}

function hasNewline(bytes: Uint8Array): boolean {
	return bytes.indexOf(10) >= 0;
}
