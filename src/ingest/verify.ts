/**
 * Compares the index with the files on disk and reports every difference: missing or extra sources, events that
 * differ from a fresh parse of the committed bytes, fragment or FTS rows out of step, checkpoints past the file end.
 * Reads every committed byte (in chunks: verify-read.ts), so it is a maintenance tool (CLI `verify`, tests), never on
 * a hot path.
 */
import { closeSync } from "node:fs";
import { lineHash } from "../files/hash.js";
import type { SessionHeader } from "../parse/types.js";
import { computeTreeStates, treeNodeOf } from "../project/tree-states.js";
import type { ProjectedEvent, TreeNode, TreeStates } from "../project/types.js";
import { decodedAttributesSql } from "../store/attribute-sets.js";
import { decodedSql } from "../store/column-codes.js";
import { isStoreDamage, sqliteErrorCode } from "../store/db.js";
import type { SqliteDb, SqliteStatement } from "../store/driver.js";
import { decodeFragmentText, type StoredFragmentText } from "../store/fragment-text.js";
import { findStoreDamage } from "../store/store-check.js";
import { StoreDamageError } from "../store/store-damage.js";
import { type DictionaryLookup, textDictionaryOf } from "../store/text-dictionary.js";
import { storedPart } from "../text/stored-head.js";
import { type DiscoveredFile, type DiscoveryRoot, discoverFiles } from "./discover.js";
import type { Forgotten } from "./forgotten.js";
import {
	completeBytesAfter,
	GarbageCollector,
	openSessionFile,
	readCommitted,
	type VerifyChunk,
} from "./verify-read.js";

/** One disagreement between the index and the files. */
export interface Difference {
	path: string;
	kind:
		| "not-indexed"
		| "file-gone"
		| "behind"
		| "past-end"
		| "event-missing"
		| "event-extra"
		| "event-differs"
		| "fragments-differ"
		| "fts-differs"
		| "state-differs"
		| "content-differs"
		| "header-differs"
		| "name-differs"
		| "unreadable"
		| "store-damaged";
	detail: string;
}

export interface VerifyReport {
	sources: number;
	files: number;
	differences: Difference[];
}

interface StoredEvent {
	seq: number;
	entryId: string;
	entryType: string;
	byteStart: number;
	byteEnd: number;
	lineHash: Uint8Array | null;
	attributes: string | null;
}

/** A stored event with its fragments' stored texts, in order. */
interface StoredEventTexts extends StoredEvent {
	texts: StoredFragmentText[];
}

/** The header-derived columns of a source, compared with the file's header. */
interface StoredSource {
	id: number;
	path: string;
	offset: number;
	sessionId: string | null;
	cwd: string | null;
	sessionVersion: number | null;
	headerTimestamp: string | null;
	parentSession: string | null;
	sessionName: string | null;
}

/** Differences a report lists at most (a status says when the list was cut). */
export const MAX_DIFFERENCES = 1_000;

/** Records one difference (dropped once the report holds MAX_DIFFERENCES). */
type AddDifference = (d: Difference) => void;

/**
 * Verifies every source in the store and every file under `roots`. The store's pages are checked first (store-check.ts,
 * with FTS5's own check of the full-text index): damage is one difference, `store-damaged`, and nothing else is
 * compared (the rows cannot be trusted).
 */
export function verifyIndex(
	db: SqliteDb,
	roots: DiscoveryRoot[],
	extraFiles: string[] = [],
	forgotten?: Forgotten,
): VerifyReport {
	// A forgotten session's file is meant to be out of the index: not a difference.
	const gone = forgotten?.forgottenPaths();
	const files = discoverFiles(roots, extraFiles).filter((f) => !gone?.has(f.path));
	try {
		const damage = findStoreDamage(db, { fullText: true });
		if (damage) throw damage;
		return compareWithFiles(db, files);
	} catch (err) {
		// Damage the check cannot see (a packed text, a row of the wrong shape) still ends here, in SQLite's words never.
		if (!isStoreDamage(err)) throw err;
		return { sources: 0, files: files.length, differences: [storeDamaged(err)] };
	}
}

/** The difference a damaged store is: which table, never SQLite's text. */
export function storeDamaged(err: unknown): Difference {
	const where = err instanceof StoreDamageError ? err.where : "a table of the index";
	return { path: "", kind: "store-damaged", detail: `${where} is damaged; no row was compared with the files` };
}

