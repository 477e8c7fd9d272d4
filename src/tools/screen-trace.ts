/**
 * event_trace on Pi's screen: collapsed, the edge counts by kind; expanded, the target and one line per edge (kind,
 * time, who, preview; files shortened from the left).
 */
import type { EventTrace, TraceEdge, TraceNode } from "../contract.js";
import { coverageText } from "../text/coverage-text.js";
import {
	BODY_LINES,
	block,
	cap,
	eventRef,
	fitWidth,
	flat,
	kindOf,
	type Paint,
	safe,
	shortenPathLeft,
	shortTime,
	wrapWords,
} from "./screen-text.js";

/** Every edge of a trace, parent first. */
function edgesOf(t: EventTrace): TraceEdge[] {
	return [...(t.parent ? [t.parent] : []), ...(t.children ?? []), ...(t.branchSiblings ?? []), ...(t.related ?? [])];
}

/** `parent 1`, `children 2`, `related 5 (tool-result 2, file 3)`: the edge counts, one word group each. */
function edgeCounts(t: EventTrace): string[] {
	const related = new Map<string, number>();
	for (const e of t.related ?? []) related.set(e.kind, (related.get(e.kind) ?? 0) + 1);
	const kinds = [...related].map(([k, n]) => `${k} ${n}`).join(", ");
	const parts = [
		`parent ${t.parent ? 1 : 0}`,
		`children ${t.children?.length ?? 0}`,
		`siblings ${t.branchSiblings?.length ?? 0}`,
		`related ${t.related?.length ?? 0}${kinds ? ` (${kinds})` : ""}`,
	];
	if (t.truncated) parts.push("cut at the budget");
	return parts;
}

/** The collapsed trace row: the edge counts, wrapped rather than cut. */
export function traceCollapsed(t: EventTrace, width: number, paint: Paint): string[] {
	const words = edgeCounts(t).map((p, i) => paint.success(i === 0 ? p : `· ${p}`));
	if (t.coverage?.partial) words.push(paint.warning("· partial coverage"));
	return wrapWords(words, width);
}

function nodeLabel(n: TraceNode, targetSession: string, paint: Paint): string {
	const id = n.sessionId === targetSession ? safe(n.entryId) : eventRef(n.sessionId, n.entryId);
	const who = kindOf(n.role ?? n.entryType, n.toolName);
	const preview = n.preview ? `  ${flat(n.preview.text)}` : "";
	return `${id} ${paint.muted(shortTime(n.timestamp))} ${paint.accent(who)}${preview}`;
}

/** The expanded trace view. */
export function traceExpanded(t: EventTrace, width: number, paint: Paint): string[] {
	const s = t.target.sessionId;
	const lines = [...traceCollapsed(t, width, paint), ...fitWidth([`target ${nodeLabel(t.target, "", paint)}`], width)];
	const kindWidth = Math.min(20, Math.max(...edgesOf(t).map((e) => e.kind.length), 0));
	for (const e of edgesOf(t)) {
		const flags = [e.inferred ? "inferred" : "", e.depth ? `depth ${e.depth}` : ""].filter(Boolean).join(", ");
		const tail = flags ? ` (${flags})` : "";
		// A file keeps its name and the flags: the path gives way from the left.
		const room = width - 3 - kindWidth - tail.length;
		const what = e.node ? nodeLabel(e.node, s, paint) : shortenPathLeft(e.file ?? "", Math.max(12, room));
		lines.push(...fitWidth([`  ${paint.muted(e.kind.padEnd(kindWidth))} ${what}${paint.dim(tail)}`], width));
	}
	lines.push(...block(coverageText(t.coverage), width, "", BODY_LINES, paint.dim));
	return cap(fitWidth(lines, width), width, paint);
}
