/**
 * Compares the index with the files on disk and reports every difference: missing or extra sources, events that
 * differ from a fresh parse of the committed bytes, fragment or FTS rows out of step, checkpoints past the file end.
 * Reads whole files, so it is a maintenance tool (CLI `verify`, tests), never on a hot path.
 */
import { readFileSync, statSync } from "node:fs";
import { initialParseState, parseChunk } from "../parse/parse-chunk.js";
import type { SessionHeader } from "../parse/types.js";
import { projectEntry } from "../project/project-entry.js";
import { computeTreeStates, treeNodeOf } from "../project/tree-states.js";
import type { ProjectedEvent, TreeStates } from "../project/types.js";
import { decodedAttributesSql } from "../store/attribute-sets.js";
import { decodedSql } from "../store/column-codes.js";
import type { SqliteDb, SqliteStatement } from "../store/db.js";
import { decodeFragmentText, type StoredFragmentText, storedPart } from "../store/fragment-text.js";
import { type DictionaryLookup, textDictionaryOf } from "../store/text-dictionary.js";
import { type DiscoveredFile, type DiscoveryRoot, discoverFiles } from "./discover.js";
import { lineHash } from "./fingerprint.js";
import type { Forgotten } from "./forgotten.js";

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
		| "unreadable";
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
	branchState: string;
	selectionState: string;
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

