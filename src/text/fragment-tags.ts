/**
 * Filter tokens of the FTS document (`fragments_fts.tags`): one token per stable fact of a fragment (its source,
 * session cwd, kind, tool, error flag, retrieval-tool flag, timestamp buckets, the keys of the files it touches) and
 * one for its pair of tree states.
 * Entry type and role get no token of their own: the kind implies them (KIND_ORIGINS in src/contract.ts), and every
 * token on every row costs the FTS index about 2 % of its size.
 * Every token starts with TAG_PREFIX, so a query needs no column filter (which would make FTS5 decode position
 * lists): an ordinary word can only match the text columns. A query word that looks like a tag is restricted to
 * the text columns explicitly (src/query/search/terms.ts).
 * A filtered search adds them to its MATCH expression, so filters and authorization intersect INSIDE the full-text
 * index, before any cap on work (docs/query-language.md, "Filters before bounds"). Values are hashed into short
 * alphanumeric tokens (unicode61 keeps them whole); a collision only widens the candidates, because every filter is
 * re-checked in SQL on the rows it returns. Path keys are spelled, not hashed (`spelled`), so their tag alone is
 * exact. Pure.
 */
import { storedPathKeys } from "./path-keys.js";

/** What the tags of one fragment that its event alone decides are derived from. */
export interface OwnTagFacts {
	kind: string;
	toolName: string | null;
	isError: boolean;
	/** A call or result of a retrieval tool (event_search …), hidden unless toolNames names it. */
	retrieval: boolean;
	timestamp: string;
}

/** What the tags of one fragment are derived from. */
export interface TagFacts extends OwnTagFacts {
	sourceId: number;
	cwd: string | null;
	branchState: string;
	selectionState: string;
	/** The files it touches (fragmentPaths). */
	paths: readonly string[];
}

/** 32-bit FNV-1a of the UTF-16 units, base 36: short, stable, dependency-free. */
function hash(value: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < value.length; i++) {
		h ^= value.charCodeAt(i);
		h = Math.imul(h, 0x01000193) >>> 0;
	}
	return h.toString(36);
}

/**
 * `value` as a token of the letters and digits unicode61 keeps as they are, one to one: a-p, r-z and 0-9 stand for
 * themselves, any other code point is `q` and two base-36 digits (below 1295), or `qzz` and four. No spelling is a
 * prefix of another, so distinct values give distinct tokens.
 */
function spelled(value: string): string {
	let out = "";
	for (const ch of value) {
		if (/[a-pr-z0-9]/.test(ch)) out += ch;
		else {
			const cp = ch.codePointAt(0) as number;
			out += cp < 1295 ? `q${cp.toString(36).padStart(2, "0")}` : `qzz${cp.toString(36).padStart(4, "0")}`;
		}
	}
	return out;
}

/** What every tag token starts with (lowercase: unicode61 folds case). */
const TAG_PREFIX = "zz";

/** True when a query token (or, with `prefix`, a prefix query) could match a tag token. */
export function looksLikeTag(token: string, prefix = false): boolean {
	const t = token.toLowerCase();
	return t.startsWith(TAG_PREFIX) || (prefix && TAG_PREFIX.startsWith(t));
}

/** The tag token families: TAG_PREFIX, a family letter, then the value hashed (or, for numbers and dates, spelled). */
export const tag = {
	source: (id: number) => `${TAG_PREFIX}s${id}`,
	cwd: (cwd: string) => `${TAG_PREFIX}c${hash(cwd)}`,
	kind: (kind: string) => `${TAG_PREFIX}k${hash(kind)}`,
	tool: (name: string) => `${TAG_PREFIX}n${hash(name)}`,
	/** The branch and selection state together: one token a row instead of two (a filter on one names every pair). */
	treeState: (branch: string, selection: string) => `${TAG_PREFIX}p${hash(`${branch}/${selection}`)}`,
	error: () => `${TAG_PREFIX}e`,
	retrieval: () => `${TAG_PREFIX}q`,
	day: (ymd: string) => `${TAG_PREFIX}d${ymd}`,
	month: (ym: string) => `${TAG_PREFIX}m${ym}`,
	year: (y: string) => `${TAG_PREFIX}y${y}`,
	decade: (yyy: string) => `${TAG_PREFIX}x${yyy}`,
	/** A file's key (text/path-keys.ts), spelled exactly. */
	path: (key: string) => `${TAG_PREFIX}f${spelled(key)}`,
} as const;

/**
 * Kinds whose fragments touch their event's files: a tool result (its call's files), a `!` command and its output,
 * and a summary (the files its details list). A tool call touches its own paths (ProjectedFragment.files); the text
 * around the calls of an assistant turn touches none.
 */
const EVENT_FILE_KINDS: ReadonlySet<string> = new Set([
	"tool_result",
	"bash_command",
	"bash_output",
	"compaction_summary",
	"branch_summary",
]);

/** The files a fragment of `kind` touches, from its own paths (a tool call's) and its event's files. */
export function fragmentPaths(
	kind: string,
	own: readonly string[] | null,
	event: readonly string[],
): readonly string[] {
	if (kind === "tool_call") return own ?? [];
	return EVENT_FILE_KINDS.has(kind) ? event : [];
}

