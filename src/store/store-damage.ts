/** The error of damage a store check found (store-check.ts); its own module, so db.ts can know it without a cycle. */

/** A store check found damage: the store is moved aside and rebuilt, as for any other damage (db.ts isStoreDamage). */
export class StoreDamageError extends Error {
	constructor(
		/** The damaged table, as people know the store's files (e.g. `the events table of the store file`). */
		readonly where: string,
		/** SQLite's own report: for the log only (log.ts errorFields), never shown to a person or the model. */
		readonly detail: string,
	) {
		super(`the index is damaged: ${where}`);
	}
}
