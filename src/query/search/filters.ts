/**
 * The search filters, each declared once: its request field, value shape, description, CLI flag(s), validation,
 * how it narrows the FTS match (tokens of the `tags` column, src/text/fragment-tags.ts) and the exact SQL check on
 * the rows the match returns. The TypeBox schema (src/tools/schemas.ts), the CLI search options (src/cli/) and the
 * filter sentence of the prompt are derived from this list: adding a filter touches this file only.
 */
import path from "node:path";
import {
	BRANCH_STATES,
	ENTRY_TYPES,
	type EventSearchRequest,
	KIND_ORIGINS,
	type KindOrigin,
	MESSAGE_ROLES,
	SELECTION_STATES,
	SEMANTIC_KINDS,
} from "../../contract.js";
import { type CodedColumn, inCodesSql, timestampBoundSql } from "../../store/column-codes.js";
import { didYouMean } from "../../text/did-you-mean.js";
import { dayRangeTags, tag } from "../../text/fragment-tags.js";
import { askedPathKeys, foldPath, MAX_KEY_LENGTH } from "../../text/path-keys.js";
import { checkTime, TIME_VALUE_HELP } from "../../text/relative-time.js";
import {
	type AuthorizedRoots,
	findWorkspaceRoot,
	isInsideRoot,
	normalizeRoot,
	pathInsideSql,
	type SqlClause,
} from "../authorize.js";
import type { CallerContext } from "../caller.js";
import { all, type QueryDb } from "../db.js";
import { echo, invalidField } from "../errors.js";
import { checkKeys } from "../request-keys.js";
import { SESSION_PREFIX_HELP } from "../session-prefix.js";

/** What a filter's tag and SQL forms may consult. */
export interface FilterContext {
	db: QueryDb;
	caller: CallerContext;
	auth: AuthorizedRoots;
}

/** How a filter's value is typed (drives the schema and the CLI option kind). */
type FilterShape =
	| { type: "string" }
	| { type: "path" }
	| { type: "strings"; values?: readonly string[] }
	| { type: "boolean" }
	/** `bound`: what each end (from, to) may be. */
	| { type: "time-range"; bound: string };

/** One CLI flag of a filter; `key` names the sub-field of an object-valued filter (time.from). */
interface FilterFlag {
	flag: string;
	value?: string;
	help: string;
	key?: string;
}

/**
 * A tag form: FTS5 expression over the tags column (already quoted tokens joined by OR/AND), `null` when nothing
 * can match (e.g. an unknown session), or undefined when the filter cannot narrow the match by tags.
 */
export type TagForm = string | null | undefined;

/** One declared filter. `T` is the normalized value. */
export interface SearchFilter<T = unknown> {
	field: Exclude<keyof EventSearchRequest, "query">;
	shape: FilterShape;
	/** One sentence for the model (tool schema) and the docs. */
	description: string;
	/** Short name used in the prompt's filter sentence. */
	promptName: string;
	flags: FilterFlag[];
	/**
	 * Normalize and validate; undefined = filter not set. Throws QueryError (with its field) and a message fit for
	 * the model. `now` resolves relative times.
	 */
	parse(value: unknown, now: Date): T | undefined;
	tags(value: T, ctx: FilterContext): TagForm;
	/** Exact condition over aliases f (fragments), e (events), s (sources). */
	sql(value: T, ctx: FilterContext): SqlClause;
}

/** Kind tags of every kind `keep` accepts: entry types and roles have no tags of their own (KIND_ORIGINS). */
function kindTags(keep: (kind: string, origin: KindOrigin) => boolean): string[] {
	return SEMANTIC_KINDS.filter((k) => keep(k, KIND_ORIGINS[k])).map(tag.kind);
}

const has = (list: readonly string[], value: string) => list.includes(value);

/** Values of `kinds`: every semantic kind, then the entry types that are not also a kind. */
const KIND_VALUES: readonly string[] = [...new Set<string>([...SEMANTIC_KINDS, ...ENTRY_TYPES])];

/** Visible cwds beyond which a tag form is not built (the SQL check alone applies). */
const MAX_TAG_ALTERNATIVES = 400;

function placeholders(n: number): string {
	return Array.from({ length: n }, () => "?").join(", ");
}

/** OR of tokens, or null for none (nothing can match). */
export function anyOf(tokens: readonly string[]): TagForm {
	if (tokens.length === 0) return null;
	return [...new Set(tokens)].map((t) => `"${t}"`).join(" OR ");
}

/**
 * Values a list filter takes at most. More names than any session holds tools or kinds; the cap is checked before
 * any value is looked at, so an oversized list costs nothing (100,000 toolNames blocked the caller for 12–14 s).
 */
export const MAX_FILTER_VALUES = 100;

