/**
 * Row-level writes for one source: events, fragments, their FTS bodies, tree states and the checkpoint.
 * Every function here runs inside the caller's write transaction.
 */
import { SEMANTIC_KINDS } from "../contract.js";
import { SYSTEM_ROLE } from "../parse/conversation.js";
import type { SkipReceipt } from "../parse/types.js";
import type { TreeNode, TreeStates } from "../project/types.js";
import { type EventLine, readFragmentTexts, wholeFragmentText } from "../session-file/event-line.js";
import { AttributeSetWriter } from "../store/attribute-sets.js";
import { decodedSql, decodedTimestampSql, encodeCode, type StoredCode, storedSql } from "../store/column-codes.js";
import type { SqliteDb } from "../store/driver.js";
import { BODY_COLUMN, ID_STRIDE, TAGS_COLUMN } from "../store/fragment-ids.js";
import { decodeFragmentText, type StoredFragmentText } from "../store/fragment-text.js";
import { LedgerTouch, readLedger, repairLedger, sealLedger } from "../store/fts-ledger.js";
import { type TextDictionaryCache, textDictionaryOf } from "../store/text-dictionary.js";
import { fragmentPaths, fragmentTags, pathTags, placedTags, sourceTags, type TagFacts } from "../text/fragment-tags.js";
import { searchText } from "../text/search-text.js";
import { CallFiles } from "./call-files.js";
import { type IndexedEvent, isRetrieval, rowOf } from "./event-rows.js";

/** Receipts kept per source (the count is kept in full). */
const MAX_RECEIPTS = 50;

/** Each kind's stored code, back to its name (a kind this version has no code for is stored as its text). */
const KIND_OF_CODE = new Map<StoredCode, string>(SEMANTIC_KINDS.map((k) => [encodeCode("kind", k), k]));
const TOOL_RESULT_ROLE = encodeCode("role", "toolResult");

/** A stored JSON list of paths (events.files, fragments.files), [] when unreadable. */
function pathList(json: string | null): string[] {
	if (json === null || json === "[]") return [];
	try {
		const value: unknown = JSON.parse(json);
		return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
	} catch {
		return [];
	}
}

/** The checkpoint columns of `sources`, as read inside a sync transaction. */
export interface SourceCheckpoint {
	id: number;
	path: string;
	dev: string;
	ino: string;
	size: number;
	mtimeMs: number;
	offset: number;
	lineCount: number;
	parseState: string;
	headHash: string;
	headLen: number;
	tailHash: string;
	tailStart: number;
	leafEntryId: string | null;
	leafSeq: number | null;
	entryCount: number;
	skippedCount: number;
	receipts: string;
	syncedAt: number | null;
	lastError: string | null;
	sessionId: string | null;
}

/** An event's tree states, decoded (column-codes.ts). */
const STATE_COLUMNS = `${decodedSql("branchState", "branch_state")} AS branchState,
	${decodedSql("selectionState", "selection_state")} AS selectionState`;

const CHECKPOINT_COLUMNS = `id, path, dev, ino, size, mtime_ms AS mtimeMs, offset, line_count AS lineCount,
	parse_state AS parseState, head_hash AS headHash, head_len AS headLen, tail_hash AS tailHash,
	tail_start AS tailStart, leaf_entry_id AS leafEntryId, leaf_seq AS leafSeq, entry_count AS entryCount,
	skipped_count AS skippedCount, receipts, synced_at AS syncedAt, last_error AS lastError, session_id AS sessionId`;

/**
 * Where a connection's full-text rows go: its own statements on the attached full-text file (`directFtsWrites`), or
 * the full-text thread of a two-thread pass (fts-thread.ts), in the order they are made.
 */
