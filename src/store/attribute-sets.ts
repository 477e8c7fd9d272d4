/**
 * `events.attributes`, stored once per distinct object (index format 6). Most events carry the same few objects
 * again and again (`{"provider":…,"model":…,"stopReason":"toolUse"}` on every assistant turn: 20 of the 24 MiB of
 * attributes on a 1 GB corpus), so an object made only of shared keys is kept once in `attribute_sets` and the event
 * holds its id, written as digits. An object holding an event's own value (a label, an error text, a token count)
 * stays inline as JSON text. A JSON object starts with `{`, so the two can never be confused.
 * This module is the only one that writes the column (`AttributeSetWriter`) and says how to read it
 * (`decodedAttributesSql`).
 */
import type { SqliteDb } from "./driver.js";

/** Keys whose values are this event's own (a free text or a count): an object holding one is stored inline. */
const PER_EVENT_KEYS: ReadonlySet<string> = new Set(["label", "errorMessage", "tokensBefore"]);

/** True when `attributes` is worth storing once for all events: non-empty and made only of shared keys. */
export function isSharedAttributeSet(attributes: Readonly<Record<string, unknown>>): boolean {
	const keys = Object.keys(attributes);
	return keys.length > 0 && keys.every((k) => !PER_EVENT_KEYS.has(k));
}

/** SQL giving the attributes JSON text of the events column `column`, whichever way it was stored. */
export function decodedAttributesSql(column: string): string {
	return `CASE WHEN substr(${column}, 1, 1) = '{' THEN ${column}
		ELSE (SELECT a.json FROM attribute_sets a WHERE a.id = CAST(${column} AS INTEGER)) END`;
}

/**
 * Encodes attributes for inserts. Ids are looked up again for every batch (`batch()`), never cached across
 * transactions: a rolled-back batch takes the sets it added with it.
 */
export class AttributeSetWriter {
	private readonly find;
	private readonly add;

	constructor(db: SqliteDb) {
		this.find = db.prepare("SELECT id FROM attribute_sets WHERE json = ?");
		this.add = db.prepare("INSERT INTO attribute_sets (json) VALUES (?)");
	}

	/**
	 * An encoder for one batch, inside its write transaction: the column value of an attributes object given as its
	 * JSON text and `isSharedAttributeSet` of it (both derived before the write: ingest/event-rows.ts).
	 */
	batch(): (json: string, shared: boolean) => string {
		const ids = new Map<string, string>();
		return (json, shared) => {
			if (!shared) return json;
			let id = ids.get(json);
			if (id === undefined) {
				const row = this.find.get(json) as { id: number } | undefined;
				id = String(row ? row.id : this.add.run(json).lastInsertRowid);
				ids.set(json, id);
			}
			return id;
		};
	}
}
