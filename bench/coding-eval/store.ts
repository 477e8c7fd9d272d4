/**
 * The converted corpus, opened for the evaluation: its sessions indexed through the project's real ingest path into
 * a fresh SQLite store in a temp dir, and every event's searchable text (the fragments the project itself projects,
 * joined) for the bm25-OR peer.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { initialParseState, parseChunk } from "../../src/parse/parse-chunk.js";
import { projectEntry } from "../../src/project/project-entry.js";
import type { SqliteDb } from "../../src/store/driver.js";
import { indexInTempDir } from "../lib/temp-index.js";
import type { CorpusIndex, CorpusSession } from "./convert.js";

/** One event as both searches see it. */
export interface CodingEvent {
	/** `${sessionId}/${entryId}`, as the project's hits name it. */
	key: string;
	/** `<session label>#<entry id>`, as the questions name it. */
	ref: string;
	cwd: string;
	text: string;
}

/** The indexed corpus. */
export interface CodingStore {
	db: SqliteDb;
	sessions: CorpusSession[];
	events: CodingEvent[];
	/** Question reference → event key. */
	keyOf: Map<string, string>;
	/** Session id → label. */
	labelOf: Map<string, string>;
	close(): void;
}

/** corpus.json of a converted corpus, or null when there is none at `dir`. */
export function loadCorpusIndex(dir: string): CorpusIndex | null {
	const path = join(dir, "corpus.json");
	return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as CorpusIndex) : null;
}

/** Every event's searchable text, read back through the project's parser and projection. */
function eventsOf(dir: string, session: CorpusSession): CodingEvent[] {
	const bytes = readFileSync(join(dir, session.file));
	const { entries } = parseChunk(bytes, initialParseState());
	return entries.map((entry) => {
		const projected = projectEntry(entry);
		return {
			key: `${session.id}/${projected.entryId}`,
			ref: `${session.label}#${projected.entryId}`,
			cwd: session.cwd,
			text: projected.fragments.map((f) => f.text).join("\n"),
		};
	});
}

/** Indexes the corpus at `dir` into a fresh store (tens of seconds for the full corpus). */
export async function openCodingStore(dir: string, index: CorpusIndex): Promise<CodingStore> {
	const store = await indexInTempDir("pi-coding-eval-", () => index.sessions.map((s) => join(dir, s.file)));
	try {
		const events = index.sessions.flatMap((s) => eventsOf(dir, s));
		return {
			db: store.db,
			sessions: index.sessions,
			events,
			keyOf: new Map(events.map((e) => [e.ref, e.key])),
			labelOf: new Map(index.sessions.map((s) => [s.id, s.label])),
			close: store.close,
		};
	} catch (err) {
		store.close();
		throw err;
	}
}
