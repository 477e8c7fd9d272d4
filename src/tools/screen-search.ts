/**
 * event_search on Pi's screen: collapsed, the headline and the top hits (time, kind, snippet), one line each;
 * expanded, every hit with where it is, its snippet and the ids that read it, then the coverage.
 */
import type { EventSearchHit, EventSearchResult } from "../contract.js";
import { coverageText } from "../text/coverage-text.js";
import {
	BODY_LINES,
	block,
	COLLAPSED_HITS,
	cap,
	eventRef,
	fitWidth,
	flat,
	kindOf,
	type Paint,
	partialMark,
	safe,
	shortenPathLeft,
	shortTime,
	wrapWords,
} from "./screen-text.js";
import { tuiWidth } from "./tui-width.js";

/** One hit on one line: time, kind, snippet. */
function hitRow(hit: EventSearchHit, width: number, paint: Paint): string {
	const head = `  ${paint.muted(shortTime(hit.timestamp))} ${paint.accent(kindOf(hit.semanticKind, hit.toolName, hit.isError))}`;
	return fitWidth([`${head}  ${flat(hit.snippet)}`], width)[0];
}

/** The first line of a search row: how many hits, whether more matched, partial coverage. */
function searchHeadline(r: EventSearchResult, paint: Paint): string {
	const n = r.hits.length;
	if (n === 0) return paint.muted("no hits") + partialMark(r.coverage, paint);
	const what = r.weakMatches
		? " (weak matches only)"
		: r.relaxed && (r.tiers?.allTerms ?? 0) === 0
			? " (none has every term)"
			: "";
	const more = r.truncated ? " (more matched)" : "";
	return (
		paint.success(`${n} hit${n === 1 ? "" : "s"}`) + paint.muted(`${what}${more}`) + partialMark(r.coverage, paint)
	);
}

/** A collapsed search row: the headline and the top hits, one line each. */
export function searchCollapsed(r: EventSearchResult, width: number, paint: Paint): string[] {
	const lines = [searchHeadline(r, paint), ...r.hits.slice(0, COLLAPSED_HITS).map((h) => hitRow(h, width, paint))];
	if (r.hits.length > COLLAPSED_HITS) lines.push(paint.muted(`  … ${r.hits.length - COLLAPSED_HITS} more`));
	return fitWidth(lines, width);
}

/** Session name and cwd within `room` columns: the cwd's last directory comes first, the name gets what is left. */
function whereOf(hit: EventSearchHit, room: number): string {
	const dir = hit.cwd;
	const last = tuiWidth().visibleWidth(dir.split(/[\\/]/).at(-1) ?? dir) + 2;
	const nameRoom = Math.min(Math.floor(room / 2), room - last - 3);
	if (!hit.sessionName || nameRoom < 8) return shortenPathLeft(dir, Math.max(8, room));
	const name = fitWidth([`"${flat(hit.sessionName)}"`], nameRoom)[0];
	return `${name} · ${shortenPathLeft(dir, Math.max(8, room - tuiWidth().visibleWidth(name) - 3))}`;
}

/** The expanded search view: each hit with where it is, its snippet and the ids that read it. */
export function searchExpanded(r: EventSearchResult, width: number, paint: Paint): string[] {
	const lines = [searchHeadline(r, paint)];
	r.hits.forEach((hit, i) => {
		const head = `${i + 1}. ${paint.muted(shortTime(hit.timestamp))} ${paint.accent(kindOf(hit.semanticKind, hit.toolName, hit.isError))}  `;
		lines.push(...fitWidth([head + paint.muted(whereOf(hit, width - tuiWidth().visibleWidth(head)))], width));
		lines.push(...block(flat(hit.snippet), width, "   ", BODY_LINES));
		const extra: string[] = [eventRef(hit.sessionId, hit.entryId)];
		if (hit.matchingFragmentCount > 1) extra.push(`${hit.matchingFragmentCount} matching fragments`);
		if (hit.missingTerms?.length) extra.push(`missing ${safe(hit.missingTerms.join(", "))}`);
		if (hit.forkCopies?.length)
			extra.push(`also in ${hit.forkCopies.length} fork${hit.forkCopies.length === 1 ? "" : "s"}`);
		lines.push(
			...wrapWords(
				extra.map((e, j) => paint.dim(j === 0 ? `   ${e}` : `· ${e}`)),
				width,
				"   ",
			),
		);
	});
	lines.push(...block(coverageText(r.coverage), width, "", BODY_LINES, paint.dim));
	return cap(fitWidth(lines, width), width, paint);
}
