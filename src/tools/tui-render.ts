/**
 * Compact TUI rendering of the tools: a one-line call header and a one-line result summary, with the model-facing
 * text shown (bounded) when the row is expanded. The summary builders are pure; the Pi renderers wrap them in Text.
 */
import type { AgentToolResult, Theme, ToolDefinition, ToolRenderResultOptions } from "@mariozechner/pi-coding-agent";
import { type Component, Text } from "@mariozechner/pi-tui";
import type { EventReadResult, EventSearchResult, EventTrace } from "../contract.js";
import { oneLine } from "./render-text.js";

/** Pi's per-row render context (not exported by name from Pi's index). */
type ToolRenderContext = Parameters<NonNullable<ToolDefinition["renderCall"]>>[2];

/** The three tool names. */
export type EventToolName = "event_search" | "event_read" | "event_trace";

/** Lines of the model text shown when a row is expanded. */
export const EXPANDED_MAX_LINES = 60;
/** Longest call header argument text. */
const CALL_ARG_CHARS = 80;

function clip(text: string, max: number): string {
	const chars = Array.from(text);
	return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** The argument part of the call header, e.g. `"deploy staging" tool=bash` or `01a2…/09c7d8dd#0 @4000`. */
export function callSummary(tool: EventToolName, args: Record<string, unknown> | undefined): string {
	const a = args ?? {};
	const str = (k: string) => (typeof a[k] === "string" ? (a[k] as string) : undefined);
	if (tool === "event_search") {
		const parts = [JSON.stringify(str("query") ?? "")];
		if (str("sessionId")) parts.push(`session=${clip(str("sessionId") as string, 12)}`);
		for (const key of ["kinds", "roles", "toolNames", "branchStates", "selectionStates"]) {
			const v = a[key];
			if (Array.isArray(v) && v.length > 0) parts.push(`${key}=${v.join(",")}`);
		}
		if (a.errorOnly === true) parts.push("errors");
		return clip(oneLine(parts.join(" ")), CALL_ARG_CHARS);
	}
	const target = `${clip(str("sessionId") ?? "?", 13)}/${str("matchingFragmentId") ?? str("entryId") ?? "?"}`;
	const extra: string[] = [];
	if (typeof a.offset === "number") extra.push(`@${a.offset}`);
	if (str("order") === "append") extra.push("append");
	if (typeof a.depth === "number") extra.push(`depth ${a.depth}`);
	return clip([target, ...extra].join(" "), CALL_ARG_CHARS);
}

/** One-line summary of a successful result's details. */
export function resultSummary(tool: EventToolName, details: unknown): string {
	if (!details || typeof details !== "object") return "done";
	const partial = (details as { coverage?: { partial?: boolean } }).coverage?.partial ? " · partial coverage" : "";
	if (tool === "event_search") {
		const r = details as EventSearchResult;
		const n = r.hits?.length ?? 0;
		return `${n} hit${n === 1 ? "" : "s"}${r.truncated ? " (more matched)" : ""}${partial}`;
	}
	if (tool === "event_read") {
		const r = details as EventReadResult;
		const who = [r.event?.role, r.event?.toolName].filter(Boolean).join(" ") || r.event?.entryType;
		const body = r.window
			? `window ${r.window.range.start}-${r.window.range.end} of ${r.window.totalChars}`
			: `${r.fragmentCoverage?.returned ?? 0}/${r.fragmentCoverage?.total ?? 0} fragments`;
		return `${who} · ${body} · ${r.neighbors?.length ?? 0} neighbours${partial}`;
	}
	const r = details as EventTrace;
	const edges =
		(r.parent ? 1 : 0) + (r.children?.length ?? 0) + (r.branchSiblings?.length ?? 0) + (r.related?.length ?? 0);
	return `${edges} edge${edges === 1 ? "" : "s"}${r.truncated ? " (cut)" : ""}${partial}`;
}

function textOf(result: AgentToolResult<unknown>): string {
	return result.content
		.filter((c): c is { type: "text"; text: string } => c.type === "text")
		.map((c) => c.text)
		.join("\n");
}

/** Pi's renderCall for one tool. */
export function renderCallFor(tool: EventToolName) {
	return (args: Record<string, unknown>, theme: Theme, context: ToolRenderContext): Component => {
		const text = (context.lastComponent as Text | undefined) ?? new Text("", 0, 0);
		text.setText(`${theme.fg("toolTitle", theme.bold(`${tool} `))}${theme.fg("muted", callSummary(tool, args))}`);
		return text;
	};
}

/** Pi's renderResult for one tool. */
export function renderResultFor(tool: EventToolName) {
	return (
		result: AgentToolResult<unknown>,
		options: ToolRenderResultOptions,
		theme: Theme,
		context: ToolRenderContext,
	): Component => {
		const text = (context.lastComponent as Text | undefined) ?? new Text("", 0, 0);
		if (options.isPartial) {
			text.setText(theme.fg("warning", "searching the event index…"));
			return text;
		}
		if (context.isError) {
			text.setText(theme.fg("error", clip(oneLine(textOf(result)), 200)));
			return text;
		}
		let out = theme.fg("success", resultSummary(tool, result.details));
		if (options.expanded) {
			const lines = textOf(result).split("\n");
			const shown = lines.slice(0, EXPANDED_MAX_LINES).map((l) => clip(l, 240));
			if (lines.length > shown.length) shown.push(`… ${lines.length - shown.length} more lines`);
			out += `\n${theme.fg("dim", shown.join("\n"))}`;
		}
		text.setText(out);
		return text;
	};
}