export interface FtsWrites {
	/** True when this connection writes the full-text file itself, so it can check and repair the ledger. */
	readonly direct: boolean;
	/** A write transaction of the store file has just begun. */
	begin(): void;
	/** Writes (or replaces) the full-text row of fragment `id`. */
	insert(id: number, body: string, tags: string): void;
	/** Deletes the full-text row of fragment `id` (nothing when there is none). */
	delete(id: number): void;
	/**
	 * The store file's transaction is about to commit: so are the full-text writes, counted in the full-text file's
	 * half of the ledger (fts-ledger.ts) when they touched `sources`. `storeSeq` reads the store file's count so far,
	 * for a writer that cannot see both files to compare. Throws when they cannot be.
	 */
	seal(sources: number[], storeSeq: () => number): void;
	/** The store file's transaction was rolled back: so are the full-text writes made since `begin`. */
	abandon(): void;
}

/** The SQL of one full-text row's write, for whichever connection writes the full-text file. */
export const FTS_INSERT_SQL = `INSERT INTO fragments_fts (rowid, ${BODY_COLUMN}, ${TAGS_COLUMN}) VALUES (?, ?, ?)`;
export const FTS_DELETE_SQL = "DELETE FROM fragments_fts WHERE rowid = ?";

/** Full-text writes through the connection's own attached full-text file, in the same transaction. */
export function directFtsWrites(db: SqliteDb): FtsWrites {
	const insert = db.prepare(FTS_INSERT_SQL);
	const remove = db.prepare(FTS_DELETE_SQL);
	return {
		direct: true,
		begin() {},
		insert: (id, body, tags) => insert.run(id, body, tags),
		delete: (id) => remove.run(id),
		seal: (sources) => {
			if (sources.length > 0) sealLedger(db, "fts", sources);
		},
		abandon() {},
	};
}

/** Prepared statements for one connection, created once and reused for every batch. */
export class SourceRows {
	private readonly byPath;
	private readonly byIdentity;
	private readonly insertSource;
	private readonly insertEvent;
	private readonly insertFragment;
	private readonly nextSlot;
	private readonly fragmentIdsOfSource;
	private readonly touched = new LedgerTouch();
	private readonly eventFragments;
	private readonly deleteEvents;
	private readonly deleteSource;
	private readonly skeleton;
	private readonly updateStates;
	private readonly stateOf;
	private readonly cwdOfSource;
	private readonly idUse;
	private readonly attributeSets;
	private readonly callFiles;
	private readonly dictionary: TextDictionaryCache;
	private readonly updates = new Map<string, ReturnType<SqliteDb["prepare"]>>();