function stringList(name: string, value: unknown): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	if (!Array.isArray(value)) throw invalidField(name, "must be a list of strings.");
	if (value.length > MAX_FILTER_VALUES) {
		throw invalidField(name, `has ${value.length} values; at most ${MAX_FILTER_VALUES} are allowed.`);
	}
	if (value.some((v) => typeof v !== "string")) throw invalidField(name, "must be a list of strings.");
	const list = (value as string[]).map((v) => v.trim()).filter((v) => v !== "");
	return list.length > 0 ? [...new Set(list)] : undefined;
}

function enumList<T extends string>(name: string, value: unknown, allowed: readonly T[]): T[] | undefined {
	const list = stringList(name, value);
	if (list === undefined) return undefined;
	const bad = list.filter((v) => !(allowed as readonly string[]).includes(v));
	if (bad.length > 0) {
		const hint = bad.length === 1 ? didYouMean(bad[0] as string, allowed) : "";
		throw invalidField(name, `has unknown value(s) ${bad.join(", ")}${hint}; use ${allowed.join(", ")}.`);
	}
	return list as T[];
}

function isoTime(name: string, value: unknown, now: Date): string | undefined {
	if (value === undefined || value === null || value === "") return undefined;
	if (typeof value !== "string") throw invalidField(name, `must be ${TIME_VALUE_HELP}.`);
	const checked = checkTime(value, now);
	if ("iso" in checked) return checked.iso;
	const why = checked.problem === undefined ? "" : `; "${echo(value)}" ${checked.problem}`;
	throw invalidField(name, `must be ${TIME_VALUE_HELP}${why}.`);
}

/** Distinct session cwds of the index for which `keep` holds, as tag tokens; undefined past the cap. */
export function cwdTags(db: QueryDb, keep: (cwd: string) => boolean): { tokens: string[]; all: boolean } | undefined {
	const cwds = all<{ cwd: string }>(db, "SELECT DISTINCT cwd FROM sources WHERE cwd IS NOT NULL AND cwd <> ''").map(
		(r) => r.cwd,
	);
	const kept = cwds.filter(keep);
	if (kept.length === cwds.length) return { tokens: [], all: true };
	if (kept.length > MAX_TAG_ALTERNATIVES) return undefined;
	return { tokens: kept.map(tag.cwd), all: false };
}

const listFilter = (
	field: "roles" | "toolNames",
	column: string | { coded: CodedColumn; expr: string },
	toTags: (v: string) => readonly string[],
	description: string,
	promptName: string,
	flag: FilterFlag,
	values?: readonly string[],
): SearchFilter<string[]> => ({
	field,
	shape: values ? { type: "strings", values } : { type: "strings" },
	description,
	promptName,
	flags: [flag],
	parse: (v) => (values ? enumList(field, v, values) : stringList(field, v)),
	tags: (list) => anyOf(list.flatMap(toTags)),
	sql: (list) =>
		typeof column === "string"
			? { sql: `${column} IN (${placeholders(list.length)})`, params: list }
			: { sql: inCodesSql(column.coded, column.expr, list), params: [] },
});

const sessionFilter: SearchFilter<string> = {
	field: "sessionId",
	shape: { type: "string" },
	description: `Only this session id, ${SESSION_PREFIX_HELP} (also the way to search the current one).`,
	promptName: "session",
	flags: [{ flag: "session", value: "ID", help: `only this session id, ${SESSION_PREFIX_HELP}` }],
	parse(v) {
		if (v === undefined || v === null) return undefined;
		if (typeof v !== "string" || v.trim() === "") throw invalidField("sessionId", "must be a string.");
		return v.trim();
	},
	tags(id, ctx) {
		const ids = all<{ id: number }>(ctx.db, "SELECT id FROM sources WHERE session_id = ?", [id]);
		return anyOf(ids.map((r) => tag.source(r.id)));
	},
	sql: (id) => ({ sql: "s.session_id = ?", params: [id] }),
};

const cwdFilter: SearchFilter<string> = {
	field: "cwd",
	shape: { type: "path" },
	description: "Only sessions whose working directory is this one or inside it.",
	promptName: "cwd",
	flags: [{ flag: "cwd", value: "DIR", help: "only sessions whose cwd is DIR or inside it" }],
	parse(v) {
		if (v === undefined || v === null || v === "") return undefined;
		if (typeof v !== "string") throw invalidField("cwd", "must be a path.");
		return v;
	},
	tags(dir, ctx) {
		const root = normalizeRoot(path.resolve(ctx.caller.cwd, dir));
		const set = cwdTags(ctx.db, (cwd) => isInsideRoot(cwd, root));
		return set === undefined || set.all ? undefined : anyOf(set.tokens);
	},
	sql: (dir, ctx) => pathInsideSql("s.cwd", path.resolve(ctx.caller.cwd, dir)),
};

