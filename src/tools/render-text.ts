/**
 * Model-facing text of the three tools: compact, bounded, one line per hit/edge, and free of absolute paths in
 * the metadata it adds (session cwds and file evidence are shown relative to the caller's cwd). The structured
 * result travels separately in `details`. Pure functions.
 */
import path from "node:path";
import type {
	CatchUpProgress,
	EventMetadata,
	EventReadResult,
	EventSearchHit,
	EventSearchResult,
	EventTrace,
	FragmentWindow,
	TextPreview,
	TraceEdge,
	TraceNode,
} from "../contract.js";
import { clipText } from "../query/errors.js";
import { coverageText } from "../text/coverage-text.js";
import { parentCycleText } from "../text/cycle-text.js";
import { emptiedText } from "../text/emptied-text.js";
import { escapeValue, framedLines, oneLine, quoted, SESSION_TEXT_MARK } from "../text/safe-text.js";
import { weakText } from "../text/weak-text.js";

/** Hard cap on one tool's text, whatever the budgets say (Pi's own tool output limit is 50 KB). */
export const MAX_TOOL_TEXT_CHARS = 48_000;

/**
 * Budget of one metadata field (an id, a session name, a label, an attribute) in code points: a 200,000-character
 * label must not push the event's content out of the output.
 */
const MAX_FIELD_CHARS = 200;

/** One metadata field within MAX_FIELD_CHARS, head and tail kept, on one line with no control character. */
function field(text: string): string {
	return clipText(escapeValue(text), MAX_FIELD_CHARS);
}

/** Joins metadata parts, each within its field budget. */
function joinFields(parts: string[]): string {
	return parts.map(field).join(" ");
}

/** What rendering needs to know about the caller. */
export interface RenderContext {
	/** The caller's cwd: paths inside the rendered metadata are made relative to it. */
	cwd: string;
	/** This process's running catch-up, if any: a partial coverage then says when to retry from its pace. */
	progress?: CatchUpProgress;
}

/** An absolute path shown relative to the caller's cwd ("." for the cwd itself). */
export function displayPath(p: string, cwd: string): string {
	if (!path.isAbsolute(p)) return p;
	const rel = path.relative(cwd, p);
	return rel === "" ? "." : rel;
}

/** Cuts text to `max` code points with a receipt saying how to see the rest. */
export function capText(text: string, max = MAX_TOOL_TEXT_CHARS): string {
	const chars = Array.from(text);
	if (chars.length <= max) return text;
	const note = `\n[output cut at ${max} of ${chars.length} characters; read one fragment with matchingFragmentId and offset to see the rest]`;
	return chars.slice(0, Math.max(0, max - note.length)).join("") + note;
}

function states(branch: string, selection: string): string {
	return `${branch}/${selection}`;
}

/** A name, label or term in quotes: one line, nothing in it can close the quotes (safe-text.ts). */
const quote = (text: string) => quoted(text);

/** One line per hit: identity first (what event_read needs), then kind, states, time, and the snippet. */
function hitLine(hit: EventSearchHit, index: number, ctx: RenderContext): string {
	const parts = [
		`${index + 1}.`,
		`sessionId=${hit.sessionId}`,
		`entryId=${hit.entryId}`,
		`fragment=${hit.matchingFragmentId}`,
		`kind=${hit.semanticKind}`,
	];
	if (hit.role) parts.push(`role=${hit.role}`);
	if (hit.toolName) parts.push(`tool=${hit.toolName}`);
	if (hit.isError) parts.push("error");
	parts.push(`state=${states(hit.branchState, hit.selectionState)}`, `time=${hit.timestamp}`);
	if (hit.sessionName) parts.push(`session=${quote(hit.sessionName)}`);
	parts.push(`cwd=${displayPath(hit.cwd, ctx.cwd)}`);
	if (hit.matchingFragmentCount > 1) parts.push(`matches=${hit.matchingFragmentCount}`);
	if (hit.missingTerms && hit.missingTerms.length > 0) parts.push(`missing=${hit.missingTerms.map(quote).join(",")}`);
	if (hit.taskRequestId) parts.push(`taskRequest=${hit.taskRequestId}`);
	if (hit.forkCopies && hit.forkCopies.length > 0) {
		parts.push(`forkCopies=${hit.forkCopies.map((c) => `${c.sessionId}/${c.entryId}`).join(",")}`);
	}
	return `${joinFields(parts)}\n   ${SESSION_TEXT_MARK}${oneLine(hit.snippet)}`;
}