	constructor(
		private readonly db: SqliteDb,
		private readonly fts: FtsWrites = directFtsWrites(db),
	) {
		this.attributeSets = new AttributeSetWriter(db);
		this.callFiles = new CallFiles(db);
		this.dictionary = textDictionaryOf(db);
		this.byPath = db.prepare(`SELECT ${CHECKPOINT_COLUMNS} FROM sources WHERE path = ?`);
		this.byIdentity = db.prepare(`SELECT ${CHECKPOINT_COLUMNS} FROM sources WHERE dev = ? AND ino = ?`);
		// No RETURNING: it makes the INSERT a statement transaction, and every statement savepoint flushes FTS5's
		// pending terms to disk as a new segment (fts5SavepointMethod), once per file of a bulk pass.
		this.insertSource = db.prepare(
			"INSERT INTO sources (path, dev, ino, size, mtime_ms, confined_to) VALUES (?, ?, ?, ?, ?, ?)",
		);
		this.insertEvent = db.prepare(
			`INSERT INTO events (source_id, seq, entry_id, parent_id, entry_type, role, tool_name, tool_call_id, is_error,
				timestamp, line_no, byte_start, byte_end, line_hash, link_id, attributes, files, branch_state, selection_state)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		);
		this.insertFragment = db.prepare(
			`INSERT INTO fragments (id, source_id, event_seq, ord, kind, text, char_count, tool_name, tool_call_id, files)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		);
		this.nextSlot = db.prepare(`SELECT coalesce(max(id) / ${ID_STRIDE}, -1) + 1 AS slot FROM fragments`);
		this.fragmentIdsOfSource = db.prepare<[number], { id: number }>("SELECT id FROM fragments WHERE source_id = ?");
		this.eventFragments = db.prepare(
			`SELECT f.id, f.ord, ${decodedSql("kind", "f.kind")} AS kind, f.text, f.char_count AS charCount,
				f.tool_name AS toolName, f.files AS ownFiles, e.files AS eventFiles,
				${decodedSql("entryType", "e.entry_type")} AS entryType,
				${decodedSql("role", "e.role")} AS role, e.tool_name AS eventToolName, e.is_error AS isError,
				${decodedTimestampSql("e.timestamp")} AS timestamp, s.cwd, s.path,
				e.byte_start AS byteStart, e.byte_end AS byteEnd, e.line_hash AS lineHash
			FROM fragments f JOIN events e ON e.source_id = f.source_id AND e.seq = f.event_seq
			JOIN sources s ON s.id = f.source_id
			WHERE f.source_id = ? AND f.event_seq = ?`,
		);
		this.deleteEvents = db.prepare("DELETE FROM events WHERE source_id = ?");
		this.deleteSource = db.prepare("DELETE FROM sources WHERE id = ?");
		this.skeleton = db.prepare(
			// The role only where tree states look at it (TreeNode.role): no string per other message.
			`SELECT seq, entry_id AS entryId, parent_id AS parentId, ${decodedSql("entryType", "entry_type")} AS entryType,
				link_id AS linkId, CASE WHEN role = ${storedSql("role", SYSTEM_ROLE)} THEN '${SYSTEM_ROLE}' END AS role,
				${STATE_COLUMNS}
			FROM events WHERE source_id = ? ORDER BY seq`,
		);
		this.cwdOfSource = db.prepare("SELECT cwd FROM sources WHERE id = ?");
		this.stateOf = db.prepare(`SELECT ${STATE_COLUMNS} FROM events WHERE source_id = ? AND seq = ?`);
		this.idUse = db.prepare(
			`SELECT 1 FROM events WHERE source_id = @s AND entry_id = @id
			UNION ALL SELECT 1 FROM events WHERE source_id = @s AND parent_id = @id
			UNION ALL SELECT 1 FROM events WHERE source_id = @s AND link_id = @id LIMIT 1`,
		);
		this.updateStates = db.prepare(
			"UPDATE events SET branch_state = ?, selection_state = ? WHERE source_id = ? AND seq = ?",
		);
	}

	get(path: string): SourceCheckpoint | undefined {
		return this.byPath.get(path) as SourceCheckpoint | undefined;
	}

	withIdentity(dev: string, ino: string): SourceCheckpoint[] {
		return this.byIdentity.all(dev, ino) as SourceCheckpoint[];
	}

	/** A new source row with an empty checkpoint (`confinedTo`: see schema.ts `sources.confined_to`). */
	create(
		path: string,
		dev: string,
		ino: string,
		size: number,
		mtimeMs: number,
		confinedTo: string | undefined,
	): SourceCheckpoint {
		this.insertSource.run(path, dev, ino, size, mtimeMs, confinedTo ?? null);
		return this.get(path) as SourceCheckpoint;
	}

	/** Drops every derived row of a source (its FTS rows here, its fragments by cascade). */
	clear(sourceId: number): void {
		this.callFiles.clear();
		this.deleteFtsRows(sourceId);
		this.deleteEvents.run(sourceId);
	}

	/** Drops a source with all its rows. */
	remove(sourceId: number): void {
		this.callFiles.clear();
		this.deleteFtsRows(sourceId);
		this.deleteSource.run(sourceId);
	}

