/**
 * Sync of one session file (docs/lifecycle.md, "Sync of one file"):
 *   1. stat; unchanged identity, size and mtime → done.
 *   2. gone, or forgotten (forgotten.ts) → its rows are removed.
 *   3. shrunk, new identity or a fingerprint mismatch → rows dropped, indexed again from byte 0.
 *   4. otherwise read from the checkpoint to the last `\n`, parse, project, insert and advance the checkpoint,
 *      all in one transaction.
 *   5. malformed lines become receipts; they never abort the file.
 * Each batch is one BEGIN IMMEDIATE transaction that re-reads the checkpoint first, so concurrent indexers in any
 * number of processes index every complete line exactly once.
 */
import { closeSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { initialParseState } from "../parse/parse-chunk.js";
import type { ParseState, SessionHeader } from "../parse/types.js";
import { computeTreeStates, extendsLeaf, leafExtensionStates, treeNodeOf } from "../project/tree-states.js";
import type { TreeNode, TreeStates } from "../project/types.js";
import { collectGarbage } from "../runtime.js";
import { encodeCode } from "../store/column-codes.js";
import { isBusyError, isDiskFull, isStoreDamage, withBusyTimeout } from "../store/db.js";
import type { SqliteDb } from "../store/driver.js";
import { eventNode, type IndexedEvent } from "./event-rows.js";
import { type FileFacts, matchesCheckpoint, openRegularFile, statRegularFile } from "./file-facts.js";
import { fingerprintRanges, hashRange } from "./fingerprint.js";
import { excludingGlob, type Forgotten, NO_INDEX_MARKER, type Tombstone } from "./forgotten.js";
import { FtsThreadError } from "./fts-thread.js";
import { type ReadOptions, readBatch } from "./read-batch.js";
import {
	type CheckpointUpdate,
	type FtsWrites,
	mergeReceipts,
	type SourceCheckpoint,
	SourceRows,
} from "./source-rows.js";
import { planHolds, plannedStates, type StatePlan } from "./state-plan.js";

export interface SyncOptions extends ReadOptions {
	/** Called between batches (e.g. to yield to the event loop). */
	between?: () => Promise<void>;
	/** Checked between batches; true stops after the current batch (the checkpoint stays consistent). */
	shouldStop?: () => boolean;
	/**
	 * Longest time one attempt to start a write transaction may block this thread (the hot path's frame budget);
	 * unset: the connection's busy timeout. Another process holding the write lock longer makes the sync "busy".
	 */
	busyTimeoutMs?: number;
	/**
	 * Time after the sync began past which a write lock held elsewhere is no longer retried (waited asynchronously,
	 * between attempts): one budget for the whole sync, however many batches it takes.
	 */
	busyWaitMs?: number;
	/**
	 * The caller holds an open write transaction (a bulk group, group-commit.ts): batches run in it without a
	 * savepoint each, since a savepoint makes FTS5 flush its pending terms (one small segment per file, merged again
	 * and again later). A failing batch throws `BatchFailed`: the caller must roll its transaction back.
	 */
	inTransaction?: boolean;
	/** Final tree states of a file indexed from byte 0, planned without the write lock (state-plan.ts). */
	statePlan?: StatePlan;
	/** The workspace a new source at this path is confined to (discover.ts `confinementOf`); none: the person's. */
	confine?: (path: string) => string | undefined;
	/** Forgotten sessions (forgotten.ts): their files are dropped from the index instead of read. */
	forgotten?: Forgotten;
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

/** "busy": another process held the write lock past the caller's budget; nothing was written or recorded. */
export type SyncStatus = "unchanged" | "indexed" | "reindexed" | "removed" | "missing" | "failed" | "stopped" | "busy";

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
	/** Older events whose tree states this sync changed (each one's FTS rows were tokenized again). */
	statesChanged: number;
	/** The file was re-keyed from another path (moved between roots) rather than parsed again. */
	movedFrom?: string;
	error?: string;
}

/** The result of a sync that found nothing to do. */
export function unchangedResult(): SyncResult {
	return {
		status: "unchanged",
		entriesAdded: 0,
		fragmentsAdded: 0,
		bytesRead: 0,
		fingerprintBytes: 0,
		skipped: 0,
		statesChanged: 0,
	};
}

interface BatchResult extends SyncResult {
	done: boolean;
}

/** Per-connection sync machinery (prepared statements are reused across files and batches). */
export class SourceSyncer {
	private readonly rows: SourceRows;
	/** Bytes read for fingerprints in the current batch (constant per sync, whatever the file size). */
	private fingerprintBytes = 0;
	/** Older events whose states the current batch changed. */
	private statesChanged = 0;

	constructor(
		private readonly db: SqliteDb,
		private readonly options: SyncOptions = {},
		fts?: FtsWrites,
	) {
		this.rows = new SourceRows(db, fts);
	}

	/** Starts the work of a write transaction the caller opened (a bulk group): see SourceRows.beginWrite. */
	beginWrite(): void {
		this.rows.beginWrite();
	}

	/** Right before the caller commits its transaction: see SourceRows.sealWrite. */
	sealWrite(): void {
		this.rows.sealWrite();
	}

	/** After the caller rolled its transaction back: see SourceRows.abandonWrite. */
	abandonWrite(): void {
		this.rows.abandonWrite();
	}

	/**
	 * True when the file's stat matches a complete checkpoint: nothing to read, and no write lock needed to learn
	 * it (a plain read, so a caller never queues behind another process's catch-up just to find nothing new).
	 */
	unchanged(path: string): boolean {
		const row = this.rows.get(path);
		if (!row) return false;
		const file = statRegularFile(path);
		return file !== undefined && matchesCheckpoint(row, file);
	}

	/**
	 * Drops the sources `ids` with all their rows in one write transaction, after `first` (which writes what must
	 * change with them: the tombstones of forgotten sessions) ran in it.
	 */
	removeSources(ids: readonly number[], first: () => void): void {
		this.db.transaction(() => {
			this.rows.beginWrite();
			try {
				first();
				for (const id of ids) this.rows.remove(id);
				this.rows.sealWrite();
			} catch (err) {
				this.rows.abandonWrite();
				throw err;
			}
		});
	}

	/** Brings one file's rows up to date with its bytes on disk. Never throws for file or content problems. */
	async sync(path: string, opts: SyncOptions = {}): Promise<SyncResult> {
		const o = { ...this.options, ...opts };
		const total = unchangedResult();
		const deadline = Date.now() + (o.busyWaitMs ?? 0);
		for (;;) {
			let batch: BatchResult | "busy";
			try {
				batch = o.inTransaction ? this.batch(path, o) : await this.lockedBatch(path, o, deadline);
			} catch (err) {
				// A damaged store is not this file's failure: the caller recovers the store (IndexManager, catch-up job).
				// Nor is a full disk: recording it would need space, and every other file would fail the same way.
				// Nor is a failing full-text thread, or a store whose two files a crash left apart: the pass stops.
				if (isStoreDamage(err) || isDiskFull(err) || err instanceof FtsThreadError) throw err;
				if (o.inTransaction) throw new BatchFailed(path, err);
				return { ...total, status: "failed", error: this.recordFailure(path, err) };
			}
			// Busy is nobody's failure, and recording it would need the very lock another process holds.
			if (batch === "busy") return { ...total, status: "busy" };
			total.entriesAdded += batch.entriesAdded;
			total.fragmentsAdded += batch.fragmentsAdded;
			total.bytesRead += batch.bytesRead;
			total.fingerprintBytes += batch.fingerprintBytes;
			total.skipped += batch.skipped;
			total.statesChanged += batch.statesChanged;
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

	/**
	 * One batch in its own write transaction. With `busyTimeoutMs` each attempt blocks this thread at most that long
	 * and a lock held elsewhere is retried every millisecond, without blocking, until `deadline` (the sync's
	 * `busyWaitMs`); then "busy". The last retry is made at the deadline, never after it.
	 */
	private async lockedBatch(path: string, o: SyncOptions, deadline: number): Promise<BatchResult | "busy"> {
		const run = () =>
			this.db.transaction(() => {
				this.rows.beginWrite();
				try {
					const result = this.batch(path, o);
					this.rows.sealWrite();
					return result;
				} catch (err) {
					this.rows.abandonWrite();
					throw err;
				}
			});
		if (o.busyTimeoutMs === undefined) return run();
		for (;;) {
			try {
				return withBusyTimeout(this.db, o.busyTimeoutMs, run);
			} catch (err) {
				if (!isBusyError(err)) throw err;
				const left = deadline - Date.now();
				if (left <= 0) return "busy";
				await new Promise((r) => setTimeout(r, Math.min(BUSY_RETRY_MS, left)));
			}
		}
	}

	private recordFailure(path: string, err: unknown): string {
		const message = err instanceof Error ? err.message : String(err);
		try {
			this.db.transaction(() => {
				// A file that fails before it ever had a row (unreadable) gets an empty one, so coverage counts it as
				// failed; its unknown identity makes the next successful sync index it from byte 0.
				const row = this.rows.get(path) ?? this.rows.create(path, "", "", 0, 0, this.options.confine?.(path));
				this.db
					.prepare("UPDATE sources SET last_error = ?, failures = failures + 1 WHERE id = ?")
					.run(message.slice(0, 500), row.id);
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
		this.statesChanged = 0;
		const opened = openRegularFile(path);
		let row = this.rows.get(path);
		if (!opened) {
			if (row) this.rows.remove(row.id);
			result.status = row ? "removed" : "missing";
			return result;
		}
		const { fd, file } = opened;
		if (o.forgotten?.has(path, row?.sessionId)) {
			closeSync(fd);
			if (row) this.rows.remove(row.id);
			result.status = row ? "removed" : "unchanged";
			return result;
		}
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
				row = this.rows.create(path, file.dev, file.ino, file.size, file.mtimeMs, o.confine?.(path));
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
			if (candidate.path === path || statRegularFile(candidate.path)) continue;
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
		const batch = readBatch(fd, row.path, file, row.offset === 0 ? initialParseState() : parseStateOf(row), o);
		const { projected, receipts, hashes, sessionName, huge, state, pending } = batch;
		result.bytesRead = batch.bytesRead;
		// The parsed entries are garbage once readBatch returned (its frame held them): free them, and the long line's
		// strings, before the insert adds the FTS body's copies; and write out the earlier rows' pending terms, so the
		// long line's terms reuse their memory instead of adding to it.
		if (huge) {
			collectGarbage();
			this.rows.flushPendingTerms();
		}
		const reachedEnd = state.byteOffset + pending.length >= file.size && !hasNewline(pending);
		const header = state.header;

		const cwd = header?.cwd ?? this.rows.cwdOf(row.id);
		const sessionId = header?.id ?? row.sessionId;
		const forget = o.forgotten && forgetReason(o.forgotten, projected, sessionId, cwd ?? "");
		if (forget) {
			o.forgotten?.record({ ...forget, path: row.path, sessionId, cwd });
			this.rows.remove(row.id);
			return { ...result, status: "removed", done: true };
		}
		// With a plan, the batches before the last take its states; the last recomputes them from the stored rows.
		const plan = o.statePlan && planHolds(o.statePlan, file) ? o.statePlan : undefined;
		const states = this.treeStates(row, projected, reachedEnd ? undefined : plan, plan !== undefined);
		result.fragmentsAdded = this.rows.insert(
			row.id,
			projected,
			(seq) => states.get(seq) ?? UNKNOWN_STATES,
			(seq) => hashes.get(seq) ?? null,
			cwd,
		);
		result.entriesAdded = projected.length;
		result.skipped = receipts.length;
		if (projected.length > 0 || receipts.length > 0 || row.offset !== state.byteOffset) {
			if (result.status === "unchanged") result.status = "indexed";
		}

		const last = leafOf(projected);
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
		// A batch from byte 0 (first sync, or a reset after a rewrite) owns every header-derived field: what the old
		// content said (id, cwd, name…) must never survive into the new one, even when the new one has no header yet.
		const fromStart = row.offset === 0;
		if (sessionName !== undefined) update.sessionName = sessionName;
		else if (fromStart) update.sessionName = null;
		if (fromStart || (header && row.sessionId === null)) Object.assign(update, headerFields(header, row.path));
		this.rows.saveCheckpoint(row.id, update);
		result.done = reachedEnd || batch.readTo >= file.size;
		result.fingerprintBytes = this.fingerprintBytes;
		result.statesChanged = this.statesChanged;
		if (huge) {
			// This batch's strings are garbage now: free them before the next batch decodes more.
			projected.length = 0;
			collectGarbage();
		}
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
	private treeStates(
		row: SourceCheckpoint,
		projected: IndexedEvent[],
		plan: StatePlan | undefined,
		recompute: boolean,
	): Map<number, TreeStates> {
		const nodes: TreeNode[] = projected.map((e) => treeNodeOf(eventNode(e)));
		if (nodes.length === 0) return new Map();
		const planned = plan && plannedStates(plan, nodes);
		if (planned) return planned;
		if (row.entryCount === 0) return computeTreeStates(nodes);
		if (recompute) return this.recomputeStates(row, nodes);
		const fast = extendsLeaf(row.leafEntryId, nodes, {
			prevLeafStates: row.leafSeq === null ? undefined : this.rows.statesOf(row.id, row.leafSeq),
			idInUse: (id) => this.rows.idInUse(row.id, id),
		});
		if (fast) return leafExtensionStates(nodes);
		return this.recomputeStates(row, nodes);
	}

	/** States of the whole source from its stored skeleton and the new nodes; older rows that changed are rewritten. */
	private recomputeStates(row: SourceCheckpoint, nodes: TreeNode[]): Map<number, TreeStates> {
		const stored = this.rows.loadSkeleton(row.id);
		const states = computeTreeStates([...stored, ...nodes]);
		this.statesChanged += this.rows.applyStates(row.id, stored, states);
		return states;
	}
}

/**
 * Why a file being indexed must be forgotten now: its session was forgotten under another path, its workspace is
 * excluded, or one of its user messages holds the marker. Undefined when it may be indexed.
 */
function forgetReason(
	forgotten: Forgotten,
	events: readonly IndexedEvent[],
	sessionId: string | null,
	cwd: string,
): Pick<Tombstone, "reason" | "glob" | "forgottenAt"> | undefined {
	const forgottenAt = new Date().toISOString();
	if (sessionId !== null && forgotten.has("", sessionId)) return { reason: "forget", forgottenAt };
	const glob = excludingGlob(forgotten.excludeGlobs, cwd);
	if (glob !== undefined) return { reason: "excluded", glob, forgottenAt };
	if (events.some(holdsMarker)) return { reason: "marker", forgottenAt };
	return undefined;
}

const USER_ROLE = encodeCode("role", "user");
const USER_TEXT = encodeCode("kind", "user_text");

/** A user message whose text holds NO_INDEX_MARKER (projected here, or made into rows by the prefetch thread). */
function holdsMarker(e: IndexedEvent): boolean {
	if (!Array.isArray(e)) {
		return e.role === "user" && e.fragments.some((f) => f.kind === "user_text" && f.text.includes(NO_INDEX_MARKER));
	}
	return (
		e[5] === USER_ROLE &&
		e[16].some((f) => f[2] === USER_TEXT && typeof f[7] === "string" && f[7].includes(NO_INDEX_MARKER))
	);
}

/** Pause between attempts to get a write lock held by another process (the event loop runs meanwhile). */
/** Poll interval while another connection holds the write lock (a 1 ms timer costs nothing while waiting). */
const BUSY_RETRY_MS = 1;

const UNKNOWN_STATES = { branchState: "unknown", selectionState: "unknown" } as const;

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

/** The checkpoint's header-derived columns for `header`, all null when there is none. */
function headerFields(header: SessionHeader | undefined, ownPath: string): CheckpointUpdate {
	return {
		sessionId: header?.id ?? null,
		sessionVersion: header?.version ?? null,
		cwd: header?.cwd ?? null,
		headerTimestamp: header?.timestamp ?? null,
		parentSession: header?.parentSession ?? null,
		parentSessionPath: header?.parentSession ? resolveParentSession(header.parentSession, header.cwd, ownPath) : null,
	};
}

/** Pi records parentSession as given on its command line; a relative one is relative to where Pi ran. */
function resolveParentSession(parent: string, cwd: string, ownPath: string): string {
	if (isAbsolute(parent)) return resolve(parent);
	return cwd ? resolve(cwd, parent) : resolve(dirname(ownPath), parent);
}

function hasNewline(bytes: Uint8Array): boolean {
	return bytes.indexOf(10) >= 0;
}

/** The last event's id and seq (only those: a reference to the event would keep its texts alive). */
function leafOf(events: readonly IndexedEvent[]): { entryId: string; seq: number } | undefined {
	const e = events[events.length - 1];
	if (!e) return undefined;
	const { entryId, seq } = eventNode(e);
	return { entryId, seq };
}