const kindsFilter: SearchFilter<string[]> = {
	field: "kinds",
	shape: { type: "strings", values: KIND_VALUES },
	description: `Fragment kinds (${SEMANTIC_KINDS.join(", ")}) or entry types (compaction, label, …).`,
	promptName: "kinds",
	flags: [{ flag: "kind", value: "K", help: "semantic kind, e.g. user_text, tool_result (repeatable)" }],
	parse: (v) => enumList("kinds", v, KIND_VALUES),
	// A value is a kind, or an entry type: then the kinds its entries project into.
	tags: (values) => anyOf(values.flatMap((v) => kindTags((kind, o) => kind === v || has(o.entryTypes, v)))),
	sql: (kinds) => ({
		sql: `(${inCodesSql("kind", "f.kind", kinds)} OR ${inCodesSql("entryType", "e.entry_type", kinds)})`,
		params: [],
	}),
};

const errorFilter: SearchFilter<true> = {
	field: "errorOnly",
	shape: { type: "boolean" },
	description: "Only events recorded as errors (e.g. failed tool results).",
	promptName: "errors",
	flags: [{ flag: "error-only", help: "only tool results and bash runs that failed" }],
	parse(v) {
		if (v === undefined || v === null) return undefined;
		if (typeof v !== "boolean") throw invalidField("errorOnly", "must be true or false.");
		return v ? true : undefined;
	},
	tags: () => `"${tag.error()}"`,
	sql: () => ({ sql: "e.is_error = 1", params: [] }),
};

/** Paths one search may name at most. */
const MAX_PATHS = 32;

const pathsFilter: SearchFilter<string[]> = {
	field: "paths",
	shape: { type: "strings" },
	description:
		"Only events that read, edited or wrote one of these files, or ran a bash command naming it (and those calls' results): a workspace-relative path (src/billing/retry.ts), any trailing part of one (billing/retry.ts), a base name (retry.ts) or an absolute path.",
	promptName: "file paths",
	flags: [
		{
			flag: "path",
			value: "PATH",
			help: "events that touched this file: a relative path, a trailing part of one or a base name (repeatable)",
		},
	],
	parse(v) {
		const list = stringList("paths", v);
		if (list === undefined) return undefined;
		if (list.length > MAX_PATHS) throw invalidField("paths", `names more than ${MAX_PATHS} paths.`);
		for (const p of list) {
			if (foldPath(p) === "" || foldPath(p) === "/") throw invalidField("paths", `has "${p}", which names no file.`);
			if (p.length > MAX_KEY_LENGTH)
				throw invalidField("paths", `has a path longer than ${MAX_KEY_LENGTH} characters.`);
		}
		return list;
	},
	tags(list, ctx) {
		const anchors = { cwd: ctx.caller.cwd, root: findWorkspaceRoot(ctx.caller.cwd) };
		return anyOf(list.flatMap((p) => askedPathKeys(p, anchors)).map(tag.path));
	},
	// The path tags spell each key exactly (fragment-tags.ts): the match inside the index is the exact check.
	sql: () => ({ sql: "", params: [] }),
};

/** A normalized time range (ISO instants). */
export interface TimeRange {
	from?: string;
	to?: string;
}

/** The time range's flags; their keys are the range's keys, and a flag named otherwise (--since) is an alias. */
const TIME_FLAGS: FilterFlag[] = [
	{ flag: "from", value: "TIME", help: "from this time on (ISO, or an age such as 7d)", key: "from" },
	{ flag: "to", value: "TIME", help: "up to this time (ISO, or an age such as 2w)", key: "to" },
	{ flag: "since", value: "TIME", help: "the same as --from", key: "from" },
	{ flag: "until", value: "TIME", help: "the same as --to", key: "to" },
];
const TIME_KEYS = [...new Set(TIME_FLAGS.map((f) => f.key as string))];
const TIME_ALIASES = Object.fromEntries(
	TIME_FLAGS.filter((f) => f.key !== f.flag).map((f) => [f.flag, f.key as string]),
);

