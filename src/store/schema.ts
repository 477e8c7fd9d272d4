/**
 * The index schema (drizzle). `npm run db:generate` turns changes here into SQL under migrations/.
 * The FTS5 table `fragments_fts` lives in a custom migration: drizzle-kit cannot see virtual tables.
 * See docs/data-model.md for what each column holds.
 */
import { sql } from "drizzle-orm";
import { blob, foreignKey, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Key/value facts about the store itself (index format version, creator). */
export const meta = sqliteTable("meta", {
	key: text("key").primaryKey(),
	value: text("value").notNull(),
});

/** One session file and its checkpoint. Rows derived from it are keyed by `source_id`. */
export const sources = sqliteTable(
	"sources",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		/** Resolved absolute path: the source key. Never shown to the model. */
		path: text("path").notNull(),
		/** File identity: st_dev and st_ino as decimal text (they can exceed 2^53). */
		dev: text("dev").notNull(),
		ino: text("ino").notNull(),
		/** Size and mtime seen at the last sync. */
		size: integer("size").notNull(),
		mtimeMs: integer("mtime_ms").notNull(),
		/** Byte offset just past the last indexed complete line. */
		offset: integer("offset").notNull().default(0),
		lineCount: integer("line_count").notNull().default(0),
		/** Parser state to resume from `offset` (JSON of ParseState minus the header). */
		parseState: text("parse_state").notNull().default("{}"),
		/** xxHash64 (hex) of the first min(size, HEAD_BYTES) bytes, and how many bytes that was. */
		headHash: text("head_hash").notNull().default(""),
		headLen: integer("head_len").notNull().default(0),
		/** xxHash64 (hex) of the bytes [tailStart, offset). */
		tailHash: text("tail_hash").notNull().default(""),
		tailStart: integer("tail_start").notNull().default(0),
		/** Header fields (null until the header line is indexed). */
		sessionId: text("session_id"),
		sessionVersion: integer("session_version"),
		cwd: text("cwd"),
		headerTimestamp: text("header_timestamp"),
		/** parentSession exactly as recorded, and resolved against the file's directory. */
		parentSession: text("parent_session"),
		parentSessionPath: text("parent_session_path"),
		/** Latest session_info name (null when unset or cleared). */
		sessionName: text("session_name"),
		/** The materialized leaf: last entry in file order. */
		leafEntryId: text("leaf_entry_id"),
		leafSeq: integer("leaf_seq"),
		/** Number of entries indexed (next seq). */
		entryCount: integer("entry_count").notNull().default(0),
		/** Skipped lines: total count and the most recent receipts (JSON array, bounded). */
		skippedCount: integer("skipped_count").notNull().default(0),
		receipts: text("receipts").notNull().default("[]"),
		lastError: text("last_error"),
		/** Consecutive failed syncs; a source that keeps failing is not retried on every pass. */
		failures: integer("failures").notNull().default(0),
		/** Epoch ms of the last successful sync. */
		syncedAt: integer("synced_at"),
	},
	(t) => [
		uniqueIndex("sources_path").on(t.path),
		index("sources_identity").on(t.dev, t.ino),
		index("sources_session").on(t.sessionId),
		index("sources_cwd").on(t.cwd),
		index("sources_parent").on(t.parentSessionPath),
		// Coverage counts (every tool result carries one) read these tiny partial indexes instead of every source.
		index("sources_unsynced").on(t.id).where(sql.raw("synced_at IS NULL")),
		index("sources_failed").on(t.id).where(sql.raw("last_error IS NOT NULL")),
	],
);

/**
 * One public event = one persisted entry of one source. A WITHOUT ROWID table (migration 0008; drizzle's schema
 * cannot say so): a generated migration that rebuilds it must keep that.
 */
export const events = sqliteTable(
	"events",
	{
		sourceId: integer("source_id")
			.notNull()
			.references(() => sources.id, { onDelete: "cascade" }),
		/** Entry position in file order (0-based, header excluded). */
		seq: integer("seq").notNull(),
		entryId: text("entry_id").notNull(),
		parentId: text("parent_id"),
		/** Coded columns (entry_type, role, branch_state, selection_state; fragments.kind): a small integer, or the text of
		 * a value this version has no code for. Read and written only through src/store/column-codes.ts. */
		entryType: integer("entry_type").notNull(),
		role: integer("role"),
		toolName: text("tool_name"),
		toolCallId: text("tool_call_id"),
		isError: integer("is_error", { mode: "boolean" }).notNull().default(false),
		/** Epoch ms when the text was exactly toISOString's, else the text: read and written via column-codes.ts. */
		timestamp: integer("timestamp").notNull(),
		lineNo: integer("line_no").notNull(),
		byteStart: integer("byte_start").notNull(),
		byteEnd: integer("byte_end").notNull(),
		/** xxHash64 (8 bytes, big-endian) of the line's bytes [byte_start, byte_end): `verify` proves content with it. */
		lineHash: blob("line_hash", { mode: "buffer" }),
		/** compaction → firstKeptEntryId, branch_summary → fromId, label → targetId. */
		linkId: text("link_id"),
		/** JSON object of small scalar metadata, or the id (digits) of its row in attribute_sets: attribute-sets.ts. */
		attributes: text("attributes").notNull().default("{}"),
		/** JSON array of file paths named by the entry (trace file evidence). */
		files: text("files").notNull().default("[]"),
		branchState: integer("branch_state").notNull(),
		selectionState: integer("selection_state").notNull(),
	},
	(t) => [
		primaryKey({ columns: [t.sourceId, t.seq] }),
		index("events_entry").on(t.sourceId, t.entryId),
		index("events_parent").on(t.sourceId, t.parentId),
		// Partial: most entries have no link. Search filters by time only after FTS has chosen rows, so no timestamp
		// index is kept; a trace finds a call's result by walking the session (src/query/trace.ts), so no call-id index.
		index("events_link").on(t.sourceId, t.linkId).where(sql.raw("link_id IS NOT NULL")),
	],
);

/**
 * Semantic fragments. `id` is the rowid of `fragments_fts` (contentless FTS5 with contentless_delete), whose rank
 * column holds `searchText` of the whole text; a trigger deletes the FTS row with the fragment.
 */
export const fragments = sqliteTable(
	"fragments",
	{
		id: integer("id").primaryKey(),
		sourceId: integer("source_id").notNull(),
		eventSeq: integer("event_seq").notNull(),
		/** Position within the event; the public fragment id is `${entryId}#${ord}`. */
		ord: integer("ord").notNull(),
		/** A coded column (column-codes.ts). */
		kind: integer("kind").notNull(),
		/** The first STORED_HEAD_CHARS code points (all when shorter), TEXT or brotli BLOB: only store/fragment-text.ts reads it. */
		text: text("text").notNull(),
		/** Length of text in Unicode code points. */
		charCount: integer("char_count").notNull(),
		toolName: text("tool_name"),
		toolCallId: text("tool_call_id"),
	},
	(t) => [
		foreignKey({ columns: [t.sourceId, t.eventSeq], foreignColumns: [events.sourceId, events.seq] }).onDelete(
			"cascade",
		),
		uniqueIndex("fragments_event_ord").on(t.sourceId, t.eventSeq, t.ord),
	],
);

/** Attribute objects shared by many events, each stored once (attribute-sets.ts). */
export const attributeSets = sqliteTable(
	"attribute_sets",
	{
		id: integer("id").primaryKey(),
		json: text("json").notNull(),
	},
	(t) => [uniqueIndex("attribute_sets_json").on(t.json)],
);

export type SourceRow = typeof sources.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type FragmentRow = typeof fragments.$inferSelect;