/** Compares every source row with its file, and every discovered file with the rows. */
function compareWithFiles(db: SqliteDb, files: DiscoveredFile[]): VerifyReport {
	const differences: Difference[] = [];
	const add: AddDifference = (d) => {
		if (differences.length < MAX_DIFFERENCES) differences.push(d);
	};
	const sources = storedSources(db);
	reportUnindexedFiles(sources, files, add);
	const stored = storedRows(db);
	for (const s of sources) verifySource(s, stored, add);
	verifyFtsRows(db, add);
	return { sources: sources.length, files: files.length, differences };
}

/** Every source row's path, checkpoint and header-derived columns, ordered by path. */
function storedSources(db: SqliteDb): StoredSource[] {
	return db
		.prepare(
			`SELECT id, path, offset, session_id AS sessionId, cwd, session_version AS sessionVersion,
				header_timestamp AS headerTimestamp, parent_session AS parentSession, session_name AS sessionName
			FROM sources ORDER BY path`,
		)
		.all() as StoredSource[];
}

/** Reports each discovered file that has no source row. */
function reportUnindexedFiles(sources: StoredSource[], files: DiscoveredFile[], add: AddDifference): void {
	const indexed = new Set(sources.map((s) => s.path));
	for (const f of files)
		if (!indexed.has(f.path)) add({ path: f.path, kind: "not-indexed", detail: "file not in the index" });
}

/** How one source's rows are read, a range of seqs at a time: events, fragments' stored texts, the dictionary. */
interface StoredRows {
	/** Events of a source with seq in [from, to], ordered by seq. */
	events: SqliteStatement<[number, number, number], StoredEvent>;
	texts: SqliteStatement<[number, number, number], { seq: number; text: StoredFragmentText }>;
	/** Events of a source from a seq on (the file has fewer), at most MAX_DIFFERENCES. */
	extra: SqliteStatement<[number, number], { seq: number; entryId: string }>;
	/** Tree states of a source's events below a seq, ordered by seq. */
	states: SqliteStatement<[number, number], { seq: number; entryId: string } & TreeStates>;
	dictionary: DictionaryLookup;
	/** The whole verify's reads, for its garbage collections. */
	collector: GarbageCollector;
}

/** The statements reading one source's rows (decoded codes). */
function storedRows(db: SqliteDb): StoredRows {
	return {
		events: db.prepare(
			`SELECT e.seq, e.entry_id AS entryId, ${decodedSql("entryType", "e.entry_type")} AS entryType,
				e.byte_start AS byteStart, e.byte_end AS byteEnd, e.line_hash AS lineHash,
				${decodedAttributesSql("e.attributes")} AS attributes
			FROM events e WHERE e.source_id = ? AND e.seq BETWEEN ? AND ? ORDER BY e.seq`,
		),
		texts: db.prepare(
			`SELECT event_seq AS seq, text FROM fragments WHERE source_id = ? AND event_seq BETWEEN ? AND ?
			ORDER BY event_seq, ord`,
		),
		extra: db.prepare(
			`SELECT seq, entry_id AS entryId FROM events WHERE source_id = ? AND seq >= ? ORDER BY seq
			LIMIT ${MAX_DIFFERENCES}`,
		),
		states: db.prepare(
			`SELECT seq, entry_id AS entryId, ${decodedSql("branchState", "branch_state")} AS branchState,
				${decodedSql("selectionState", "selection_state")} AS selectionState
			FROM events WHERE source_id = ? AND seq < ? ORDER BY seq`,
		),
		dictionary: textDictionaryOf(db),
		collector: new GarbageCollector(),
	};
}

/**
 * Compares one source (checkpoint, header, name, every event, tree states) with a fresh parse of its committed
 * bytes, read chunk by chunk (verify-read.ts): memory stays flat whatever the file's size.
 */
