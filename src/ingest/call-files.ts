/**
 * A tool result's files are its call's (docs/data-model.md, "Fragment kinds"): the paths the call's own arguments
 * name, stored on the call's fragment (`fragments.files`). The writer takes them from the calls it has just written
 * (one source at a time, in file order), else from the store: the last call with the result's id among the
 * CALL_REACH entries before it, the same answer whichever batch the call was written in.
 */
import { codeSql } from "../store/column-codes.js";
import type { SqliteDb } from "../store/driver.js";

/** Entries before a result its call is looked for among (Pi writes results right after their assistant turn). */
const CALL_REACH = 1_000;

/** Tool-call paths of one source's calls, as the writer meets them, and the store lookup behind them. */
export class CallFiles {
	private sourceId = -1;
	private readonly calls = new Map<string, { seq: number; files: string }>();
	private readonly lookup;

	constructor(db: SqliteDb) {
		this.lookup = db.prepare(
			`SELECT f.files FROM fragments f INDEXED BY fragments_event_ord
			WHERE f.source_id = ? AND f.event_seq BETWEEN ? AND ? AND f.kind = ${codeSql("kind", "tool_call")}
				AND f.tool_call_id = ?
			ORDER BY f.event_seq DESC LIMIT 1`,
		);
	}

	/** A call of `sourceId` at `seq` was written with these paths (JSON, or null for none). */
	remember(sourceId: number, seq: number, callId: string, files: string | null): void {
		this.use(sourceId);
		this.calls.set(callId, { seq, files: files ?? "[]" });
	}

	/** The files (JSON) of the call `callId` a result at `seq` of `sourceId` answers ("[]" when none is found). */
	filesOf(sourceId: number, seq: number, callId: string): string {
		this.use(sourceId);
		const known = this.calls.get(callId);
		if (known !== undefined && known.seq < seq) return known.seq >= seq - CALL_REACH ? known.files : "[]";
		const row = this.lookup.get(sourceId, seq - CALL_REACH, seq - 1, callId) as { files: string | null } | undefined;
		return row?.files ?? "[]";
	}

	/** Forgets the calls of any source but `sourceId`, or all of them (a source rewritten from the start). */
	use(sourceId: number): void {
		if (sourceId === this.sourceId) return;
		this.sourceId = sourceId;
		this.calls.clear();
	}

	/** Forgets every call (the source's rows were dropped). */
	clear(): void {
		this.sourceId = -1;
		this.calls.clear();
	}
}
