/**
 * The `/event-index` command: `status` (default) shows coverage, index location, generation and counts;
 * `reindex` runs catch-up now and `reindex --full` rebuilds the index, with progress in Pi's status line;
 * `forget [SESSION]` and `unforget SESSION` as the CLI's (docs/security-secrets-and-forget.md).
 * This text is for the user, not the model, so it may name the index directory.
 */

import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { CatchUpProgress } from "../contract.js";
import { coverageText } from "../text/coverage-text.js";
import { type CatchUpResult, ForgetError } from "../workspace-index.js";
import { type IndexRuntime, type RuntimeStatus, resolveSessionFile } from "./index-runtime.js";
import { shortReason } from "./public-errors.js";

/** Name of the command (typed as `/event-index`). */
export const COMMAND_NAME = "event-index";
/** Key of the extension's entry in Pi's footer status. */
export const STATUS_KEY = "event-index";

/** Usage line shown for unknown arguments. */
export const COMMAND_USAGE =
	"usage: /event-index [status | reindex [--full]], /event-index forget [SESSION], /event-index unforget SESSION";

/** What `/event-index` accepts, as completions offer it. */
const COMMAND_FORMS = ["status", "reindex", "reindex --full", "forget", "unforget"] as const;

/**
 * Completions of `/event-index <prefix>`. Once the typed text is a whole command, nothing is offered: Pi's Enter
 * applies a shown completion instead of submitting, so `reindex` would otherwise become `reindex --full` (a
 * rebuild) and `status` need a second Enter.
 */
export function commandCompletions(prefix: string): Array<{ value: string; label: string }> | null {
	const typed = prefix.trim();
	if ((COMMAND_FORMS as readonly string[]).includes(typed)) return null;
	const items = COMMAND_FORMS.filter((v) => v.startsWith(typed));
	return items.length > 0 ? items.map((v) => ({ value: v, label: v })) : null;
}

/** The footer text for a catch-up in progress. */
export function progressText(p: CatchUpProgress): string {
	const pct = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 0;
	return `event-index: ${p.done}/${p.total} files (${pct}%)`;
}

/** What a finished catch-up or rebuild did, truthfully: a catch-up with nothing to do says the index was up to date. */
export function reindexSummary(what: "catch-up" | "rebuild", r: CatchUpResult): string {
	if (r.total === 0) {
		return what === "rebuild"
			? "event index: rebuild done: no session files found"
			: "event index: catch-up done: already up to date (no session file is new or changed since it was indexed)";
	}
	const files = what === "rebuild" ? "session files" : "new or changed session files";
	const parts = [`${r.indexed} of ${r.total} ${files} indexed`];
	if (r.removed > 0) parts.push(`${r.removed} gone (removed from the index)`);
	if (r.failed > 0) parts.push(`${r.failed} failed`);
	if (r.stopped) parts.push("stopped before the end");
	return `event index: ${what} done: ${parts.join(", ")}`;
}

/** Human-readable status, one fact per line. */
export function runtimeStatusText(s: RuntimeStatus): string {
	if (!s.open) return `event index: not open (${s.error ?? "unknown reason"})`;
	const lines = [`event index: ${s.indexDir}`];
	lines.push(`generation: ${s.generation}${s.readOnly ? " (read-only: a newer version owns it)" : ""}`);
	if (s.coverage) lines.push(coverageText(s.coverage, s.progress));
	if (s.counts)
		lines.push(`rows: ${s.counts.sources} session files, ${s.counts.events} events, ${s.counts.fragments} fragments`);
	if (s.forgotten !== undefined) lines.push(`forgotten: ${s.forgotten} session files`);
	if (s.catchUpRunning)
		lines.push(`catch-up running${s.progress ? `: ${s.progress.done}/${s.progress.total} files` : ""}`);
	if (s.refused) lines.push(s.refused);
	for (const p of s.problems) lines.push(`config problem: ${p}`);
	if (s.logFile) lines.push(`log: ${s.logFile}`);
	return lines.join("\n");
}

