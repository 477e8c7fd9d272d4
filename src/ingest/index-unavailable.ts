/** The error of an index that cannot be opened, apart from the manager so that read-only openers need not load it. */

/**
 * The store could not be opened at all (e.g. no usable index and an unwritable directory, a full disk). `code` is
 * SQLite's result code when SQLite said why, so the model boundary words it by meaning, never with SQLite's text.
 */
export class IndexUnavailableError extends Error {
	constructor(
		message: string,
		readonly code?: string,
	) {
		super(message);
	}
}