/** The path tags of the files a fragment touches, their keys taken as the session's cwd sees them. */
export function pathTags(paths: readonly string[], cwd: string | null): string {
	if (paths.length === 0) return "";
	const keys = new Set(paths.flatMap((p) => storedPathKeys(p, cwd)));
	return [...keys].map(tag.path).join(" ");
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** The day, month, year and decade tokens of an ISO timestamp (none when it does not start with a date). */
export function timeTags(timestamp: string): string[] {
	const m = DATE.exec(timestamp);
	if (!m) return [];
	const [, y, mo, d] = m;
	return [tag.day(`${y}${mo}${d}`), tag.month(`${y}${mo}`), tag.year(y), tag.decade(y.slice(0, 3))];
}

/** The `tags` column text of one fragment. */
export function fragmentTags(f: TagFacts): string {
	return placedTags(
		sourceTags(f.sourceId, f.cwd),
		ownTags(f),
		f.branchState,
		f.selectionState,
		pathTags(f.paths, f.cwd),
	);
}

/** The tags of a source and its session's cwd, which all its fragments share. */
export function sourceTags(sourceId: number, cwd: string | null): string {
	return cwd ? `${tag.source(sourceId)} ${tag.cwd(cwd)}` : tag.source(sourceId);
}

/** The tags its event alone decides (a bulk pass derives them before the write: ingest/event-rows.ts). */
export function ownTags(f: OwnTagFacts): string {
	const out = [tag.kind(f.kind)];
	if (f.toolName) out.push(tag.tool(f.toolName));
	if (f.isError) out.push(tag.error());
	if (f.retrieval) out.push(tag.retrieval());
	out.push(...timeTags(f.timestamp));
	return out.join(" ");
}

/**
 * The `tags` column text of a fragment from its source's tags (`sourceTags`), its own (`ownTags`), its states and its
 * path tags (`pathTags`).
 */
export function placedTags(
	source: string,
	own: string,
	branchState: string,
	selectionState: string,
	paths: string,
): string {
	const placed = `${source} ${own} ${tag.treeState(branchState, selectionState)}`;
	return paths === "" ? placed : `${placed} ${paths}`;
}

/** Earliest and latest years a time range cover reaches for an open bound (outside: no time tokens are used). */
export const TAG_YEARS = { first: 1900, last: 2299 } as const;

interface Ymd {
	y: number;
	m: number;
	d: number;
}

function ymdOf(iso: string): Ymd {
	return { y: Number(iso.slice(0, 4)), m: Number(iso.slice(5, 7)), d: Number(iso.slice(8, 10)) };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

function daysIn(y: number, m: number): number {
	return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * The fewest tokens (decades, years, months, days) whose union is exactly the days from `from` to `to` (ISO
 * timestamps, inclusive, by their date part). Undefined when a bound lies outside TAG_YEARS: the caller then relies
 * on the SQL check alone.
 */
export function dayRangeTags(from: string | undefined, to: string | undefined): string[] | undefined {
	const lo = from ? ymdOf(from) : { y: TAG_YEARS.first, m: 1, d: 1 };
	const hi = to ? ymdOf(to) : { y: TAG_YEARS.last, m: 12, d: 31 };
	if (lo.y < TAG_YEARS.first || hi.y > TAG_YEARS.last) return undefined;
	const out: string[] = [];
	const key = (p: Ymd) => p.y * 10_000 + p.m * 100 + p.d;
	if (key(lo) > key(hi)) return [];
	// Walk forward from lo, each step taking the largest aligned bucket that fits before hi.
	let cur = { ...lo };
	while (key(cur) <= key(hi)) {
		const endOfDecade = { y: Math.floor(cur.y / 10) * 10 + 9, m: 12, d: 31 };
		const endOfYear = { y: cur.y, m: 12, d: 31 };
		const endOfMonth = { y: cur.y, m: cur.m, d: daysIn(cur.y, cur.m) };
		if (cur.m === 1 && cur.d === 1 && cur.y % 10 === 0 && key(endOfDecade) <= key(hi)) {
			out.push(tag.decade(String(cur.y).slice(0, 3)));
			cur = { y: cur.y + 10, m: 1, d: 1 };
		} else if (cur.m === 1 && cur.d === 1 && key(endOfYear) <= key(hi)) {
			out.push(tag.year(String(cur.y)));
			cur = { y: cur.y + 1, m: 1, d: 1 };
		} else if (cur.d === 1 && key(endOfMonth) <= key(hi)) {
			out.push(tag.month(`${cur.y}${pad(cur.m)}`));
			cur = cur.m === 12 ? { y: cur.y + 1, m: 1, d: 1 } : { y: cur.y, m: cur.m + 1, d: 1 };
		} else {
			out.push(tag.day(`${cur.y}${pad(cur.m)}${pad(cur.d)}`));
			const next = new Date(Date.UTC(cur.y, cur.m - 1, cur.d + 1));
			cur = { y: next.getUTCFullYear(), m: next.getUTCMonth() + 1, d: next.getUTCDate() };
		}
	}
	return out;
}
