/**
 * The process boundary shared by the two entry points (main.ts, demo.ts): wires stdio, SIGINT and the environment
 * into a program function, then exits with its code once output is flushed. The only module that exits.
 */
import type { CliIO } from "./run.js";

/** Resolves once everything written to `stream` so far has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
	return new Promise((resolve) => stream.write("", () => resolve()));
}

/** Run `program` as this process: its resolved number is the exit code. */
export async function runAsProcess(program: (io: CliIO) => Promise<number>): Promise<never> {
	const controller = new AbortController();
	process.on("SIGINT", () => {
		// The first Ctrl-C stops the work at the next safe point; a second one leaves at once.
		if (controller.signal.aborted) process.exit(130);
		controller.abort();
	});
	// A closed pipe (e.g. `| head`) is not an error of the program.
	for (const stream of [process.stdout, process.stderr]) {
		stream.on("error", (err: NodeJS.ErrnoException) => {
			if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
			throw err;
		});
	}
	const code = await program({
		stdout: (t) => process.stdout.write(t),
		stderr: (t) => process.stderr.write(t),
		stderrIsTTY: process.stderr.isTTY === true,
		stdoutIsTTY: process.stdout.isTTY === true,
		columns: () => process.stderr.columns || 80,
		env: process.env,
		cwd: process.cwd(),
		signal: controller.signal,
	});
	await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
	// Exit explicitly: a lock refresh timer or a stray handle must not keep a finished command alive.
	process.exit(code);
}