/** The first line of a relaxed result: how many hits have every term and how close the others come. */
function relaxedHeadline(result: EventSearchResult, query: string): string {
	const { allTerms, someTerms } = result.tiers ?? { allTerms: 0, someTerms: 0 };
	// A hit its task brought forward may hold no term: it says nothing of how close the matches come. A question
	// ranked in one order (query-language.md, "Coding questions") lists hits holding every term among them.
	const partial = result.hits.filter((h) => (h.missingTerms?.length ?? 0) > 0 && h.taskRequestId === undefined);
	const best = partial[0];
	const termCount = best ? (best.matchedTerms?.length ?? 0) + (best.missingTerms?.length ?? 0) : 0;
	const closest = best
		? `the closest match ${best.matchedTerms?.length ?? 0} of ${termCount} terms`
		: "the others match only some terms";
	const head =
		allTerms === 0
			? `No event contains all of ${quote(query)}; ${closest}`
			: `${allTerms} event${allTerms === 1 ? "" : "s"} contain${allTerms === 1 ? "s" : ""} all of ${quote(query)}; ${someTerms} more match only some terms (${closest})`;
	return `${head}:`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Text of an event_search result (an empty query: a look-up by file, its hits newest first). */
export function renderSearchText(result: EventSearchResult, query: string, ctx: RenderContext): string {
	const lines: string[] = [];
	const n = result.hits.length;
	const byFile = query.trim() === "";
	if (n === 0) {
		if (byFile && !result.emptiedBy) {
			lines.push("No events touched those paths (no read, edit, write or bash command named them).");
		} else {
			const why = result.emptiedBy
				? `${emptiedText(result.emptiedBy, (f) => f)} (drop or widen it to see them)`
				: "no event contains any of its terms";
			lines.push(`No events match ${byFile ? "those paths" : field(quote(query))}: ${why}.`);
		}
	} else if (result.relaxed && result.tiers) {
		lines.push(relaxedHeadline(result, query));
		if (result.weakMatches)
			lines.push(`${capitalized(weakText(result.weakMatches, quote))}: say so rather than answer from these hits.`);
		result.hits.forEach((hit, i) => {
			lines.push(hitLine(hit, i, ctx));
		});
		lines.push(
			"Hits marked missing= do not contain those terms: check them with event_read before relying on them. Next: event_read with one hit's sessionId and entryId.",
		);
	} else {
		const more = result.rankedMatchCap
			? ` (very broad: only the ${result.rankedMatchCap} most recently indexed matches were ranked — add terms or filters)`
			: result.truncated
				? ` (more matched; showing the ${byFile ? "newest" : "best"} ${result.limit} — narrow the query or filters)`
				: "";
		const subject = byFile ? "touched those paths, newest first" : `match ${field(quote(query))}`;
		lines.push(`${n} event${n === 1 ? "" : "s"} ${subject}${more}:`);
		result.hits.forEach((hit, i) => {
			lines.push(hitLine(hit, i, ctx));
		});
		lines.push(
			"Next: event_read with one hit's sessionId and entryId (add matchingFragmentId to read that fragment in full).",
		);
	}
	lines.push(coverageText(result.coverage, ctx.progress));
	return capText(lines.join("\n"));
}

function metadataLine(e: EventMetadata, ctx: RenderContext): string {
	const parts = [`sessionId=${e.sessionId}`, `entryId=${e.entryId}`, `type=${e.entryType}`];
	if (e.role) parts.push(`role=${e.role}`);
	if (e.toolName) parts.push(`tool=${e.toolName}`);
	if (e.isError) parts.push("error");
	parts.push(`parent=${e.parentId ?? "none"}`, `state=${states(e.branchState, e.selectionState)}`);
	parts.push(`time=${e.timestamp}`);
	if (e.sessionName) parts.push(`session=${quote(e.sessionName)}`);
	parts.push(`cwd=${displayPath(e.cwd, ctx.cwd)}`);
	if (e.labels && e.labels.length > 0) parts.push(`labels=${e.labels.map((l) => field(quote(l))).join(",")}`);
	if (e.attributes) {
		for (const [key, value] of Object.entries(e.attributes)) {
			if (value !== null && value !== "") parts.push(`${key}=${typeof value === "string" ? quote(value) : value}`);
		}
	}
	return joinFields(parts);
}

/** The receipt of a head/tail preview: which ranges are shown and which are left out. */
function previewReceipt(p: TextPreview): string {
	if (!p.truncated) return `${p.totalChars} chars`;
	const shown = p.shownRanges.map((r) => `${r.start}-${r.end}`).join(", ");
	const omitted = p.omittedRanges.map((r) => `${r.start}-${r.end}`).join(", ");
	return `${p.totalChars} chars, shown ${shown}, omitted ${omitted}`;
}

function neighbourLine(e: EventMetadata, preview: TextPreview | undefined, relation: string): string {
	const who = [e.role, e.toolName].filter(Boolean).join(" ");
	const head = `  ${relation} ${joinFields([`entryId=${e.entryId}`, `type=${e.entryType}`])}${who ? ` (${field(who)})` : ""}`;
	return preview && preview.text !== "" ? `${head}: ${oneLine(preview.text)}` : head;
}

/** Why a window does not start where it was asked to. */
export function clampNote(w: FragmentWindow): string {
	const asked = w.requestedOffset ?? w.offset;
	const past = asked >= w.totalChars ? ` is past the end (${w.totalChars} characters)` : "";
	return `offset ${asked}${past}: clamped to ${w.offset}, the last ${w.range.end - w.range.start} characters`;
}

/** Text of an event_read result. */
export function renderReadText(result: EventReadResult, ctx: RenderContext): string {
	const lines: string[] = [`event ${metadataLine(result.event, ctx)}`];
	const fc = result.fragmentCoverage;
	if (result.window) {
		const w = result.window;
		const paging: string[] = [];
		if (w.requestedOffset !== undefined) paging.push(clampNote(w));
		if (w.hasBefore) paging.push("more before");
		if (w.hasAfter) paging.push(`more after: offset=${w.range.end}`);
		lines.push(
			`--- window ${field(w.fragmentId)} ${field(w.semanticKind)} chars ${w.range.start}-${w.range.end} of ${w.totalChars}${
				paging.length ? ` (${paging.join("; ")})` : ""
			}`,
		);
		lines.push(...framedLines(w.text));
	} else {
		lines.push(
			`fragments: ${fc.returned} of ${fc.total}${fc.omitted ? ` (${fc.omitted} omitted: use matchingFragmentId)` : ""}`,
		);
		for (const f of result.fragments) {
			const tool = f.toolName ? ` ${f.toolName}` : "";
			lines.push(`--- ${field(f.fragmentId)} ${field(f.semanticKind)}${field(tool)} (${previewReceipt(f.text)})`);
			lines.push(...framedLines(f.text.text));
			if (f.text.truncated) {
				lines.push(`[middle omitted: event_read with matchingFragmentId=${field(f.fragmentId)} and offset to page]`);
			}
		}
	}
	if (result.neighbors.length > 0) {
		lines.push(`neighbours (order ${result.order}):`);
		for (const nb of result.neighbors) lines.push(neighbourLine(nb.event, nb.preview, nb.relation));
	}
	for (const fork of result.forks) {
		const ref = (r: { sessionId: string; entryId: string }) =>
			field(r.sessionId === result.event.sessionId ? r.entryId : `${r.sessionId}/${r.entryId}`);
		const chosen = fork.chosen ? ` chosen=${ref(fork.chosen)}` : "";
		lines.push(
			`fork (${field(fork.kind)}) at ${ref(fork.at)}: candidates ${fork.candidates.map(ref).join(", ")}${chosen}`,
		);
	}
	if (result.parentCycle) lines.push(field(parentCycleText(result.parentCycle)));
	lines.push(coverageText(result.coverage, ctx.progress));
	return capText(lines.join("\n"));
}

function nodeText(node: TraceNode, targetSession: string): string {
	const id = node.sessionId === targetSession ? node.entryId : `${node.sessionId}/${node.entryId}`;
	const who = [node.role, node.toolName].filter(Boolean).join(" ");
	const parts = [`entryId=${id}`, `type=${node.entryType}`];
	if (who) parts.push(`(${who})`);
	parts.push(`state=${states(node.branchState, node.selectionState)}`);
	if (node.towardLeaf) parts.push("toward-leaf");
	parts.push(`time=${node.timestamp}`);
	const head = joinFields(parts);
	return node.preview && node.preview.text !== "" ? `${head}: ${oneLine(node.preview.text)}` : head;
}

function edgeLine(edge: TraceEdge, targetSession: string, ctx: RenderContext): string {
	const flags = [
		edge.inferred ? "inferred" : "",
		edge.derived ? "derived" : "",
		edge.depth ? `depth ${edge.depth}` : "",
	]
		.filter(Boolean)
		.join(", ");
	const what = edge.node
		? nodeText(edge.node, targetSession)
		: edge.file !== undefined
			? `file ${field(displayPath(edge.file, ctx.cwd))}`
			: "";
	return `  ${edge.kind}${flags ? ` [${flags}]` : ""}: ${what}`;
}

/** Text of an event_trace result. */
export function renderTraceText(result: EventTrace, ctx: RenderContext): string {
	const s = result.target.sessionId;
	const lines = [`target sessionId=${field(s)} ${nodeText(result.target, s)}`];
	lines.push(result.parent ? `parent:\n${edgeLine(result.parent, s, ctx)}` : "parent: none (a root)");
	const section = (title: string, edges: TraceEdge[]) => {
		if (edges.length === 0) return;
		lines.push(`${title}:`);
		for (const e of edges) lines.push(edgeLine(e, s, ctx));
	};
	section("children", result.children);
	if (result.children.length === 0) lines.push("children: none");
	section("branch siblings", result.branchSiblings);
	section("related", result.related);
	if (result.parentCycle) lines.push(field(parentCycleText(result.parentCycle)));
	if (result.truncated) lines.push("(edges cut at the trace budget)");
	lines.push("Read any node with event_read (sessionId + entryId); nodes in another session show sessionId/entryId.");
	lines.push(coverageText(result.coverage, ctx.progress));
	return capText(lines.join("\n"));
}