const timeFilter: SearchFilter<TimeRange> = {
	field: "time",
	shape: { type: "time-range", bound: `One end of the range, inclusive: ${TIME_VALUE_HELP}.` },
	description: 'Entry timestamp range (from "7d" = the last seven days).',
	promptName: "time range",
	// --since/--until say the same as --from/--to and read better with an age (--since 7d).
	flags: TIME_FLAGS,
	parse(v, now) {
		if (v === undefined || v === null) return undefined;
		if (typeof v !== "object" || Array.isArray(v)) {
			throw invalidField("time", 'must be an object with "from" and/or "to".');
		}
		checkKeys(v, TIME_KEYS, "time", { prefix: "time.", aliases: TIME_ALIASES });
		const range = v as { from?: unknown; to?: unknown };
		const from = isoTime("time.from", range.from, now);
		const to = isoTime("time.to", range.to, now);
		if (from !== undefined && to !== undefined && from > to) {
			throw invalidField("time.from", "is after the end of the range (to).");
		}
		if (from === undefined && to === undefined) return undefined;
		return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
	},
	tags(range) {
		const tokens = dayRangeTags(range.from, range.to);
		return tokens === undefined ? undefined : anyOf(tokens);
	},
	sql(range) {
		const bounds = [
			...(range.from !== undefined ? [timestampBoundSql("e.timestamp", ">=", range.from)] : []),
			...(range.to !== undefined ? [timestampBoundSql("e.timestamp", "<=", range.to)] : []),
		];
		return { sql: bounds.map((b) => b.sql).join(" AND "), params: bounds.flatMap((b) => b.params) };
	},
};

const stateFilter = <T extends string>(
	field: "branchStates" | "selectionStates",
	column: { coded: CodedColumn; expr: string },
	allowed: readonly T[],
	toTags: (v: string) => readonly string[],
	description: string,
	flag: FilterFlag,
): SearchFilter<T[]> => ({
	field,
	shape: { type: "strings", values: allowed },
	description,
	promptName: field === "branchStates" ? "branch state" : "selection state",
	flags: [flag],
	parse: (v) => enumList(field, v, allowed),
	tags: (list) => anyOf(list.flatMap(toTags)),
	sql: (list) => ({ sql: inCodesSql(column.coded, column.expr, list), params: [] }),
});

/** Every search filter, in the order the schema, the CLI help and the prompt list them. */
export const SEARCH_FILTERS: readonly SearchFilter<never>[] = [
	sessionFilter,
	cwdFilter,
	kindsFilter,
	listFilter(
		"roles",
		{ coded: "role", expr: "e.role" },
		(role) => kindTags((_, o) => has(o.roles, role)),
		`Message roles: ${MESSAGE_ROLES.join(", ")}.`,
		"roles",
		{
			flag: "role",
			value: "R",
			help: "message role, e.g. user, assistant, toolResult (repeatable)",
		},
		MESSAGE_ROLES,
	),
	listFilter(
		"toolNames",
		"coalesce(f.tool_name, e.tool_name)",
		(name) => [tag.tool(name)],
		"Only calls/results of these tools (e.g. bash, read, edit).",
		"tool names",
		{ flag: "tool", value: "NAME", help: "tool name (repeatable)" },
	),
	pathsFilter,
	errorFilter,
	timeFilter,
	stateFilter(
		"branchStates",
		{ coded: "branchState", expr: "e.branch_state" },
		BRANCH_STATES,
		(branch) => SELECTION_STATES.map((selection) => tag.treeState(branch, selection)),
		"selected = on the session's current path; alternate = an abandoned branch.",
		{ flag: "branch-state", value: "S", help: "selected, alternate or unknown (repeatable)" },
	),
	stateFilter(
		"selectionStates",
		{ coded: "selectionState", expr: "e.selection_state" },
		SELECTION_STATES,
		(selection) => BRANCH_STATES.map((branch) => tag.treeState(branch, selection)),
		"direct = still in context; summarized = replaced by a compaction summary; not-selected = not sent (an abandoned branch, or a failed attempt Pi retried).",
		{
			flag: "selection-state",
			value: "S",
			help: "direct, summarized, not-selected, not-applicable or unknown (repeatable)",
		},
	),
] as unknown as readonly SearchFilter<never>[];

/** A filter with its parsed value. */
export interface ActiveFilter {
	filter: SearchFilter<unknown>;
	value: unknown;
}

/** The keys of a search request: the query and every declared filter. */
const SEARCH_KEYS: readonly string[] = ["query", ...SEARCH_FILTERS.map((f) => f.field)];

/**
 * Parse every filter of a request (relative times against `now`); throws QueryError for an unknown key or the first
 * invalid filter.
 */
export function parseFilters(req: EventSearchRequest, now: Date = new Date()): ActiveFilter[] {
	checkKeys(req, SEARCH_KEYS, "event_search");
	const out: ActiveFilter[] = [];
	for (const filter of SEARCH_FILTERS as readonly SearchFilter<unknown>[]) {
		const value = filter.parse((req as unknown as Record<string, unknown>)[filter.field], now);
		if (value !== undefined) out.push({ filter, value });
	}
	return out;
}

/** The filter sentence of the prompt, derived from the declarations. */
export function filterPromptSentence(): string {
	const names = SEARCH_FILTERS.map((f) => f.promptName);
	return `Filters narrow by ${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}.`;
}
