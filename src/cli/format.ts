/**
 * Human output of every command. Pure: structures in, text out. The `--json` output is the structures themselves;
 * this is the readable view of the same data.
 */
import type {
	EventMetadata,
	EventReadResult,
	EventSearchHit,
	EventSearchResult,
	EventTrace,
	TextPreview,
	TraceEdge,
	TraceNode,
} from "../contract.js";
import type { SessionList } from "../query/index.js";
import { coverageText } from "../text/coverage-text.js";
import { parentCycleText } from "../text/cycle-text.js";
import { emptiedText } from "../text/emptied-text.js";
import { framedText, oneLine, SESSION_TEXT_MARK, escapeValue as v } from "../text/safe-text.js";
import { weakText } from "../text/weak-text.js";
import { NON_WORD_RUN } from "../text/word-classes.js";
import { highlightTerms, NO_COLOUR, type Style } from "./colour.js";
import { flagOfField } from "./fields.js";

export { oneLine };

/** `1.5 MB`, `812 B`. */
export function formatBytes(n: number): string {
	if (!Number.isFinite(n) || n < 1024) return `${Math.max(0, Math.round(Number.isFinite(n) ? n : 0))} B`;
	const units = ["KB", "MB", "GB", "TB"];
	let v = n / 1024;
	let i = 0;
	while (v >= 1024 && i < units.length - 1) {
		v /= 1024;
		i++;
	}
	return `${v.toFixed(1)} ${units[i]}`;
}