function verifySource(s: StoredSource, stored: StoredRows, add: AddDifference): void {
	const file = openSessionFile(s.path);
	if (!("fd" in file)) {
		if (file.gone) add({ path: s.path, kind: "file-gone", detail: "indexed file no longer exists" });
		else add({ path: s.path, kind: "unreadable", detail: unreadableDetail(file.why) });
		return;
	}
	try {
		if (s.offset > file.size) {
			add({ path: s.path, kind: "past-end", detail: `checkpoint ${s.offset} beyond file size ${file.size}` });
			return;
		}
		const behind = completeBytesAfter(file.fd, s.offset, file.size);
		if (behind > 0) add({ path: s.path, kind: "behind", detail: `${behind} complete bytes not yet indexed` });
		// Only what the tree states need is kept of each event; the rest is compared chunk by chunk.
		const nodes: TreeNode[] = [];
		let sessionName: string | null = null;
		const read = readCommitted(file.fd, s.offset, stored.collector, (chunk) => {
			for (const e of chunk.events) {
				nodes.push(treeNodeOf(e));
				if (e.sessionName !== undefined) sessionName = e.sessionName || null;
			}
			verifyChunk(s, chunk, stored, add);
		});
		for (const d of headerDifferences(s, read.header, sessionName)) add({ path: s.path, ...d });
		const count = read.state.entryCount;
		for (const extra of stored.extra.all(s.id, count)) {
			add({ path: s.path, kind: "event-extra", detail: `entry ${extra.entryId} (seq ${extra.seq}) not in the file` });
		}
		verifyStates(s, nodes, stored, add);
	} catch (err) {
		// A read that fails half-way (an I/O error) is the file's, not the index's: SQLite's errors go on up.
		const code = (err as { code?: unknown }).code;
		if (typeof code !== "string" || sqliteErrorCode(err) !== undefined) throw err;
		add({ path: s.path, kind: "unreadable", detail: unreadableDetail(code) });
	} finally {
		closeSync(file.fd);
	}
}

function unreadableDetail(why: string): string {
	return why === "no longer a regular file" ? why : `file cannot be read (${why})`;
}

/** Pairs one chunk's expected events with the stored rows of their seqs: reports missing and differing events. */
function verifyChunk(s: StoredSource, chunk: VerifyChunk, stored: StoredRows, add: AddDifference): void {
	const first = chunk.events[0]?.seq ?? 0;
	const last = chunk.events.at(-1)?.seq ?? first;
	const texts = new Map<number, StoredFragmentText[]>();
	for (const f of stored.texts.all(s.id, first, last)) {
		const list = texts.get(f.seq);
		if (list) list.push(f.text);
		else texts.set(f.seq, [f.text]);
	}
	const rows = new Map(stored.events.all(s.id, first, last).map((e) => [e.seq, e]));
	chunk.events.forEach((e, i) => {
		const got = rows.get(e.seq);
		if (!got) {
			add({ path: s.path, kind: "event-missing", detail: `entry ${e.entryId} (line ${e.lineNo}) not indexed` });
			return;
		}
		verifyEvent(s.path, chunk.line(i), e, { ...got, texts: texts.get(e.seq) ?? [] }, stored.dictionary, add);
	});
}

/** Tree states of the whole file (the same computation the sync uses, which the Pi oracle test checks) vs the rows. */
function verifyStates(s: StoredSource, nodes: TreeNode[], stored: StoredRows, add: AddDifference): void {
	const states = computeTreeStates(nodes);
	for (const got of stored.states.iterate(s.id, nodes.length)) {
		const st = states.get(got.seq);
		if (st && (st.branchState !== got.branchState || st.selectionState !== got.selectionState)) {
			add({
				path: s.path,
				kind: "state-differs",
				detail: `entry ${got.entryId}: ${got.branchState}/${got.selectionState}, expected ${st.branchState}/${st.selectionState}`,
			});
		}
	}
}

/** Compares one stored event with its expected projection: identity, attributes, fragments, line hash. */
function verifyEvent(
	path: string,
	line: Uint8Array,
	e: ProjectedEvent,
	got: StoredEventTexts,
	dictionary: DictionaryLookup,
	add: AddDifference,
): void {
	const row = rowDifference(e, got) ?? textDifference(e, got.texts, dictionary);
	if (row) add({ path, ...row });
	const hash = lineHash(line);
	if (!got.lineHash || !hash.equals(Buffer.from(got.lineHash))) {
		add({
			path,
			kind: "content-differs",
			detail: `line ${e.lineNo} (entry ${e.entryId}) changed since indexed`,
		});
	}
}

