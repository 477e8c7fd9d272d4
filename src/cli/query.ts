/**
 * `search`, `read`, `trace`: the query services over the shared index, authorized for the `--workspace`. By default
 * an incremental catch-up runs first (skipped, not waited for, when another process holds the lock: the answer's
 * coverage then says it is partial); `--no-sync` answers from the index as it is, opened read-only, and loads none
 * of the catch-up's modules.
 */
import { resolve } from "node:path";
import type {
	Coverage,
	EventReadRequest,
	EventReadResult,
	EventSearchRequest,
	EventSearchResult,
	EventTrace,
} from "../contract.js";
import { isIndexDamage, openIndexSnapshot } from "../index-admin.js";
import { echo } from "../query/errors.js";
import {
	type CallerContext,
	type EventTraceRequest,
	listSessions,
	type QueryDb,
	readEvent,
	SESSION_LIST_LIMIT,
	type SessionListRequest,
	searchEvents,
	sessionFiles,
	traceEvent,
} from "../query/index.js";
import { parseFilters, SEARCH_FILTERS } from "../query/search/filters.js";
import { didYouMean } from "../text/did-you-mean.js";
import { intOption, type OptionValues, stringOption } from "./args.js";
import type { CliContext } from "./context.js";
import { interruptedError, UsageError } from "./errors.js";
import type { OtherWorkspaceHits, SearchExtras } from "./format.js";
import type { CommandHooks } from "./reindex.js";
import { existingIndex } from "./status.js";

/**
 * The caller context of CLI queries: the workspace, the configured authorization, budgets. `--root` directories
 * are where session files live, not where sessions ran, so they widen discovery only: authorization is by the
 * sessions' cwd (use `--workspace DIR` to read sessions that ran elsewhere).
 */
function cliCaller(ctx: CliContext): CallerContext {
	return {
		cwd: ctx.workspace,
		authorization: {
			extraRoots: ctx.config.authorization.extraRoots,
			allRoots: ctx.all || ctx.config.authorization.allRoots,
		},
		budgets: ctx.config.budgets,
	};
}

/** A query against the index: its database, the caller and the coverage to report. */
type IndexQuery<T> = (db: QueryDb, caller: CallerContext, coverage: Coverage) => T;

/**
 * Run `fn` against the index: caught up first unless `noSync`, closed afterwards. A damaged index (found by the
 * query or the catch-up) is moved aside, rebuilt from the files, and asked again, once.
 */
async function withIndex<T>(ctx: CliContext, noSync: boolean, hooks: CommandHooks, fn: IndexQuery<T>) {
	if (noSync) {
		try {
			return await answerAsIs(ctx, fn);
		} catch (err) {
			if (!isIndexDamage(err)) throw err;
			hooks.progress.note("the index is damaged: moving it aside and rebuilding it from the session files…");
		}
	}
	return answerCaughtUp(ctx, hooks, fn);
}

/** `--no-sync`: the index as it is, opened read-only. */
async function answerAsIs<T>(ctx: CliContext, fn: IndexQuery<T>): Promise<T> {
	const snapshot = await existingIndex(ctx.indexDir);
	try {
		return fn(snapshot.db, cliCaller(ctx), await snapshot.coverage());
	} finally {
		snapshot.close();
	}
}

/**
 * The answer from the index as it is, opened read-only, when the last check of every file proves that a catch-up
 * would find nothing to do (lifecycle.md, "Idle files between full checks"): then nothing is opened for writing and
 * no writer's module is loaded. Undefined when it cannot tell, or the index is damaged (the catch-up recovers it).
 */
async function answerIfIdle<T>(ctx: CliContext, fn: IndexQuery<T>): Promise<{ value: T } | undefined> {
	const snapshot = await openIndexSnapshot(ctx.indexDir).catch(() => undefined);
	if (!snapshot) return undefined;
	try {
		const scope = {
			roots: ctx.roots,
			extraFiles: ctx.extraFiles,
			excludeWorkspaces: ctx.config.excludeWorkspaces,
			idleRecheckSeconds: ctx.config.catchUp.idleFilesRecheckSeconds,
		};
		if (!snapshot.trustsFullCheck(scope)) return undefined;
		return { value: fn(snapshot.db, cliCaller(ctx), await snapshot.coverage()) };
	} catch (err) {
		if (isIndexDamage(err)) return undefined;
		throw err;
	} finally {
		snapshot.close();
	}
}