/** `850ms`, `12s`, `3m05s`, `2h04m`. */
export function formatDuration(ms: number): string {
	if (!Number.isFinite(ms) || ms < 0) return "--";
	if (ms < 1000) return `${Math.round(ms)}ms`;
	const s = Math.round(ms / 1000);
	if (s < 60) return `${s}s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
	return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** Indent every line of `text`. */
function indent(text: string, prefix = "    "): string {
	return text
		.split("\n")
		.map((l) => (l === "" ? l : prefix + l))
		.join("\n");
}

/** Characters a matched term is given before the cut of a snippet line. */
const SNIPPET_WORD_ROOM = 20;

/**
 * A search snippet on one line of at most `max` code points that still shows the first of `words` it holds: the
 * library centres a snippet on the match, but near a fragment's end the match sits past the first `max` of it.
 */
export function snippetLine(snippet: string, words: readonly string[], max = 200): string {
	const flat = oneLine(snippet, Number.POSITIVE_INFINITY);
	const cps = Array.from(flat);
	if (cps.length <= max) return flat;
	const lower = flat.toLowerCase();
	const found = words
		.map((w) => w.replace(/^"|"$/g, "").toLowerCase())
		.filter((w) => w !== "")
		.map((w) => lower.indexOf(w))
		.filter((i) => i >= 0);
	const at = found.length > 0 ? Array.from(flat.slice(0, Math.min(...found))).length : 0;
	const inner = max - 2; // room for both ellipses
	// A match starting this far before the cut keeps its word (and some after it) on the line cut from the start.
	if (at + SNIPPET_WORD_ROOM < max - 1) return oneLine(flat, max);
	const start = Math.max(1, Math.min(at - Math.floor(inner / 2), cps.length - (max - 1)));
	// Reaching the end needs no closing ellipsis: one more character fits.
	const end = start + max - 1 >= cps.length ? cps.length : start + inner;
	return `…${cps.slice(start, end).join("")}${end < cps.length ? "…" : ""}`;
}

function previewSuffix(p: TextPreview): string {
	return p.truncated
		? ` (${p.shownRanges.reduce((n, r) => n + r.end - r.start, 0)} of ${p.totalChars} chars shown)`
		: "";
}

function who(e: { role?: string; toolName?: string; entryType: string }): string {
	return v([e.entryType, e.role, e.toolName].filter(Boolean).join(" "));
}

/** `text` quoted for a POSIX shell when it needs it. */
function shellQuote(text: string): string {
	return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** How a person opens a session in Pi: from its cwd, so Pi finds it among that project's sessions. */
function openInPi(sessionId: string, cwd: string): string {
	return v(`cd ${shellQuote(cwd)} && pi --session ${shellQuote(sessionId)}`);
}

/** Hits the same search has in workspaces the caller did not ask for (a hint to widen). */
export interface OtherWorkspaceHits {
	hits: number;
	/** More than `hits` exist. */
	more: boolean;
	/** The cwds of those hits, most hits first. */
	cwds: string[];
}

/** What the human view of a search shows besides the result: session files and hits elsewhere. */
export interface SearchExtras {
	/** Session file by session id (people only: never in --json, which is the tool's structure). */
	files: ReadonlyMap<string, string>;
	elsewhere?: OtherWorkspaceHits;
	workspace: string;
}

function searchHeading(query: string, r: EventSearchResult): string {
	// An empty query is a look-up by file (--path alone).
	const q = query.trim() === "" ? "those paths" : JSON.stringify(query);
	if (r.hits.length === 0 && r.emptiedBy) {
		return `no hits for ${q}: ${emptiedText(r.emptiedBy, (f) => flagOfField(f, "search") ?? f)}`;
	}
	if (r.hits.length === 0) return `no hits for ${q}`;
	if (r.relaxed && r.tiers)
		return r.tiers.allTerms === 0
			? `no hit contains every term of ${q}; ${r.tiers.someTerms} match some of them`
			: `${r.tiers.allTerms} hit${r.tiers.allTerms === 1 ? "" : "s"} for ${q} and ${r.tiers.someTerms} matching only some terms`;
	return `${r.hits.length}${r.truncated ? "+" : ""} hit${r.hits.length === 1 ? "" : "s"} for ${q}`;
}

/** The words of a query, for highlighting (identifiers split as the index splits them). */
function queryWords(query: string): string[] {
	return query.split(NON_WORD_RUN.in(query)).filter((w) => w !== "");
}

function hitLines(h: EventSearchHit, i: number, query: string, extras: SearchExtras, st: Style): string[] {
	const flags = [h.isError ? st.red("ERROR") : "", st.dim(`${h.branchState}/${h.selectionState}`)]
		.filter(Boolean)
		.join(" ");
	const out = [
		`${st.bold(`${i + 1}.`)} ${st.cyan(v(h.sessionId))} ${st.cyan(v(h.entryId))}  ${who(h)}  ${st.dim(v(h.timestamp))}  ${flags}`,
	];
	const more = h.matchingFragmentCount > 1 ? ` (+${h.matchingFragmentCount - 1} more matching)` : "";
	const name = h.sessionName ? `  "${v(h.sessionName)}"` : "";
	out.push(`   ${v(h.semanticKind)} ${v(h.matchingFragmentId)}${more}  cwd ${v(h.cwd)}${name}`);
	const terms = h.matchedTerms ?? queryWords(query);
	out.push(`   ${SESSION_TEXT_MARK}${highlightTerms(snippetLine(h.snippet, terms), terms, st)}`);
	if (h.missingTerms?.length) out.push(`   missing: ${v(h.missingTerms.join(", "))}`);
	if (h.taskRequestId) out.push(`   in the task of request ${v(h.taskRequestId)}`);
	if (h.forkCopies)
		out.push(`   also in forks: ${v(h.forkCopies.map((c) => `${c.sessionId} ${c.entryId}`).join(", "))}`);
	out.push(st.dim(`   open in Pi: ${openInPi(h.sessionId, h.cwd)}`));
	const file = extras.files.get(h.sessionId);
	if (file !== undefined) out.push(st.dim(`   file: ${v(file)}`));
	return out;
}

/** "No hits here, N in other workspaces" with the two ways to widen. */
function elsewhereLines(e: OtherWorkspaceHits, workspace: string): string[] {
	const shown = e.cwds.slice(0, 3);
	const rest = e.cwds.length - shown.length;
	return [
		"",
		`no hits in this workspace (${v(workspace)}), but ${e.hits}${e.more ? "+" : ""} in other workspaces: ${v(shown.join(", "))}${rest > 0 ? ` and ${rest} more` : ""}`,
		`widen the search: --workspace ${v(shellQuote(shown[0] ?? "DIR"))} (that workspace) or --all (every workspace)`,
	];
}

/** Search hits, each with the ids a `read` needs and how to open it in Pi, then coverage. */
export function formatSearch(
	query: string,
	r: EventSearchResult,
	extras: SearchExtras = { files: new Map(), workspace: "" },
	st: Style = NO_COLOUR,
): string {
	const out: string[] = [searchHeading(query, r)];
	if (r.weakMatches) out.push(v(`${weakText(r.weakMatches, (t) => JSON.stringify(t))}.`));
	r.hits.forEach((h, i) => {
		out.push("", ...hitLines(h, i, query, extras, st));
	});
	if (r.hits.length === 0 && extras.elsewhere && extras.elsewhere.hits > 0) {
		out.push(...elsewhereLines(extras.elsewhere, extras.workspace));
	}
	if (r.rankedMatchCap)
		out.push("", `very broad query: only the ${r.rankedMatchCap} most recently indexed matches were ranked`);
	else if (r.truncated) out.push("", `more than ${r.limit} hits: narrow the query, add filters or raise --limit`);
	const top = r.hits[0];
	if (top)
		out.push(
			"",
			v(
				`read the top hit: pi-event-index read ${shellQuote(top.sessionId)} ${shellQuote(top.entryId)} --fragment ${shellQuote(top.matchingFragmentId)}`,
			),
		);
	out.push(coverageText(r.coverage));
	return out.join("\n");
}

/** The session list: newest activity first, each with how to open it. */
export function formatSessions(
	r: SessionList,
	files: ReadonlyMap<string, string> = new Map(),
	st: Style = NO_COLOUR,
): string {
	const n = r.sessions.length;
	const out = [
		n === 0 ? "no sessions" : `${n}${r.truncated ? "+" : ""} session${n === 1 ? "" : "s"}, newest activity first`,
	];
	for (const s of r.sessions) {
		const name = s.sessionName ? `  "${v(s.sessionName)}"` : "";
		out.push("", `${st.cyan(v(s.sessionId))}${st.bold(name)}`);
		out.push(`   cwd ${v(s.cwd)}  ${s.eventCount} events`);
		out.push(st.dim(`   started ${v(s.startedAt)}  last activity ${v(s.lastActivityAt)}`));
		if (s.forkParent) out.push(`   forked from ${st.cyan(v(s.forkParent.sessionId))}`);
		out.push(st.dim(`   open in Pi: ${openInPi(s.sessionId, s.cwd)}`));
		const file = files.get(s.sessionId);
		if (file !== undefined) out.push(st.dim(`   file: ${v(file)}`));
	}
	if (r.truncated)
		out.push("", `more than ${r.limit} sessions: narrow with --since/--until or --cwd, or raise --limit`);
	out.push(coverageText(r.coverage));
	return out.join("\n");
}

function metadataLines(e: EventMetadata): string[] {
	const lines = [`event ${v(e.entryId)}  ${who(e)}  ${v(e.timestamp)}${e.isError ? "  ERROR" : ""}`];
	const name = e.sessionName ? ` "${v(e.sessionName)}"` : "";
	lines.push(`session ${v(e.sessionId)}${name}  cwd ${v(e.cwd)}`);
	lines.push(
		`parent ${v(e.parentId ?? "(root)")}  ${v(`${e.branchState}/${e.selectionState}`)}${e.onLeafPath ? "  on the leaf path" : ""}`,
	);
	if (e.toolCallId) lines.push(`tool call id ${v(e.toolCallId)}`);
	if (e.labels?.length) lines.push(`labels: ${v(e.labels.join(", "))}`);
	const attrs = Object.entries(e.attributes ?? {});
	if (attrs.length) lines.push(`attributes: ${v(attrs.map(([key, value]) => `${key}=${String(value)}`).join(", "))}`);
	return lines;
}

/** One event: metadata, fragment previews or a window, neighbours, fork receipts, coverage. */
export function formatRead(r: EventReadResult): string {
	const out = metadataLines(r.event);
	if (r.window) {
		const w = r.window;
		out.push("", `[${v(w.fragmentId)}] ${v(w.semanticKind)}, chars ${w.range.start}–${w.range.end} of ${w.totalChars}`);
		out.push(indent(framedText(w.text)));
		const moves: string[] = [];
		if (w.hasBefore) moves.push("earlier text: a smaller --offset");
		if (w.hasAfter) moves.push(`more text: --offset ${w.range.end}`);
		if (moves.length) out.push(`(${moves.join("; ")})`);
	} else {
		for (const f of r.fragments) {
			const tool = f.toolName ? ` ${v(f.toolName)}` : "";
			out.push("", `[${v(f.fragmentId)}] ${v(f.semanticKind)}${tool}${previewSuffix(f.text)}`);
			out.push(indent(framedText(f.text.text)));
		}
		const c = r.fragmentCoverage;
		if (c.omitted > 0 || c.truncated) {
			out.push("", `${c.returned} of ${c.total} fragments shown; read one whole with --fragment ID and --offset N`);
		}
	}
	if (r.neighbors.length) {
		out.push("", `neighbours (${r.order} order):`);
		for (const n of r.neighbors) {
			const text = n.preview ? `  ${oneLine(n.preview.text, 80)}` : "";
			out.push(`  ${n.relation.padEnd(6)} ${v(n.event.entryId)}  ${who(n.event)}${text}`);
		}
	}
	for (const f of r.forks) {
		const chosen = f.chosen
			? `, followed ${f.chosen.sessionId === r.event.sessionId ? "" : `${f.chosen.sessionId} `}${f.chosen.entryId}`
			: "";
		const candidates = f.candidates.map((c) =>
			c.sessionId === r.event.sessionId ? c.entryId : `${c.sessionId}/${c.entryId}`,
		);
		out.push(v(`fork (${f.kind}) at ${f.at.entryId}: ${candidates.join(", ")}${chosen}`));
	}
	if (r.parentCycle) out.push(parentCycleText(r.parentCycle));
	out.push("", coverageText(r.coverage));
	return out.join("\n");
}

function nodeLine(n: TraceNode, sessionId: string): string {
	const session = n.sessionId === sessionId ? "" : `${v(n.sessionId)} `;
	const preview = n.preview ? `  ${oneLine(n.preview.text, 80)}` : "";
	const leaf = n.towardLeaf ? " ↳leaf" : "";
	return `${session}${v(n.entryId)}  ${who(n)}  ${v(`${n.branchState}/${n.selectionState}`)}${leaf}${preview}`;
}

function edgeLine(e: TraceEdge, sessionId: string): string {
	const tags = [
		e.inferred ? "inferred" : "",
		e.derived ? "derived" : "",
		e.depth && e.depth > 1 ? `depth ${e.depth}` : "",
	]
		.filter(Boolean)
		.join(", ");
	const target = e.node ? nodeLine(e.node, sessionId) : v(e.file ?? "");
	return `  ${e.kind.padEnd(19)} ${target}${tags ? `  (${tags})` : ""}`;
}

/** One event's neighbourhood in the session tree and its related events. */
export function formatTrace(t: EventTrace): string {
	const sid = t.target.sessionId;
	const out = [
		`trace of ${v(t.target.entryId)} in session ${v(sid)}`,
		`  target              ${nodeLine(t.target, sid)}  ${v(t.target.timestamp)}`,
	];
	out.push(t.parent ? edgeLine(t.parent, sid) : "  parent              (root)");
	for (const e of t.children) out.push(edgeLine(e, sid));
	for (const e of t.branchSiblings) out.push(edgeLine(e, sid));
	if (t.related.length) out.push("related:");
	for (const e of t.related) out.push(edgeLine(e, sid));
	if (t.parentCycle) out.push(parentCycleText(t.parentCycle));
	if (t.truncated) out.push("(more edges than the budget allows were left out)");
	out.push("", coverageText(t.coverage));
	return out.join("\n");
}
