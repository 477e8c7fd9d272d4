// Runs the compiled program (dist/cli/run.js) in this process on the given arguments, as bin/pi-event-index.cjs
// would, then prints this process's peak resident set size (worker threads included) as the last stderr line:
// `peak-rss <bytes>`. The exit code is the program's.
import { runCli } from "../../../dist/cli/run.js";

const code = await runCli(process.argv.slice(2), {
	stdout: (t) => process.stdout.write(t),
	stderr: (t) => process.stderr.write(t),
	stderrIsTTY: false,
	stdoutIsTTY: false,
	columns: () => 80,
	env: process.env,
	cwd: process.cwd(),
	signal: new AbortController().signal,
});
process.stderr.write(`peak-rss ${process.resourceUsage().maxRSS * 1024}\n`);
process.exit(code);
