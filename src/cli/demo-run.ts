/**
 * The demo (`npm start`): copy the bundled real Pi session fixtures into a temporary agent dir laid out like Pi's
 * (`sessions/--<cwd>--/`), then run the real program on it: reindex, a search, a read of the top hit and a trace of
 * it, each shown as the command a user would type. Nothing outside the temporary directory is read or written.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeSessionDirName } from "../config/pi-paths.js";
import type { EventSearchResult } from "../contract.js";
import { formatSearch } from "./format.js";
import { type CliIO, runCli } from "./run.js";

/** The bundled fixtures: real sessions written by Pi 0.73.1 and Pi 1.6. */
const FIXTURES_DIR = fileURLToPath(new URL("../../fixtures/", import.meta.url));

/** The workspace the demo reads as: the fixtures' sessions ran in /home/dev/project and /home/dev/sdk-project. */
const DEMO_WORKSPACE = "/home/dev";
/** What the demo searches for. */
const DEMO_QUERY = "compaction summary";

/** Options of the demo. */
export interface DemoOptions {
	/** Keep the temporary directory (and say where it is). */
	keep?: boolean;
	/** Parent of the temporary directory (default: the OS temp dir). */
	tmpRoot?: string;
}

/** One copied session file. */
interface Placed {
	cwd: string;
	file: string;
}

function headerCwd(file: string): string | undefined {
	const first = readFileSync(file, "utf8").split("\n", 1)[0] ?? "";
	try {
		const header = JSON.parse(first.replace(/^\uFEFF/, "")) as { type?: unknown; cwd?: unknown };
		return header.type === "session" && typeof header.cwd === "string" ? header.cwd : undefined;
	} catch {
		return undefined;
	}
}

/** Copy every fixture session into `<agentDir>/sessions/<encoded cwd>/`, as Pi lays them out. */
function placeFixtures(fixturesDir: string, agentDir: string): Placed[] {
	const placed: Placed[] = [];
	for (const group of readdirSync(fixturesDir, { withFileTypes: true })) {
		if (!group.isDirectory()) continue;
		for (const name of readdirSync(join(fixturesDir, group.name)).sort()) {
			if (!name.endsWith(".jsonl")) continue;
			const from = join(fixturesDir, group.name, name);
			const cwd = headerCwd(from);
			if (cwd === undefined) continue;
			const dir = join(agentDir, "sessions", encodeSessionDirName(cwd));
			mkdirSync(dir, { recursive: true });
			const to = join(dir, `${group.name}-${name}`);
			copyFileSync(from, to);
			placed.push({ cwd, file: to });
		}
	}
	return placed;
}

/** Runs the demo, writing to `io`; resolves with the exit code. */
export async function runDemo(io: CliIO, options: DemoOptions = {}): Promise<number> {
	const say = (text = "") => io.stdout(`${text}\n`);
	if (!existsSync(FIXTURES_DIR)) {
		io.stderr(`pi-event-index demo: the bundled fixtures are missing (${FIXTURES_DIR}); run it from a checkout\n`);
		return 1;
	}
	const base = mkdtempSync(join(options.tmpRoot ?? tmpdir(), "pi-event-index-demo-"));
	try {
		const agentDir = join(base, "agent");
		const indexDir = join(base, "index");
		const placed = placeFixtures(FIXTURES_DIR, agentDir);
		const visible = placed.filter((p) => p.cwd === DEMO_WORKSPACE || p.cwd.startsWith(`${DEMO_WORKSPACE}/`));
		const globals = ["--agent-dir", agentDir, "--index-dir", indexDir, "--workspace", DEMO_WORKSPACE];
		// The user's own PI_* variables must not point the demo at their real agent dir or index.
		const env = Object.fromEntries(Object.entries(io.env).filter(([k]) => !k.startsWith("PI_")));
		const run = async (args: string[], capture?: (out: string) => void): Promise<number> => {
			let out = "";
			const code = await runCli([...args, ...globals], {
				...io,
				env,
				stdout: capture ? (t) => (out += t) : io.stdout,
			});
			if (capture) capture(out);
			return code;
		};
		const shown = (args: string[]) => say(`$ pi-event-index ${args.map(shellQuote).join(" ")}`);

		say("pi-event-index demo: real Pi sessions from fixtures/, indexed into a temporary directory");
		say(`  agent dir  ${agentDir}  (${placed.length} session files, laid out as Pi does)`);
		say(`  index dir  ${indexDir}`);
		say(`  workspace  ${DEMO_WORKSPACE}: ${visible.length} of the sessions ran inside it; the others are indexed`);
		say("             but not readable from here (answers are limited to the caller's workspace)");
		say("  every command below also takes --agent-dir, --index-dir and --workspace as above, and --json");
		say();

		say("1. Build the index (the extension does this in the background; `npm run reindex` by hand):");
		shown(["reindex"]);
		if ((await run(["reindex"])) !== 0) return 1;
		say();

		say("2. Search, as the model's event_search does: small hits, each naming the event to read.");
		const searchArgs = ["search", DEMO_QUERY];
		shown(searchArgs);
		let json = "";
		if ((await run([...searchArgs, "--json", "--no-sync"], (o) => (json = o))) !== 0) return 1;
		const result = JSON.parse(json) as EventSearchResult;
		say(formatSearch(DEMO_QUERY, result));
		const top = result.hits[0];
		if (!top) {
			io.stderr("pi-event-index demo: the search found nothing; the fixtures or the index are broken\n");
			return 1;
		}
		say();

		say("3. Read the top hit exactly, as event_read does: the event, its fragments, its neighbours.");
		const readArgs = ["read", top.sessionId, top.entryId, "--fragment", top.matchingFragmentId];
		shown(readArgs);
		if ((await run([...readArgs, "--no-sync"])) !== 0) return 1;
		say();

		say("4. Trace it, as event_trace does: parent, children, branch siblings and related events.");
		const traceArgs = ["trace", top.sessionId, top.entryId];
		shown(traceArgs);
		if ((await run([...traceArgs, "--no-sync"])) !== 0) return 1;
		say();

		say("Your own sessions: pi-event-index reindex, then pi-event-index search WORDS (see docs/cli.md).");
		if (options.keep) say(`Kept ${base} (delete it when done).`);
		return 0;
	} finally {
		if (!options.keep) rmSync(base, { recursive: true, force: true });
	}
}

function shellQuote(arg: string): string {
	return /^[\w@%+=:,./#-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
