/**
 * The CLI's failures: each carries one clear line, its reason as data (a code and the offending field) and the exit
 * code the boundary uses. `--json` prints the data as `{ "error": { code, message, field? } }`; nothing parses the
 * message. Every message is bounded, whatever input it echoes (MAX_CLI_ERROR_CHARS).
 */
import { clipText, echo } from "../query/errors.js";

/**
 * Longest message a CLI error carries, in code points. Inputs are echoed clipped (MAX_ECHO_CHARS, query/errors.ts)
 * where the message is written; this bound holds for every other part too (a path, an internal error's text).
 */
export const MAX_CLI_ERROR_CHARS = 1_000;

/** Exit codes of the program. */
export const EXIT = {
	ok: 0,
	/** A failure, or `verify` found differences. */
	failure: 1,
	/** Bad command line (unknown command or option, missing or malformed value). */
	usage: 2,
	/** Interrupted by SIGINT. */
	interrupted: 130,
} as const;

/** Why a command line was rejected (exit 2). */
export type UsageCode =
	| "unknown_command"
	| "missing_command"
	| "unknown_option"
	| "option_not_applicable"
	| "missing_value"
	| "unexpected_value"
	| "duplicate_option"
	| "wrong_arguments"
	/** A value the CLI or the services reject (a bad integer, an unknown enum value, a bad time). */
	| "invalid_value";

/** Why a command failed (exit 1, or 130 for `interrupted`). */
type FailureCode =
	| "agent_dir_missing"
	| "root_missing"
	| "index_dir_unusable"
	| "no_index"
	| "index_unavailable"
	| "not_found"
	| "lock_held"
	| "read_only"
	| "reindex_failed"
	| "interrupted"
	| "internal";

/** Every error code the CLI reports. */
export type CliErrorCode = UsageCode | FailureCode;

/** The `--json` error object. */
export interface CliErrorReport {
	error: { code: CliErrorCode; message: string; field?: string };
}

/** A failure whose message is shown as is (one line, no stack). */
export class CliError extends Error {
	readonly exitCode: number;
	readonly code: CliErrorCode;
	/** The flag or argument at fault as the user typed it (e.g. "--kind", "SESSION"). */
	readonly field?: string;

	constructor(message: string, code: CliErrorCode, exitCode: number = EXIT.failure, field?: string) {
		super(clipText(message, MAX_CLI_ERROR_CHARS));
		this.name = "CliError";
		this.code = code;
		this.exitCode = exitCode;
		// The field is the flag or argument as typed: an option name can be as long as the input.
		if (field !== undefined) this.field = echo(field);
	}
}

/** A bad command line: exit 2. */
export class UsageError extends CliError {
	constructor(message: string, code: UsageCode, field?: string) {
		super(message, code, EXIT.usage, field);
		this.name = "UsageError";
	}
}

/** The interrupt failure (exit 130). */
export function interruptedError(message: string): CliError {
	return new CliError(message, "interrupted", EXIT.interrupted);
}
