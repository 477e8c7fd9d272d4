/**
 * Compares the index with the files on disk and reports every difference: missing or extra sources, events that
 * differ from a fresh parse of the committed bytes, fragment or FTS rows out of step, checkpoints past the file end.
 * Reads whole files, so it is a maintenance tool (CLI `verify`, tests), never on a hot path.
 */
import { readFileSync, statSync } from "node:fs";
import { initialParseState, parseChunk } from "../parse/parse-chunk.js";
import { projectEntry } from "../project/project-entry.js";
import { computeTreeStates } from "../project/tree-states.js";
import type { SqliteDb } from "../store/db.js";
import { type DiscoveryRoot, discoverFiles } from "./discover.js";

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
		| "state-differs";
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
	fragments: number;
}

const MAX_DIFFERENCES = 1_000;

/** Verifies every source in the store and every file under `roots`. */
export function verifyIndex(db: SqliteDb, roots: DiscoveryRoot[], extraFiles: string[] = []): VerifyReport {
	const differences: Difference[] = [];
	const add = (d: Difference) => {
		if (differences.length < MAX_DIFFERENCES) differences.push(d);
	};
	const sources = db.prepare("SELECT id, path, offset FROM sources ORDER BY path").all() as Array<{
		id: number;
		path: string;
		offset: number;
	}>;
	const files = discoverFiles(roots, extraFiles);
	const indexed = new Set(sources.map((s) => s.path));
	for (const f of files)
		if (!indexed.has(f.path)) add({ path: f.path, kind: "not-indexed", detail: "file not in the index" });

	const eventsOf = db.prepare(
		`SELECT e.seq, e.entry_id AS entryId, e.entry_type AS entryType, e.byte_start AS byteStart, e.byte_end AS byteEnd,
			e.branch_state AS branchState, e.selection_state AS selectionState,
			(SELECT count(*) FROM fragments f WHERE f.source_id = e.source_id AND f.event_seq = e.seq) AS fragments
		FROM events e WHERE e.source_id = ? ORDER BY e.seq`,
	);
	for (const s of sources) {
		let bytes: Buffer;
		try {
			if (!statSync(s.path).isFile()) throw new Error("not a file");
			bytes = readFileSync(s.path);
		} catch {
			add({ path: s.path, kind: "file-gone", detail: "indexed file no longer exists" });
			continue;
		}
		if (s.offset > bytes.length) {
			add({ path: s.path, kind: "past-end", detail: `checkpoint ${s.offset} beyond file size ${bytes.length}` });
			continue;
		}
		const parsed = parseChunk(new Uint8Array(bytes.buffer, bytes.byteOffset, s.offset), initialParseState());
		const lastNewline = bytes.lastIndexOf(10);
		if (lastNewline + 1 > s.offset) {
			add({ path: s.path, kind: "behind", detail: `${lastNewline + 1 - s.offset} complete bytes not yet indexed` });
		}
		const expected = parsed.entries.map(projectEntry);
		const states = computeTreeStates(
			expected.map((e) => ({
				seq: e.seq,
				entryId: e.entryId,
				parentId: e.parentId,
				entryType: e.entryType,
				linkId: e.linkId ?? null,
			})),
		);
		const stored = new Map((eventsOf.all(s.id) as StoredEvent[]).map((e) => [e.seq, e]));
		for (const e of expected) {
			const got = stored.get(e.seq);
			if (!got) {
				add({ path: s.path, kind: "event-missing", detail: `entry ${e.entryId} (line ${e.lineNo}) not indexed` });
				continue;
			}
			stored.delete(e.seq);
			if (got.entryId !== e.entryId || got.byteStart !== e.byteStart || got.byteEnd !== e.byteEnd) {
				add({
					path: s.path,
					kind: "event-differs",
					detail: `seq ${e.seq}: index has ${got.entryId}@${got.byteStart}, file has ${e.entryId}@${e.byteStart}`,
				});
			} else if (got.fragments !== e.fragments.length) {
				add({
					path: s.path,
					kind: "fragments-differ",
					detail: `entry ${e.entryId}: ${got.fragments} fragments indexed, ${e.fragments.length} expected`,
				});
			}
			const st = states.get(e.seq);
			if (st && (st.branchState !== got.branchState || st.selectionState !== got.selectionState)) {
				add({
					path: s.path,
					kind: "state-differs",
					detail: `entry ${e.entryId}: ${got.branchState}/${got.selectionState}, expected ${st.branchState}/${st.selectionState}`,
				});
			}
		}
		for (const extra of stored.values()) {
			add({ path: s.path, kind: "event-extra", detail: `entry ${extra.entryId} (seq ${extra.seq}) not in the file` });
		}
	}
	const fts = db
		.prepare("SELECT (SELECT count(*) FROM fragments) AS f, (SELECT count(*) FROM fragments_fts) AS t")
		.get() as {
		f: number;
		t: number;
	};
	if (fts.f !== fts.t) add({ path: "", kind: "fts-differs", detail: `${fts.f} fragments but ${fts.t} FTS rows` });
	return { sources: sources.length, files: files.length, differences };
}