async function answerCaughtUp<T>(ctx: CliContext, hooks: CommandHooks, fn: IndexQuery<T>): Promise<T> {
	const idle = await answerIfIdle(ctx, fn);
	if (idle) return idle.value;
	const { DAMAGE_RECOVERED, openIndex } = await import("./reindex.js");
	const { manager } = await openIndex(ctx);
	// Opening may have moved a damaged generation aside already: the catch-up below rebuilds it.
	let recovered = manager.generation.damagedAtOpen;
	const stop = () => void manager.close();
	hooks.signal.addEventListener("abort", stop, { once: true });
	const catchUp = async () => {
		const unsubscribe = manager.onProgress((p) => hooks.progress.update(p));
		const outcome = await manager.startCatchUp();
		unsubscribe();
		hooks.progress.end();
		if (outcome.kind === "done" && (outcome.recovered || recovered)) hooks.progress.note(DAMAGE_RECOVERED);
		recovered = false;
		if (hooks.signal.aborted) throw interruptedError("interrupted");
		// A failed or skipped catch-up still leaves a usable index; coverage tells how complete it is.
		const coverage = await manager.coverage();
		if (outcome.kind === "failed") coverage.note = `${coverage.note} (catch-up failed: ${outcome.error})`;
		return coverage;
	};
	// Damage met by the coverage (after a catch-up that found nothing to do) is recovered as the query's is.
	const answer = async () => {
		const coverage = await catchUp();
		// Read after the catch-up: a recovered store is a new connection.
		return fn(manager.queryDb, cliCaller(ctx), coverage);
	};
	try {
		try {
			return await answer();
		} catch (err) {
			if (!(await manager.recoverFromDamage(err))) throw err;
			hooks.progress.note("the index is damaged: moved aside; rebuilding it from the session files…");
			return await answer();
		}
	} finally {
		hooks.signal.removeEventListener("abort", stop);
		await manager.close();
	}
}

/**
 * The search request the flags describe (one flag set per declared filter, src/query/search/filters.ts), validated
 * here by the filters' own rules, so a bad value fails at once (before any catch-up) exactly as the tool would.
 */
export function searchRequest(positionals: string[], o: OptionValues, cwd: string): EventSearchRequest {
	const req = { query: positionals.join(" "), ...filterRequest(o, cwd) } as EventSearchRequest;
	const filters = parseFilters(req);
	if (positionals.length === 0 && !filters.some((f) => f.filter.field === "paths")) {
		throw new UsageError(
			"search takes QUERY (usage: pi-event-index search QUERY), or --path PATH alone; got none",
			"wrong_arguments",
		);
	}
	return req;
}

/** The filter fields the flags set. */
function filterRequest(o: OptionValues, cwd: string): Partial<EventSearchRequest> {
	const req: Record<string, unknown> = {};
	const setBy = new Map<string, string>();
	for (const filter of SEARCH_FILTERS) {
		for (const flag of filter.flags) {
			const raw = o[flag.flag];
			if (raw === undefined || raw === false) continue;
			// A path is relative to the shell's directory, as a user typing a path expects.
			const value = filter.shape.type === "path" && typeof raw === "string" ? resolve(cwd, raw) : raw;
			if (flag.key === undefined) req[filter.field] = value;
			else if (value !== "") {
				// --from and --since set the same field: both at once is a mistake, not a silent override.
				const field = `${filter.field}.${flag.key}`;
				const earlier = setBy.get(field);
				if (earlier !== undefined) {
					throw new UsageError(
						`options --${earlier} and --${flag.flag} set the same time`,
						"duplicate_option",
						`--${flag.flag}`,
					);
				}
				setBy.set(field, flag.flag);
				req[filter.field] = { ...(req[filter.field] as object | undefined), [flag.key]: value };
			}
		}
	}
	return req as Partial<EventSearchRequest>;
}

/** Values of `read --order`. */
const READ_ORDERS = ["branch", "append"] as const;

/** The read request the arguments and flags describe. */
export function readRequest(positionals: string[], o: OptionValues): EventReadRequest {
	const [sessionId = "", entryId = ""] = positionals;
	const req: EventReadRequest = { sessionId, entryId };
	const fragment = stringOption(o, "fragment");
	// A bare ordinal is short for ENTRY#N.
	if (fragment !== undefined) req.matchingFragmentId = /^\d+$/.test(fragment) ? `${entryId}#${fragment}` : fragment;
	if (req.matchingFragmentId !== undefined && !req.matchingFragmentId.startsWith(`${entryId}#`)) {
		throw new UsageError(
			`option --fragment must name a fragment of entry ${echo(entryId)} (${echo(entryId)}#N, or just N), got "${echo(fragment ?? "")}"`,
			"invalid_value",
			"--fragment",
		);
	}
	const offset = intOption(o, "offset");
	if (offset !== undefined) {
		if (fragment === undefined)
			throw new UsageError(
				"option --offset needs --fragment ID (the fragment to window)",
				"missing_value",
				"--fragment",
			);
		req.offset = offset;
	}
	const before = intOption(o, "before");
	if (before !== undefined) req.before = before;
	const after = intOption(o, "after");
	if (after !== undefined) req.after = after;
	const order = stringOption(o, "order");
	if (order !== undefined) {
		if (order !== "branch" && order !== "append") {
			const hint = didYouMean(order, READ_ORDERS);
			throw new UsageError(
				`option --order must be branch or append, got "${echo(order)}"${hint}`,
				"invalid_value",
				"--order",
			);
		}
		req.order = order;
	}
	return req;
}