/** Where command output goes: Pi's UI when there is one, else stderr (stdout belongs to print/json modes). */
function say(ctx: ExtensionCommandContext, text: string, level: "info" | "warning" | "error" = "info"): void {
	if (ctx.hasUI) ctx.ui.notify(text, level);
	else process.stderr.write(`${text}\n`);
}

/** Runs `/event-index <args>` against the current runtime. */
export async function runCommand(
	args: string,
	ctx: ExtensionCommandContext,
	runtime: IndexRuntime | undefined,
): Promise<void> {
	const words = args.trim().split(/\s+/).filter(Boolean);
	const sub = words[0] ?? "status";
	if (!runtime) {
		say(ctx, "event index: no session is active", "error");
		return;
	}
	try {
		if (sub === "status" && words.length <= 1) {
			say(ctx, runtimeStatusText(await runtime.status()));
			return;
		}
		if (sub === "reindex" && (words.length === 1 || (words.length === 2 && words[1] === "--full"))) {
			await runtime.ready();
			const job = reindex(ctx, runtime, words[1] === "--full");
			// With a UI the work runs in the background (progress in the footer); print mode waits for it.
			if (!ctx.hasUI) await job;
			return;
		}
		if ((sub === "forget" && words.length <= 2) || (sub === "unforget" && words.length === 2)) {
			say(ctx, await forgetOrUnforget(sub, words[1], ctx, runtime));
			return;
		}
		say(ctx, COMMAND_USAGE, "warning");
	} catch (err) {
		say(ctx, `event index: ${shortReason(err)}`, "error");
	}
}

/**
 * `/event-index forget` (this session: Pi keeps writing it, and none of it is indexed from now on), `forget SESSION`
 * (an id or a unique prefix) and `unforget SESSION`.
 */
async function forgetOrUnforget(
	sub: "forget" | "unforget",
	id: string | undefined,
	ctx: ExtensionCommandContext,
	runtime: IndexRuntime,
): Promise<string> {
	const index = await runtime.ready();
	if (sub === "unforget") {
		const back = await index.manager.unforget(id ?? "");
		return back.length === 0
			? `event index: no forgotten session has the id "${id}"`
			: `event index: unforgot ${back.length} session file${back.length === 1 ? "" : "s"} (indexed again)`;
	}
	const self = id === undefined;
	// With a screen, a completed `forget` is one Enter away from the prompt: ask first. Print mode acts as typed.
	const what = self ? "this session" : `session ${id}`;
	if (ctx.hasUI && !(await ctx.ui.confirm("Forget?", `Take ${what} out of the event index for good?`))) {
		return "event index: nothing forgotten";
	}
	const current = resolveSessionFile(ctx.cwd, ctx.sessionManager.getSessionFile());
	const sel = self
		? { sessionId: ctx.sessionManager.getSessionId(), ...(current ? { file: current } : {}) }
		: { sessionId: id };
	try {
		const gone = await index.manager.forget(sel, true);
		const which = self ? what : `session ${gone[0]?.sessionId ?? id}`;
		return `event index: forgot ${which} (${gone.length} file${gone.length === 1 ? "" : "s"}): out of every answer now, and kept out while the file stays; undo: /event-index unforget ${gone[0]?.sessionId ?? id}`;
	} catch (err) {
		if (err instanceof ForgetError) return `event index: ${err.message}`;
		throw err;
	}
}

async function reindex(ctx: ExtensionCommandContext, runtime: IndexRuntime, full: boolean): Promise<void> {
	const what = full ? "rebuild" : "catch-up";
	try {
		say(ctx, `event index: ${what} started`);
		const outcome = full ? await runtime.rebuild() : await runtime.startCatchUp();
		if (outcome.kind === "skipped") {
			say(ctx, `event index: another process is already running the ${what}; it will finish the work`, "warning");
		} else if (outcome.kind === "failed") {
			say(ctx, `event index: ${what} failed: ${shortReason(outcome.error)}`, "error");
		} else {
			say(ctx, `${reindexSummary(what, outcome.result)}\n${runtimeStatusText(await runtime.status())}`);
		}
	} catch (err) {
		say(ctx, `event index: ${what} failed: ${shortReason(err)}`, "error");
	}
}