/** The first of identity, attributes or fragment count that differs between row and expected event, if any. */
function rowDifference(e: ProjectedEvent, got: StoredEventTexts): Omit<Difference, "path"> | undefined {
	if (got.entryId !== e.entryId || got.byteStart !== e.byteStart || got.byteEnd !== e.byteEnd) {
		return {
			kind: "event-differs",
			detail: `seq ${e.seq}: index has ${got.entryId}@${got.byteStart}, file has ${e.entryId}@${e.byteStart}`,
		};
	}
	if (got.attributes !== JSON.stringify(e.attributes)) {
		return {
			kind: "event-differs",
			detail: `entry ${e.entryId}: attributes ${got.attributes ?? "missing"} indexed, ${JSON.stringify(e.attributes)} expected`,
		};
	}
	if (got.texts.length !== e.fragments.length) {
		return {
			kind: "fragments-differ",
			detail: `entry ${e.entryId}: ${got.texts.length} fragments indexed, ${e.fragments.length} expected`,
		};
	}
	return undefined;
}

/** The first fragment whose stored text is not its projection's stored part (or cannot be unpacked), if any. */
function textDifference(
	e: ProjectedEvent,
	texts: StoredFragmentText[],
	dictionary: DictionaryLookup,
): Omit<Difference, "path"> | undefined {
	for (const [ord, f] of e.fragments.entries()) {
		let stored: string;
		try {
			stored = decodeFragmentText(texts[ord] as StoredFragmentText, dictionary);
		} catch (err) {
			const detail = `entry ${e.entryId}: fragment ${ord}'s stored text cannot be read (${(err as Error).message})`;
			return { kind: "fragments-differ", detail };
		}
		if (stored !== storedPart(f.text)) {
			return {
				kind: "fragments-differ",
				detail: `entry ${e.entryId}: fragment ${ord}'s stored text differs from the file`,
			};
		}
	}
	return undefined;
}

/**
 * Reports fragments without their FTS row and FTS rows without a fragment, id by id (equal counts can hide both).
 * A contentless FTS5 table keeps one `fragments_fts_docsize` row per document it indexes.
 */
function verifyFtsRows(db: SqliteDb, add: AddDifference): void {
	const { missing, stray } = db
		.prepare(
			`SELECT (SELECT count(*) FROM fragments f WHERE NOT EXISTS (SELECT 1 FROM fragments_fts_docsize d WHERE d.id = f.id))
					AS missing,
				(SELECT count(*) FROM fragments_fts_docsize d WHERE NOT EXISTS (SELECT 1 FROM fragments f WHERE f.id = d.id))
					AS stray`,
		)
		.get() as { missing: number; stray: number };
	if (missing === 0 && stray === 0) return;
	const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
	add({
		path: "",
		kind: "fts-differs",
		detail: `${counted(missing, "fragment without its FTS row", "fragments without their FTS rows")}, ${counted(stray, "FTS row without a fragment", "FTS rows without a fragment")}`,
	});
}

/** Header identity (id, cwd, version, timestamp, parent) and session name: index vs file. */
function headerDifferences(
	s: StoredSource,
	header: SessionHeader | undefined,
	name: string | null,
): Array<Omit<Difference, "path">> {
	const out: Array<Omit<Difference, "path">> = [];
	const fields: Array<[string, unknown, unknown]> = [
		["id", s.sessionId, header?.id ?? null],
		["cwd", s.cwd, header?.cwd ?? null],
		["version", s.sessionVersion, header?.version ?? null],
		["timestamp", s.headerTimestamp, header?.timestamp ?? null],
		["parentSession", s.parentSession, header?.parentSession ?? null],
	];
	for (const [name, indexed, file] of fields) {
		if (indexed !== file) {
			out.push({
				kind: "header-differs",
				detail: `header ${name}: index has ${show(indexed)}, file has ${show(file)}`,
			});
		}
	}
	if (name !== s.sessionName) {
		out.push({
			kind: "name-differs",
			detail: `session name: index has ${show(s.sessionName)}, file has ${show(name)}`,
		});
	}
	return out;
}

function show(v: unknown): string {
	return v === null || v === undefined ? "none" : JSON.stringify(v);
}