/** The trace request the arguments and flags describe. */
export function traceRequest(positionals: string[], o: OptionValues): EventTraceRequest {
	const [sessionId = "", entryId = ""] = positionals;
	const req: EventTraceRequest = { sessionId, entryId };
	const depth = intOption(o, "depth", true);
	if (depth !== undefined) req.depth = depth;
	return req;
}

/** A search's result (the tool's structure, printed by --json) and what only people see. */
export interface SearchOutcome {
	result: EventSearchResult;
	extras: SearchExtras;
}

/** `search`: the hits (at most `limit`, default the searchLimit budget), their files, and hits elsewhere if none. */
export function searchCommand(
	ctx: CliContext,
	req: EventSearchRequest,
	opts: { noSync: boolean; limit?: number },
	hooks: CommandHooks,
): Promise<SearchOutcome> {
	return withIndex(ctx, opts.noSync, hooks, (db, caller, coverage) => {
		const limited = opts.limit === undefined ? caller : withSearchLimit(caller, opts.limit);
		const result = searchEvents(db, req, limited, { coverage: () => coverage });
		const files = sessionFiles(
			db,
			result.hits.map((h) => h.sessionId),
			limited,
		);
		const extras: SearchExtras = { files, workspace: ctx.workspace };
		if (result.hits.length === 0 && !limited.authorization.allRoots) {
			extras.elsewhere = otherWorkspaceHits(db, req, limited);
		}
		return { result, extras };
	});
}

/** The same search over every workspace: how many hits, and in which cwds (most hits first). */
function otherWorkspaceHits(db: QueryDb, req: EventSearchRequest, caller: CallerContext): OtherWorkspaceHits {
	const everywhere = { ...caller, authorization: { ...caller.authorization, allRoots: true } };
	const r = searchEvents(db, req, everywhere);
	const byCwd = new Map<string, number>();
	for (const h of r.hits) byCwd.set(h.cwd, (byCwd.get(h.cwd) ?? 0) + 1);
	const cwds = [...byCwd].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).map(([cwd]) => cwd);
	return { hits: r.hits.length, more: r.truncated, cwds };
}

function withSearchLimit(caller: CallerContext, limit: number): CallerContext {
	return { ...caller, budgets: { ...caller.budgets, searchLimit: limit } };
}

/** The session-list request the flags describe (the search filters it shares, and --limit). */
export function sessionsRequest(o: OptionValues, cwd: string): SessionListRequest {
	const filters = filterRequest(o, cwd);
	const req: SessionListRequest = {};
	if (filters.cwd !== undefined) req.cwd = filters.cwd;
	if (filters.time !== undefined) req.time = filters.time;
	const limit = intOption(o, "limit", true, SESSION_LIST_LIMIT.max);
	if (limit !== undefined) req.limit = limit;
	// Validated by the filters' own rules before any catch-up.
	parseFilters({ query: "", ...filters });
	return req;
}

/** `sessions`: the authorized sessions, newest activity first, with their files (for people). */
export function sessionsCommand(ctx: CliContext, req: SessionListRequest, noSync: boolean, hooks: CommandHooks) {
	return withIndex(ctx, noSync, hooks, (db, caller, coverage) => {
		const list = listSessions(db, req, caller, { coverage: () => coverage });
		const files = sessionFiles(
			db,
			list.sessions.map((x) => x.sessionId),
			caller,
		);
		return { list, files };
	});
}

export function readCommand(ctx: CliContext, req: EventReadRequest, noSync: boolean, hooks: CommandHooks) {
	return withIndex<EventReadResult>(ctx, noSync, hooks, (db, caller, coverage) =>
		readEvent(db, req, caller, { coverage: () => coverage }),
	);
}

export function traceCommand(ctx: CliContext, req: EventTraceRequest, noSync: boolean, hooks: CommandHooks) {
	return withIndex<EventTrace>(ctx, noSync, hooks, (db, caller, coverage) =>
		traceEvent(db, req, caller, { coverage: () => coverage }),
	);
}