	/** No trigger can reach the full-text file from the store file's schema (migration 0012): each row goes here. */
	private deleteFtsRows(sourceId: number): void {
		this.touched.touch(sourceId);
		for (const { id } of this.fragmentIdsOfSource.all(sourceId)) this.fts.delete(id);
	}

	/**
	 * Starts a write transaction's work (inside it): a connection that writes the full-text file itself first repairs
	 * a transaction an earlier crash left in one file only (fts-ledger.ts).
	 */
	beginWrite(): void {
		this.touched.take();
		this.fts.begin();
		if (this.fts.direct) repairLedger(this.db);
	}

	/** Right before COMMIT: counts the open transaction in both halves of the ledger when it changed FTS rows. */
	sealWrite(): void {
		const sources = this.touched.take();
		this.fts.seal(sources, () => readLedger(this.db, "store").seq);
		if (sources.length > 0) sealLedger(this.db, "store", sources);
	}

	/** After a ROLLBACK: forgets what the transaction touched, and its full-text writes. */
	abandonWrite(): void {
		this.callFiles.clear();
		this.touched.take();
		this.fts.abandon();
	}

	/**
	 * Inserts events with their fragments and FTS documents; `states` and `lineHash` give each event's tree states
	 * and line hash, `cwd` is the session's header cwd (a filter tag).
	 */
	insert(
		sourceId: number,
		events: readonly IndexedEvent[],
		states: (seq: number) => TreeStates,
		lineHash: (seq: number) => Uint8Array | null,
		cwd: string | null,
	): number {
		let fragmentCount = 0;
		this.touched.touch(sourceId);
		// Ids are slot × ID_STRIDE + weight class (store/fragment-ids.ts); the writer holds the store lock, so the slots are its own.
		let slot = (this.nextSlot.get() as { slot: number }).slot;
		const attributes = this.attributeSets.batch();
		const source = sourceTags(sourceId, cwd);
		const dictionary = this.dictionary.forPacking();
		for (const e of events) {
			const [
				seq,
				entryId,
				parentId,
				type,
				linkId,
				role,
				tool,
				callId,
				isError,
				timestamp,
				lineNo,
				byteStart,
				byteEnd,
				attrs,
				shared,
				ownFiles,
				fragments,
			] = rowOf(e, dictionary);
			const s = states(seq);
			// A tool result's files are its call's (call-files.ts).
			const files =
				role === TOOL_RESULT_ROLE && callId !== null && ownFiles === "[]"
					? this.callFiles.filesOf(sourceId, seq, callId)
					: ownFiles;
			this.insertEvent.run(
				sourceId,
				seq,
				entryId,
				parentId,
				encodeCode("entryType", type),
				role,
				tool,
				callId,
				isError,
				timestamp,
				lineNo,
				byteStart,
				byteEnd,
				lineHash(seq),
				linkId,
				attributes(attrs, shared),
				files,
				encodeCode("branchState", s.branchState),
				encodeCode("selectionState", s.selectionState),
			);
			const eventPaths = pathList(files);
			for (const row of fragments) {
				const [weight, ord, kind, stored, charCount, fragmentTool, fragmentCall, body, own, callFiles] = row;
				const id = slot++ * ID_STRIDE + weight;
				this.insertFragment.run(id, sourceId, seq, ord, kind, stored, charCount, fragmentTool, fragmentCall, callFiles);
				const paths = this.pathsOf(
					sourceId,
					seq,
					KIND_OF_CODE.get(kind) ?? String(kind),
					fragmentCall,
					callFiles,
					eventPaths,
				);
				const text = typeof body === "string" ? body : body();
				this.fts.insert(id, text, placedTags(source, own, s.branchState, s.selectionState, pathTags(paths, cwd)));
				fragmentCount++;
			}
		}
		return fragmentCount;
	}

