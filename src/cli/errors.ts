/** The CLI's failures: each carries one clear line for stderr and the exit code the boundary uses. */

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

/** A failure whose message is shown as is (one line, no stack). */
export class CliError extends Error {
	readonly exitCode: number;

	constructor(message: string, exitCode: number = EXIT.failure) {
		super(message);
		this.name = "CliError";
		this.exitCode = exitCode;
	}
}

/** A bad command line: exit 2 with a hint to the help text. */
export class UsageError extends CliError {
	constructor(message: string) {
		super(message, EXIT.usage);
		this.name = "UsageError";
	}
}
