/**
 * event_read on Pi's screen: collapsed, the event's kind, time and first line; expanded, where it is, its fragments
 * (or the window) wrapped to the width, its neighbours one line each, forks and the coverage.
 */
import type { EventReadResult, FragmentView, NeighborEvent } from "../contract.js";
import { coverageText } from "../text/coverage-text.js";
import { clampNote } from "./render-text.js";
import {
	BODY_LINES,
	block,
	cap,
	FRAGMENT_LINES,
	fitWidth,
	flat,
	kindOf,
	type Paint,
	partialMark,
	safe,
	shortenPathLeft,
	shortSession,
	shortTime,
	WINDOW_LINES,
	wrapWords,
} from "./screen-text.js";

/** The event's own kind: its first fragment's (or the window's), else its role or entry type. */
function eventKind(r: EventReadResult): string {
	const kind = r.window?.semanticKind ?? r.fragments[0]?.semanticKind;
	return kindOf(kind ?? r.event.role ?? r.event.entryType, r.event.toolName, r.event.isError);
}

/** The first non-empty line of the event's text. */
function firstLine(r: EventReadResult): string {
	const text = r.window?.text ?? r.fragments[0]?.text.text ?? "";
	return (
		text
			.split("\n")
			.find((l) => l.trim() !== "")
			?.trim() ?? ""
	);
}

/** The collapsed read row: kind, time and first line. */
export function readCollapsed(r: EventReadResult, width: number, paint: Paint): string[] {
	const head = `${paint.accent(eventKind(r))} ${paint.muted(shortTime(r.event.timestamp))}${partialMark(r.coverage, paint)}`;
	return fitWidth([`${head}  ${firstLine(r)}`], width);
}

function fragmentLines(f: FragmentView, width: number, paint: Paint): string[] {
	const p = f.text;
	const size = p.truncated ? `${p.totalChars} chars, middle omitted` : `${p.totalChars} chars`;
	const head = paint.muted(`── ${safe(f.fragmentId)} ${kindOf(f.semanticKind, f.toolName)} · ${size}`);
	return [...fitWidth([head], width), ...block(p.text, width, "  ", FRAGMENT_LINES)];
}

function neighbourLine(n: NeighborEvent, width: number, paint: Paint): string {
	const arrow = n.relation === "before" ? "↑" : "↓";
	const who = kindOf(n.event.role ?? n.event.entryType, n.event.toolName, n.event.isError);
	const text = n.preview ? flat(n.preview.text) : "";
	return fitWidth([`  ${arrow} ${paint.muted(shortTime(n.event.timestamp))} ${paint.accent(who)}  ${text}`], width)[0];
}

/** The expanded read view. */
export function readExpanded(r: EventReadResult, width: number, paint: Paint): string[] {
	const e = r.event;
	const where = [
		`session ${shortSession(e.sessionId)}`,
		e.sessionName ? `"${flat(e.sessionName)}"` : "",
		shortenPathLeft(e.cwd, 40),
		`entry ${safe(e.entryId)}`,
		safe(`${e.branchState}/${e.selectionState}`),
	].filter(Boolean);
	const lines = [
		...readCollapsed(r, width, paint),
		...wrapWords(
			where.map((w, i) => paint.muted(i === 0 ? w : `· ${w}`)),
			width,
		),
	];
	if (e.labels?.length) lines.push(...fitWidth([paint.muted(`labels: ${e.labels.map(flat).join(", ")}`)], width));
	if (r.window) {
		const w = r.window;
		const clamp = w.requestedOffset !== undefined ? ` (${clampNote(w)})` : "";
		lines.push(
			...block(
				`── ${safe(w.fragmentId)} ${safe(w.semanticKind)} · chars ${w.range.start}-${w.range.end} of ${w.totalChars}${clamp}`,
				width,
				"",
				BODY_LINES,
				paint.muted,
			),
		);
		lines.push(...block(w.text, width, "  ", WINDOW_LINES));
	} else {
		for (const f of r.fragments) lines.push(...fragmentLines(f, width, paint));
		if (r.fragmentCoverage.omitted > 0) lines.push(paint.muted(`  … ${r.fragmentCoverage.omitted} more fragments`));
	}
	for (const n of r.neighbors) lines.push(neighbourLine(n, width, paint));
	for (const f of r.forks) {
		const kind = f.kind === "session-fork" ? "forked into another session" : "branches here";
		lines.push(paint.muted(`  ⑂ ${safe(f.at.entryId)}: ${kind} (${f.candidates.length} ways)`));
	}
	lines.push(...block(coverageText(r.coverage), width, "", BODY_LINES, paint.dim));
	return cap(fitWidth(lines, width), width, paint);
}