	/** The files a fragment being inserted touches (fragmentPaths); a tool call's are remembered for its result. */
	private pathsOf(
		sourceId: number,
		seq: number,
		kind: string,
		callId: string | null,
		callFiles: string | null,
		eventPaths: readonly string[],
	): readonly string[] {
		if (kind === "tool_call" && callId !== null) this.callFiles.remember(sourceId, seq, callId, callFiles);
		return fragmentPaths(kind, pathList(callFiles), eventPaths);
	}

	/**
	 * Writes FTS5's pending terms out as a segment now (a savepoint makes FTS5 flush them), inside the caller's
	 * transaction. Called before a batch holding a line of HUGE_LINE_BYTES or more: the pending hash may hold earlier
	 * rows' terms, and such a line adds its own several MiB on top. Only where this connection writes the full-text file
	 * itself: in a two-thread pass the file is detached here, so the savepoint flushes nothing, and the full-text
	 * thread's hash may hold up to its `hashsize` (4 MiB, catch-up-job.ts BULK_FTS_SETTINGS) beside such a line.
	 */
	flushPendingTerms(): void {
		this.db.exec("SAVEPOINT pending_terms; RELEASE pending_terms");
	}

	/**
	 * Rewrites the FTS documents of one event whose tree states changed, so its state tags stay true. A contentless
	 * row can only be replaced whole, so its text is indexed again: each event changes state a few times in its life
	 * (direct → summarized at a compaction, selected → alternate at a branch), so this stays proportional to the
	 * corpus over time.
	 */
	private retag(sourceId: number, seq: number, states: TreeStates): void {
		// The index keeps only the head of a long fragment: its FTS row is rewritten from the whole text, read from
		// the file (once per event: its fragments share the line).
		let lineTexts: string[] | undefined;
		for (const f of this.eventFragments.all(sourceId, seq) as FragmentForTags[]) {
			const { text, whole } = wholeFragmentText(decodeFragmentText(f.text, this.dictionary), f.charCount, () => {
				lineTexts ??= readFragmentTexts(f) ?? [];
				return lineTexts[f.ord];
			});
			// Unreadable as indexed (the file changed since): keep the row as it is, stale tags and all, rather than lose
			// its words past the head; a rewritten file is indexed again from scratch anyway.
			if (!whole) continue;
			this.touched.touch(sourceId);
			this.fts.delete(f.id);
			const facts: TagFacts = {
				sourceId,
				cwd: f.cwd,
				kind: f.kind,
				toolName: f.toolName ?? f.eventToolName,
				isError: f.isError === 1,
				retrieval: isRetrieval(f.toolName, f.role, f.eventToolName),
				timestamp: f.timestamp,
				branchState: states.branchState,
				selectionState: states.selectionState,
				paths: fragmentPaths(f.kind, pathList(f.ownFiles), pathList(f.eventFiles)),
			};
			this.fts.insert(f.id, searchText(text, f.kind), fragmentTags(facts));
		}
	}

	/** The stored header cwd of a source (null before its header was indexed). */
	cwdOf(sourceId: number): string | null {
		return (this.cwdOfSource.get(sourceId) as { cwd: string | null } | undefined)?.cwd ?? null;
	}

	/** Stored tree states of one event. */
	statesOf(sourceId: number, seq: number): TreeStates | undefined {
		return this.stateOf.get(sourceId, seq) as TreeStates | undefined;
	}

	/** True when an indexed entry of the source has this id, or names it as its parent or link target. */
	idInUse(sourceId: number, id: string): boolean {
		return this.idUse.get({ s: sourceId, id }) !== undefined;
	}

	/** The tree skeleton of a whole source, for a full tree-state recomputation. */
	loadSkeleton(sourceId: number): Array<TreeNode & TreeStates> {
		return this.skeleton.all(sourceId) as Array<TreeNode & TreeStates>;
	}

