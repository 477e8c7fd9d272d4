/**
 * The three Pi tool definitions. Each execute: take the caller's identity from Pi's context (cwd, session file,
 * session id, the calling assistant entry as cutoff), let the runtime sync the caller's file and run the query
 * service, and return bounded text plus the structured result in `details`. Failures are thrown as public messages.
 */
import type { ExtensionContext, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { EventReadResult, EventSearchResult, EventTrace } from "../contract.js";
import type { CallIdentity, IndexRuntime } from "../extension/index-runtime.js";
import { PublicError, toPublicError } from "../extension/public-errors.js";
import { errorFields } from "../files/log.js";
import { READ_PROMPT, SEARCH_PROMPT, type ToolPrompt, TRACE_PROMPT } from "./prompts.js";
import { renderReadText, renderSearchText, renderTraceText } from "./render-text.js";
import {
	type ReadParams,
	readParameters,
	type SearchParams,
	searchParameters,
	type TraceParams,
	traceParameters,
} from "./schemas.js";
import { type EventToolName, renderCallFor, renderResultFor } from "./tui-render.js";

/** The query services, loaded on the first call: registering the tools must not load them (start-up cost). */
const queries = () => import("../query/index.js");

/** Where the tools find the runtime of the current session (it changes on /new, /resume, /fork, /reload). */
export type RuntimeRef = () => IndexRuntime | undefined;

/** The caller identity for one tool call, from Pi's context. */
function callIdentity(ctx: ExtensionContext): CallIdentity {
	const sm = ctx.sessionManager;
	return {
		cwd: ctx.cwd,
		sessionFile: sm.getSessionFile(),
		sessionId: sm.getSessionId(),
		// Inside execute the calling assistant entry is the leaf: it and everything after it are excluded.
		cutoffEntryId: sm.getLeafEntry()?.id,
	};
}

async function run<T>(runtimeRef: RuntimeRef, tool: EventToolName, work: (rt: IndexRuntime) => Promise<T>): Promise<T> {
	const runtime = runtimeRef();
	try {
		if (!runtime) throw new PublicError("event index unavailable: no session is active");
		return await work(runtime);
	} catch (err) {
		const publicError = toPublicError(err);
		if (!(err instanceof PublicError) && err instanceof Error && err.name !== "QueryError") {
			runtime?.log("error", "tool_failed", { tool, ...errorFields(err) });
		}
		throw publicError;
	}
}

function base<P>(name: EventToolName, prompt: ToolPrompt, parameters: P) {
	return {
		name,
		label: prompt.label,
		description: prompt.description,
		promptSnippet: prompt.promptSnippet,
		promptGuidelines: prompt.promptGuidelines,
		parameters,
		renderCall: renderCallFor(name),
		renderResult: renderResultFor(name),
	};
}

/** event_search. */
export function searchTool(runtimeRef: RuntimeRef): ToolDefinition<typeof searchParameters, EventSearchResult> {
	return {
		...base("event_search", SEARCH_PROMPT, searchParameters),
		async execute(_id, params: SearchParams, _signal, _onUpdate, ctx) {
			return run(runtimeRef, "event_search", async (rt) => {
				const who = callIdentity(ctx);
				const { searchEvents } = await queries();
				const result = await rt.query(who, (s) => searchEvents(s.db, params, s.caller, s.options));
				return {
					content: [
						{ type: "text", text: renderSearchText(result, params.query, { cwd: who.cwd, progress: rt.progress }) },
					],
					details: result,
				};
			});
		},
	};
}

/** event_read. */
export function readTool(runtimeRef: RuntimeRef): ToolDefinition<typeof readParameters, EventReadResult> {
	return {
		...base("event_read", READ_PROMPT, readParameters),
		async execute(_id, params: ReadParams, _signal, _onUpdate, ctx) {
			return run(runtimeRef, "event_read", async (rt) => {
				const who = callIdentity(ctx);
				const { readEvent } = await queries();
				const result = await rt.query(who, (s) => readEvent(s.db, params, s.caller, s.options));
				return {
					content: [{ type: "text", text: renderReadText(result, { cwd: who.cwd, progress: rt.progress }) }],
					details: result,
				};
			});
		},
	};
}

/** event_trace. */
export function traceTool(runtimeRef: RuntimeRef): ToolDefinition<typeof traceParameters, EventTrace> {
	return {
		...base("event_trace", TRACE_PROMPT, traceParameters),
		async execute(_id, params: TraceParams, _signal, _onUpdate, ctx) {
			return run(runtimeRef, "event_trace", async (rt) => {
				const who = callIdentity(ctx);
				const { traceEvent } = await queries();
				const result = await rt.query(who, (s) => traceEvent(s.db, params, s.caller, s.options));
				return {
					content: [{ type: "text", text: renderTraceText(result, { cwd: who.cwd, progress: rt.progress }) }],
					details: result,
				};
			});
		},
	};
}
