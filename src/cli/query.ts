/**
 * `search`, `read`, `trace`: the query services over the shared index, authorized for the `--workspace`. By default
 * an incremental catch-up runs first (skipped, not waited for, when another process holds the lock: the answer's
 * coverage then says it is partial); `--no-sync` answers from the index as it is, opened read-only.
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
import {
	type CallerContext,
	type EventTraceRequest,
	type QueryDb,
	readEvent,
	searchEvents,
	traceEvent,
} from "../query/index.js";
import { SEARCH_FILTERS } from "../query/search/filters.js";
import { isStoreDamage } from "../store/db.js";
import { intOption, type OptionValues, stringOption } from "./args.js";
import type { CliContext } from "./context.js";
import { CliError, EXIT, UsageError } from "./errors.js";
import { type CommandHooks, openManager } from "./reindex.js";
import { coverageWithLocks, lockStates, openExistingStore } from "./status.js";

/**
 * The caller context of CLI queries: the workspace, the configured authorization, budgets. `--root` directories
 * are where session files live, not where sessions ran, so they widen discovery only: authorization is by the
 * sessions' cwd (use `--workspace DIR` to read sessions that ran elsewhere).
 */
export function cliCaller(ctx: CliContext): CallerContext {
	return {
		cwd: ctx.workspace,
		authorization: {
			extraRoots: ctx.config.authorization.extraRoots,
			allRoots: ctx.all || ctx.config.authorization.allRoots,
		},
		budgets: ctx.config.budgets,
	};
}

/**
 * Run `fn` against the index: caught up first unless `noSync`, closed afterwards. A damaged index (found by the
 * query or the catch-up) is moved aside, rebuilt from the files, and asked again, once.
 */
export async function withIndex<T>(
	ctx: CliContext,
	noSync: boolean,
	hooks: CommandHooks,
	fn: (db: QueryDb, caller: CallerContext, coverage: Coverage) => T,
): Promise<T> {
	if (noSync) {
		try {
			return await answerAsIs(ctx, fn);
		} catch (err) {
			if (!isStoreDamage(err)) throw err;
			hooks.progress.note("the index is damaged: moving it aside and rebuilding it from the session files…");
		}
	}
	return answerCaughtUp(ctx, hooks, fn);
}

/** `--no-sync`: the index as it is, opened read-only. */
async function answerAsIs<T>(ctx: CliContext, fn: (db: QueryDb, caller: CallerContext, coverage: Coverage) => T) {
	const store = await openExistingStore(ctx.indexDir);
	try {
		return fn(store.db, cliCaller(ctx), coverageWithLocks(store, await lockStates(ctx.indexDir)));
	} finally {
		store.close();
	}
}

async function answerCaughtUp<T>(
	ctx: CliContext,
	hooks: CommandHooks,
	fn: (db: QueryDb, caller: CallerContext, coverage: Coverage) => T,
): Promise<T> {
	const manager = await openManager(ctx);
	const stop = () => void manager.close();
	hooks.signal.addEventListener("abort", stop, { once: true });
	const catchUp = async () => {
		const unsubscribe = manager.onProgress((p) => hooks.progress.update(p));
		const outcome = await manager.startCatchUp();
		unsubscribe();
		hooks.progress.end();
		if (hooks.signal.aborted) throw new CliError("interrupted", EXIT.interrupted);
		// A failed or skipped catch-up still leaves a usable index; coverage tells how complete it is.
		const coverage = await manager.coverage();
		if (outcome.kind === "failed") coverage.note = `${coverage.note} (catch-up failed: ${outcome.error})`;
		return coverage;
	};
	try {
		const coverage = await catchUp();
		try {
			return fn(manager.store.db, cliCaller(ctx), coverage);
		} catch (err) {
			if (!(await manager.recoverFromDamage(err))) throw err;
			hooks.progress.note("the index is damaged: moved aside; rebuilding it from the session files…");
			return fn(manager.store.db, cliCaller(ctx), await catchUp());
		}
	} finally {
		hooks.signal.removeEventListener("abort", stop);
		await manager.close();
	}
}

/** The search request the flags describe (one flag set per declared filter, src/query/search/filters.ts). */
export function searchRequest(positionals: string[], o: OptionValues, cwd: string): EventSearchRequest {
	const req: Record<string, unknown> = { query: positionals.join(" ") };
	for (const filter of SEARCH_FILTERS) {
		for (const flag of filter.flags) {
			const raw = o[flag.flag];
			if (raw === undefined || raw === false) continue;
			// A path is relative to the shell's directory, as a user typing a path expects.
			const value = filter.shape.type === "path" && typeof raw === "string" ? resolve(cwd, raw) : raw;
			if (flag.key === undefined) req[filter.field] = value;
			else if (value !== "") req[filter.field] = { ...(req[filter.field] as object | undefined), [flag.key]: value };
		}
	}
	return req as unknown as EventSearchRequest;
}

/** The read request the arguments and flags describe. */
export function readRequest(positionals: string[], o: OptionValues): EventReadRequest {
	const [sessionId = "", entryId = ""] = positionals;
	const req: EventReadRequest = { sessionId, entryId };
	const fragment = stringOption(o, "fragment");
	// A bare ordinal is short for ENTRY#N.
	if (fragment !== undefined) req.matchingFragmentId = /^\d+$/.test(fragment) ? `${entryId}#${fragment}` : fragment;
	const offset = intOption(o, "offset");
	if (offset !== undefined) {
		if (fragment === undefined) throw new UsageError("option --offset needs --fragment ID (the fragment to window)");
		req.offset = offset;
	}
	const before = intOption(o, "before");
	if (before !== undefined) req.before = before;
	const after = intOption(o, "after");
	if (after !== undefined) req.after = after;
	const order = stringOption(o, "order");
	if (order !== undefined) {
		if (order !== "branch" && order !== "append") {
			throw new UsageError(`option --order must be branch or append, got "${order}"`);
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

export function searchCommand(ctx: CliContext, req: EventSearchRequest, noSync: boolean, hooks: CommandHooks) {
	return withIndex<EventSearchResult>(ctx, noSync, hooks, (db, caller, coverage) =>
		searchEvents(db, req, caller, { coverage: () => coverage }),
	);
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