/** Verifies every source in the store and every file under `roots`. */
export function verifyIndex(
	db: SqliteDb,
	roots: DiscoveryRoot[],
	extraFiles: string[] = [],
	forgotten?: Forgotten,
): VerifyReport {
	const differences: Difference[] = [];
	const add: AddDifference = (d) => {
		if (differences.length < MAX_DIFFERENCES) differences.push(d);
	};
	const sources = storedSources(db);
	// A forgotten session's file is meant to be out of the index: not a difference.
	const files = discoverFiles(roots, extraFiles).filter((f) => !forgotten?.has(f.path));
	reportUnindexedFiles(sources, files, add);
	const stored: StoredRows = {
		events: storedEventsStatement(db),
		texts: db.prepare<[number], { seq: number; text: StoredFragmentText }>(
			"SELECT event_seq AS seq, text FROM fragments WHERE source_id = ? ORDER BY event_seq, ord",
		),
		dictionary: textDictionaryOf(db),
	};
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

/** How one source's rows are read: its events, its fragments' stored texts, the dictionary they are packed against. */
interface StoredRows {
	events: SqliteStatement<[number], StoredEvent>;
	texts: SqliteStatement<[number], { seq: number; text: StoredFragmentText }>;
	dictionary: DictionaryLookup;
}

/** The statement reading one source's events (decoded codes), ordered by seq. */
function storedEventsStatement(db: SqliteDb): SqliteStatement<[number], StoredEvent> {
	return db.prepare<[number], StoredEvent>(
		`SELECT e.seq, e.entry_id AS entryId, ${decodedSql("entryType", "e.entry_type")} AS entryType,
			e.byte_start AS byteStart, e.byte_end AS byteEnd, ${decodedSql("branchState", "e.branch_state")} AS branchState,
			${decodedSql("selectionState", "e.selection_state")} AS selectionState, e.line_hash AS lineHash,
			${decodedAttributesSql("e.attributes")} AS attributes
		FROM events e WHERE e.source_id = ? ORDER BY e.seq`,
	);
}

/** Compares one source (checkpoint, header, name, every event) with a fresh parse of its committed bytes. */
function verifySource(s: StoredSource, stored: StoredRows, add: AddDifference): void {
	const bytes = readSourceFile(s, add);
	if (bytes === undefined) return;
	if (s.offset > bytes.length) {
		add({ path: s.path, kind: "past-end", detail: `checkpoint ${s.offset} beyond file size ${bytes.length}` });
		return;
	}
	const parsed = parseChunk(new Uint8Array(bytes.buffer, bytes.byteOffset, s.offset), initialParseState());
	const lastNewline = bytes.lastIndexOf(10);
	if (lastNewline + 1 > s.offset) {
		add({ path: s.path, kind: "behind", detail: `${lastNewline + 1 - s.offset} complete bytes not yet indexed` });
	}
	const expected = parsed.entries.map(projectEntry);
	for (const d of headerDifferences(s, parsed.header, expected)) add({ path: s.path, ...d });
	// The same event → tree-node mapping and computation the sync uses (and the Pi oracle test checks).
	const states = computeTreeStates(expected.map(treeNodeOf));
	const texts = new Map<number, StoredFragmentText[]>();
	for (const f of stored.texts.all(s.id)) {
		const list = texts.get(f.seq);
		if (list) list.push(f.text);
		else texts.set(f.seq, [f.text]);
	}
	const events = stored.events.all(s.id).map((e) => ({ ...e, texts: texts.get(e.seq) ?? [] }));
	verifyEvents(s.path, bytes, expected, events, states, stored.dictionary, add);
}

/** The whole file, or undefined after reporting it gone (no such path) or unreadable (anything else). */
function readSourceFile(s: StoredSource, add: AddDifference): Buffer | undefined {
	try {
		if (!statSync(s.path).isFile()) {
			add({ path: s.path, kind: "unreadable", detail: "no longer a regular file" });
			return undefined;
		}
		return readFileSync(s.path);
	} catch (err) {
		const code = (err as { code?: string }).code;
		if (code === "ENOENT" || code === "ENOTDIR") {
			add({ path: s.path, kind: "file-gone", detail: "indexed file no longer exists" });
		} else add({ path: s.path, kind: "unreadable", detail: `file cannot be read (${code ?? String(err)})` });
		return undefined;
	}
}

/** Pairs expected events with stored rows by seq: reports missing, differing and extra events. */
function verifyEvents(
	path: string,
	bytes: Buffer,
	expected: ProjectedEvent[],
	storedRows: StoredEventTexts[],
	states: Map<number, TreeStates>,
	dictionary: DictionaryLookup,
	add: AddDifference,
): void {
	const stored = new Map(storedRows.map((e) => [e.seq, e]));
	for (const e of expected) {
		const got = stored.get(e.seq);
		if (!got) {
			add({ path, kind: "event-missing", detail: `entry ${e.entryId} (line ${e.lineNo}) not indexed` });
			continue;
		}
		stored.delete(e.seq);
		verifyEvent(path, bytes, e, got, states.get(e.seq), dictionary, add);
	}
	for (const extra of stored.values()) {
		add({ path, kind: "event-extra", detail: `entry ${extra.entryId} (seq ${extra.seq}) not in the file` });
	}
}

/** Compares one stored event with its expected projection: identity, attributes, fragments, line hash, states. */
function verifyEvent(
	path: string,
	bytes: Buffer,
	e: ProjectedEvent,
	got: StoredEventTexts,
	st: TreeStates | undefined,
	dictionary: DictionaryLookup,
	add: AddDifference,
): void {
	const row = rowDifference(e, got) ?? textDifference(e, got.texts, dictionary);
	if (row) add({ path, ...row });
	const hash = lineHash(bytes.subarray(e.byteStart, e.byteEnd));
	if (!got.lineHash || !hash.equals(Buffer.from(got.lineHash))) {
		add({
			path,
			kind: "content-differs",
			detail: `line ${e.lineNo} (entry ${e.entryId}) changed since indexed`,
		});
	}
	if (st && (st.branchState !== got.branchState || st.selectionState !== got.selectionState)) {
		add({
			path,
			kind: "state-differs",
			detail: `entry ${e.entryId}: ${got.branchState}/${got.selectionState}, expected ${st.branchState}/${st.selectionState}`,
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
	events: ProjectedEvent[],
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
	let name: string | null = null;
	for (const e of events) if (e.sessionName !== undefined) name = e.sessionName || null;
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
