/**
 * `forget` and `unforget` (docs/security-secrets-and-forget.md): take sessions out of the index for good, leaving a
 * tombstone beside the generations so no catch-up or rebuild brings them back while their files stay; and undo it.
 * A named session is forgotten at once; a selection (`--workspace DIR`, `--before TIME`) is listed first and acted
 * on with `--yes`.
 */
import { type ForgetCandidate, ForgetError, type ForgetSelection, type Tombstone } from "../index-admin.js";
import { resolveTime } from "../text/relative-time.js";
import type { CliContext } from "./context.js";
import { CliError, UsageError } from "./errors.js";
import { openIndex } from "./reindex.js";

/** What `forget` reports (`--json` prints exactly this). */
export interface ForgetReport {
	/** False when the selection was only listed (no `--yes`). */
	forgotten: boolean;
	sessions: ForgetCandidate[];
}

/** What `unforget` reports. */
export interface UnforgetReport {
	restored: Tombstone[];
}

/** The command line's selection: one session, or a workspace and/or a time. */
export interface ForgetArgs {
	session?: string;
	/** `--workspace DIR` given on the line (the context's workspace otherwise is just the current dir). */
	workspace?: string;
	before?: string;
	yes: boolean;
}

/** The selection of `args`; a UsageError when it names nothing or mixes a session with a selection. */
function forgetSelection(args: ForgetArgs, now = new Date()): ForgetSelection {
	if (args.session !== undefined && (args.workspace !== undefined || args.before !== undefined)) {
		throw new UsageError(
			"forget takes a SESSION or --workspace DIR / --before TIME, not both",
			"wrong_arguments",
			"SESSION",
		);
	}
	if (args.session !== undefined) return { sessionId: args.session };
	if (args.workspace === undefined && args.before === undefined) {
		throw new UsageError(
			"forget needs a SESSION, or --workspace DIR and/or --before TIME",
			"wrong_arguments",
			"SESSION",
		);
	}
	const sel: ForgetSelection = {};
	if (args.workspace !== undefined) sel.workspace = args.workspace;
	if (args.before !== undefined) {
		const at = resolveTime(args.before, now);
		if (at === undefined) {
			throw new UsageError(
				`--before ${JSON.stringify(args.before)} is neither a date nor an age like 30d`,
				"invalid_value",
				"--before",
			);
		}
		sel.before = at;
	}
	return sel;
}

export async function forgetCommand(ctx: CliContext, args: ForgetArgs): Promise<ForgetReport> {
	const sel = forgetSelection(args);
	const act = sel.sessionId !== undefined || args.yes;
	const index = await openIndex(ctx);
	try {
		return { forgotten: act, sessions: await index.manager.forget(sel, act) };
	} catch (err) {
		if (err instanceof ForgetError) throw new CliError(err.message, "not_found");
		throw err;
	} finally {
		await index.manager.close();
	}
}

export async function unforgetCommand(ctx: CliContext, session: string): Promise<UnforgetReport> {
	const index = await openIndex(ctx);
	try {
		const restored = await index.manager.unforget(session);
		if (restored.length === 0) throw new CliError(`no forgotten session has the id "${session}"`, "not_found");
		return { restored };
	} catch (err) {
		if (err instanceof ForgetError) throw new CliError(err.message, "not_found");
		throw err;
	} finally {
		await index.manager.close();
	}
}

function sessionLine(c: { sessionId: string | null; cwd: string | null; path: string }, when?: string | null): string {
	return `  ${c.sessionId ?? "(no id)"}  ${c.cwd ?? "(no cwd)"}${when ? `  last active ${when}` : ""}\n    ${c.path}`;
}

/** Human view of `forget`. */
export function formatForget(r: ForgetReport): string {
	const n = r.sessions.length;
	if (n === 0) return "no indexed session matches; nothing forgotten";
	const lines = r.sessions.map((c) => sessionLine(c, c.lastActivityAt));
	if (!r.forgotten) {
		return [
			`${n} session file${n === 1 ? "" : "s"} would be forgotten:`,
			...lines,
			"run again with --yes to forget them",
		].join("\n");
	}
	return [
		`forgot ${n} session file${n === 1 ? "" : "s"} (out of the index now; reindex and reindex --full leave them out while the files stay):`,
		...lines,
		"undo: pi-event-index unforget SESSION",
	].join("\n");
}

/** Human view of `unforget`. */
export function formatUnforget(r: UnforgetReport): string {
	const n = r.restored.length;
	const lines = r.restored.map((t) => sessionLine(t));
	const again = r.restored.some((t) => t.reason !== "forget")
		? [
				"note: a session with the #no-event-index marker or in an excluded workspace is forgotten again at its next sync",
			]
		: [];
	return [`unforgot ${n} session file${n === 1 ? "" : "s"} (indexed again):`, ...lines, ...again].join("\n");
}