	/** Writes tree states that differ from what is stored. */
	applyStates(sourceId: number, stored: Array<TreeNode & TreeStates>, states: Map<number, TreeStates>): number {
		let changed = 0;
		for (const node of stored) {
			const s = states.get(node.seq);
			if (!s) continue;
			if (s.branchState !== node.branchState || s.selectionState !== node.selectionState) {
				this.updateStates.run(
					encodeCode("branchState", s.branchState),
					encodeCode("selectionState", s.selectionState),
					sourceId,
					node.seq,
				);
				this.retag(sourceId, node.seq, s);
				changed++;
			}
		}
		return changed;
	}

	/** Writes the checkpoint and header facts in the same transaction as the rows they describe. */
	saveCheckpoint(sourceId: number, c: CheckpointUpdate): void {
		const keys = Object.keys(c) as Array<keyof CheckpointUpdate>;
		const signature = keys.join(",");
		let update = this.updates.get(signature);
		if (!update) {
			// A sync writes one of a few column sets: each is prepared once per connection.
			const sets = keys.map((k) => `${COLUMN[k]} = @${k}`).join(", ");
			update = this.db.prepare(`UPDATE sources SET ${sets} WHERE id = @id`);
			this.updates.set(signature, update);
		}
		const params: Record<string, unknown> = { id: sourceId };
		for (const k of keys) {
			const v = c[k];
			params[k] = typeof v === "boolean" ? (v ? 1 : 0) : (v ?? null);
		}
		update.run(params);
	}
}

/** One stored fragment with the facts its tags are derived from. */
interface FragmentForTags extends EventLine {
	id: number;
	ord: number;
	kind: string;
	text: StoredFragmentText;
	charCount: number;
	toolName: string | null;
	ownFiles: string | null;
	eventFiles: string;
	role: string | null;
	eventToolName: string | null;
	isError: number;
	timestamp: string;
	cwd: string | null;
}

/** Checkpoint fields a sync may write; absent keys are left as they are. */
export interface CheckpointUpdate {
	path?: string;
	dev?: string;
	ino?: string;
	size?: number;
	mtimeMs?: number;
	offset?: number;
	lineCount?: number;
	parseState?: string;
	headHash?: string;
	headLen?: number;
	tailHash?: string;
	tailStart?: number;
	sessionId?: string | null;
	sessionVersion?: number | null;
	cwd?: string | null;
	headerTimestamp?: string | null;
	parentSession?: string | null;
	parentSessionPath?: string | null;
	sessionName?: string | null;
	leafEntryId?: string | null;
	leafSeq?: number | null;
	entryCount?: number;
	skippedCount?: number;
	receipts?: string;
	lastError?: string | null;
	failures?: number;
	syncedAt?: number | null;
}

const COLUMN: Record<keyof CheckpointUpdate, string> = {
	path: "path",
	dev: "dev",
	ino: "ino",
	size: "size",
	mtimeMs: "mtime_ms",
	offset: "offset",
	lineCount: "line_count",
	parseState: "parse_state",
	headHash: "head_hash",
	headLen: "head_len",
	tailHash: "tail_hash",
	tailStart: "tail_start",
	sessionId: "session_id",
	sessionVersion: "session_version",
	cwd: "cwd",
	headerTimestamp: "header_timestamp",
	parentSession: "parent_session",
	parentSessionPath: "parent_session_path",
	sessionName: "session_name",
	leafEntryId: "leaf_entry_id",
	leafSeq: "leaf_seq",
	entryCount: "entry_count",
	skippedCount: "skipped_count",
	receipts: "receipts",
	lastError: "last_error",
	failures: "failures",
	syncedAt: "synced_at",
};

/** Appends receipts to the stored JSON list, keeping the newest MAX_RECEIPTS. */
export function mergeReceipts(storedJson: string, added: SkipReceipt[]): string {
	if (added.length === 0) return storedJson;
	let stored: SkipReceipt[] = [];
	try {
		stored = JSON.parse(storedJson) as SkipReceipt[];
	} catch {
		stored = [];
	}
	return JSON.stringify([...stored, ...added].slice(-MAX_RECEIPTS));
}
