/**
 * The Pi extension entry (named in package.json's "pi" manifest). Wiring only: registers event_search, event_read
 * and event_trace plus the /event-index command, opens the shared index on session_start (no scan) and starts
 * background catch-up, syncs the current session file on turn_end, and closes everything on session_shutdown (once
 * the agent run's last entry is written).
 * Pi recreates this instance on /new, /resume, /fork, /clone and /reload, so all state lives in this closure.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { CatchUpProgress } from "./contract.js";
import { AgentRuns } from "./extension/agent-runs.js";
import {
	COMMAND_NAME,
	COMMAND_USAGE,
	commandCompletions,
	progressText,
	runCommand,
	STATUS_KEY,
} from "./extension/command.js";
import { IndexRuntime } from "./extension/index-runtime.js";
import { readTool, searchTool, traceTool } from "./tools/definitions.js";

/** Footer updates at most this often during catch-up. */
const PROGRESS_INTERVAL_MS = 250;

/** Longest a shutdown waits for the agent run's last events (agent-runs.ts) before its final sync. */
const AGENT_END_WAIT_MS = 3_000;

/** Configuration problems already shown in this process (instances are recreated; the notice is not repeated). */
const SHOWN_PROBLEMS_KEY = Symbol.for("pi-event-index.shown-problems");
function shownProblems(): Set<string> {
	const g = globalThis as unknown as Record<symbol, Set<string> | undefined>;
	g[SHOWN_PROBLEMS_KEY] ??= new Set();
	return g[SHOWN_PROBLEMS_KEY];
}

/** Pi UI calls on a context that may have gone stale must never throw into the index. */
function safely(fn: () => void): void {
	try {
		fn();
	} catch {
		// A stale or UI-less context: nothing to show.
	}
}

/** Whether `ctx` can show anything now: false without a UI, and once Pi has made it stale (its getters throw then). */
function canShow(ctx: ExtensionContext): boolean {
	try {
		return ctx.hasUI;
	} catch {
		return false;
	}
}

export default function eventIndexExtension(pi: ExtensionAPI): void {
	let runtime: IndexRuntime | undefined;
	const runs = new AgentRuns();

	const current = () => runtime;
	pi.registerTool(searchTool(current));
	pi.registerTool(readTool(current));
	pi.registerTool(traceTool(current));

	// A registered tool_call handler makes Pi persist the calling assistant entry before execute runs, so the
	// current session's own file (and its invocation cutoff) is on disk when the tool syncs it.
	pi.on("tool_call", () => undefined);

	pi.on("session_start", async (_event, ctx) => {
		await runtime?.close();
		runtime = IndexRuntime.start({
			cwd: ctx.cwd,
			sessionFile: ctx.sessionManager.getSessionFile(),
			onProblems: (problems) => showProblems(ctx, problems),
			onProgress: progressReporter(ctx),
			onOpenFailed: (reason) => showProblems(ctx, [`${reason}; Pi goes on without event_search/read/trace`], "off"),
		});
	});

	pi.on("turn_end", async (_event, ctx) => {
		await runtime?.syncSessionFile(ctx.cwd, ctx.sessionManager.getSessionFile());
	});

	pi.on("agent_start", () => runs.started());
	pi.on("agent_end", () => runs.ended());

	pi.on("session_shutdown", async (_event, ctx) => {
		const closing = runtime;
		runtime = undefined;
		if (canShow(ctx)) safely(() => ctx.ui.setStatus(STATUS_KEY, undefined));
		// Pi may still be writing the run's last entry (agent-runs.ts).
		await runs.whenIdle(AGENT_END_WAIT_MS);
		// Lines written after the last turn (and a turn_end sync that gave up on another writer's lock) go in now.
		await closing?.finish(ctx.cwd, ctx.sessionManager.getSessionFile());
	});

	pi.registerCommand(COMMAND_NAME, {
		description: `Event index status or reindex (${COMMAND_USAGE.replace("usage: ", "")})`,
		getArgumentCompletions: commandCompletions,
		handler: (args, ctx) => runCommand(args, ctx, runtime),
	});
}

/** Notifies each problem once per process: configuration problems (defaults used) or why the index is off. */
function showProblems(ctx: ExtensionContext, problems: string[], kind: "config" | "off" = "config"): void {
	const shown = shownProblems();
	const fresh = problems.filter((p) => !shown.has(p));
	if (fresh.length === 0 || !canShow(ctx)) return;
	for (const p of fresh) shown.add(p);
	const title = kind === "config" ? "event index configuration problems (defaults used)" : "event index off";
	safely(() => ctx.ui.notify(`${title}:\n${fresh.map((p) => `- ${p}`).join("\n")}`, "warning"));
}

/** Catch-up progress into Pi's footer, throttled; undefined clears it. */
function progressReporter(ctx: ExtensionContext): (p: CatchUpProgress | undefined) => void {
	let last = 0;
	return (p) => {
		if (!canShow(ctx)) return;
		if (p === undefined) {
			safely(() => ctx.ui.setStatus(STATUS_KEY, undefined));
			return;
		}
		// A catch-up with nothing to do reports 0/0 once (its discovery is done): nothing to show.
		if (p.total === 0) return;
		const now = Date.now();
		if (now - last < PROGRESS_INTERVAL_MS && p.done < p.total) return;
		last = now;
		safely(() => ctx.ui.setStatus(STATUS_KEY, progressText(p)));
	};
}
