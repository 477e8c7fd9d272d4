/**
 * Pi's renderCall and renderResult for the three tools: components that lay their lines out for the width Pi gives
 * them (screen-*.ts build the lines; this module only adapts Pi's theme and row state). Collapsed rows say what was
 * found; expanded rows are formatted for the screen, never the model's raw text.
 */
import type { AgentToolResult, Theme, ToolDefinition, ToolRenderResultOptions } from "@earendil-works/pi-coding-agent";
import type { Component } from "@earendil-works/pi-tui";
import type { EventReadResult, EventSearchResult, EventTrace } from "../contract.js";
import { callLines } from "./screen-call.js";
import { readCollapsed, readExpanded } from "./screen-read.js";
import { searchCollapsed, searchExpanded } from "./screen-search.js";
import { block, type EventToolName, fitWidth, type Paint } from "./screen-text.js";
import { traceCollapsed, traceExpanded } from "./screen-trace.js";

export type { EventToolName } from "./screen-text.js";

/** Pi's per-row render context (not exported by name from Pi's index). */
type ToolRenderContext = Parameters<NonNullable<ToolDefinition["renderCall"]>>[2];

/** Lines of an error shown in a row. */
const ERROR_LINES = 4;

/** Pi's theme as the screen builders' colours. */
function paintOf(theme: Theme): Paint {
	return {
		title: (t) => theme.fg("toolTitle", theme.bold(t)),
		accent: (t) => theme.fg("accent", t),
		muted: (t) => theme.fg("muted", t),
		dim: (t) => theme.fg("dim", t),
		success: (t) => theme.fg("success", t),
		warning: (t) => theme.fg("warning", t),
		error: (t) => theme.fg("error", t),
	};
}

/** A component whose lines are laid out again for each width (every line fits it). */
class FittedLines implements Component {
	constructor(private readonly build: (width: number) => string[]) {}

	render(width: number): string[] {
		return fitWidth(this.build(Math.max(1, width)), width);
	}

	invalidate(): void {
		// Lines are built on each render: nothing is cached.
	}
}

/** The lines of a successful result, collapsed or expanded. */
function resultLines(tool: EventToolName, details: unknown, expanded: boolean, width: number, paint: Paint): string[] {
	if (!details || typeof details !== "object") return [paint.success("done")];
	if (tool === "event_search") {
		const r = details as EventSearchResult;
		return expanded ? searchExpanded(r, width, paint) : searchCollapsed(r, width, paint);
	}
	if (tool === "event_read") {
		const r = details as EventReadResult;
		return expanded ? readExpanded(r, width, paint) : readCollapsed(r, width, paint);
	}
	const r = details as EventTrace;
	return expanded ? traceExpanded(r, width, paint) : traceCollapsed(r, width, paint);
}

function textOf(result: AgentToolResult<unknown>): string {
	return result.content
		.filter((c): c is { type: "text"; text: string } => c.type === "text")
		.map((c) => c.text)
		.join("\n");
}

/** Pi's renderCall for one tool. */
export function renderCallFor(tool: EventToolName) {
	return (args: Record<string, unknown>, theme: Theme, _context: ToolRenderContext): Component =>
		new FittedLines((width) => callLines(tool, args, width, paintOf(theme)));
}

/** Pi's renderResult for one tool. */
export function renderResultFor(tool: EventToolName) {
	return (
		result: AgentToolResult<unknown>,
		options: ToolRenderResultOptions,
		theme: Theme,
		context: ToolRenderContext,
	): Component => {
		const paint = paintOf(theme);
		if (options.isPartial) return new FittedLines(() => [paint.warning("searching the event index…")]);
		if (context.isError) {
			return new FittedLines((width) => block(textOf(result), width, "", ERROR_LINES, paint.error));
		}
		return new FittedLines((width) => resultLines(tool, result.details, options.expanded, width, paint));
	};
}
