/**
 * Stage 1 of a search: validate and normalize the request into a plan — the query's terms, the tag expressions
 * every candidate must match inside the FTS index (filters, authorization, hidden retrieval calls, the caller's own
 * session), and the exact SQL checks re-applied to the rows the index returns.
 */
import path from "node:path";
import { type EventSearchRequest, RETRIEVAL_TOOL_NAMES } from "../../contract.js";
import { codeSql } from "../../store/column-codes.js";
import { tag } from "../../text/fragment-tags.js";
import type { QuestionAsks } from "../../text/natural-query.js";
import type { AskedKind } from "../../text/request-words.js";
import { authorizationSql, authorizedRoots, isVisibleCwd, type SqlClause } from "../authorize.js";
import type { CallerContext } from "../caller.js";
import { get, type QueryDb } from "../db.js";
import { invalid } from "../errors.js";
import { anyOf, cwdTags, type FilterContext, parseFilters, type TagForm } from "./filters.js";
import { type SearchTerm, searchTerms } from "./terms.js";
import { withoutWorkspaceName } from "./workspace-name.js";

/** A validated search, ready for the candidate stage. */
export interface SearchPlan extends PlanRules {
	terms: SearchTerm[];
	/** What the question asks for (natural-query.ts): the relaxed tier favours events that state one (answer-type.ts). */
	asks?: QuestionAsks;
	/** The kind of event the question asks for (request-words.ts): both tiers favour it (intent.ts). */
	wants?: AskedKind;
	/** The same plan without its filters (authorization, retrieval and caller rules only). */
	base: PlanRules;
	/** Each active filter's tag form and check, in declaration order (an empty answer is explained with them). */
	filterParts: FilterPart[];
}

/** Tag expressions and checks a plan requires. */
export interface PlanRules {
	/** FTS5 expressions over the tags column, all required. */
	tagMatches: string[];
	/** FTS5 expressions over the tags column a candidate must not match. */
	tagExclusions: string[];
	/** Exact conditions over f (fragments), e (events), s (sources), re-checked on every returned row. */
	checks: SqlClause[];
	/** A filter or the authorization names nothing in the index (e.g. an unknown session): nothing can match. */
	empty: boolean;
}

/** One active filter's share of a plan. */
export interface FilterPart {
	field: string;
	/** Its tag form: null when it names nothing in the index, undefined when it cannot narrow by tags. */
	tag: TagForm;
	check: SqlClause;
}

/** The rules of `plan`'s base plus the filters `parts`, and whether one of them names nothing (empty). */
export function rulesWith(plan: SearchPlan, parts: readonly FilterPart[]): PlanRules {
	const tagMatches = [...plan.base.tagMatches];
	const checks = [...plan.base.checks];
	let empty = plan.base.empty;
	for (const part of parts) {
		if (part.tag === null) empty = true;
		else if (part.tag !== undefined) tagMatches.push(part.tag);
		if (part.check.sql !== "") checks.push(part.check);
	}
	return { tagMatches, tagExclusions: plan.base.tagExclusions, checks, empty };
}

/** Where the caller's own session is and where its invocation cutoff lies. */
function callerSource(db: QueryDb, caller: CallerContext) {
	if (!caller.sessionFile) return undefined;
	const src = get<{ id: number; sessionId: string | null; entryCount: number }>(
		db,
		"SELECT id, session_id AS sessionId, entry_count AS entryCount FROM sources WHERE path = ?",
		[path.resolve(caller.sessionFile)],
	);
	if (src === undefined) return undefined;
	let cutoff = src.entryCount;
	if (caller.cutoffEntryId) {
		const row = get<{ seq: number | null }>(
			db,
			"SELECT min(seq) AS seq FROM events WHERE source_id = ? AND entry_id = ?",
			[src.id, caller.cutoffEntryId],
		);
		if (row?.seq !== null && row?.seq !== undefined) cutoff = row.seq;
	}
	return { id: src.id, sessionId: caller.sessionId ?? src.sessionId, cutoff };
}

function placeholders(n: number): string {
	return Array.from({ length: n }, () => "?").join(", ");
}

/** Validate `req` and build its plan; throws QueryError (only) for an invalid request. */
export function planSearch(db: QueryDb, req: EventSearchRequest, caller: CallerContext): SearchPlan {
	if (req === null || typeof req !== "object") throw invalid("The search request must be an object.");
	if (typeof req.query !== "string") throw invalid('"query" must be a string of terms and "quoted phrases".');
	// An empty query is a look-up by file when `paths` is given (docs/query-language.md), an error otherwise.
	const blank = req.query.trim() === "";
	const analyzed = blank ? undefined : searchTerms(req.query);
	const filters = parseFilters(req);
	const {
		terms: typed,
		asks,
		wants,
	} = analyzed ?? (filters.some((f) => f.filter.field === "paths") ? { terms: [] } : searchTerms(""));
	const terms = withoutWorkspaceName(typed, caller);
	const auth = authorizedRoots(caller);
	const ctx: FilterContext = { db, caller, auth };
	const base: PlanRules = { tagMatches: [], tagExclusions: [], checks: [], empty: false };

	// Authorization: the visible cwds as tags (skipped when every indexed cwd is visible), always re-checked.
	if (!auth.all) {
		const visible = cwdTags(db, (cwd) => isVisibleCwd(cwd, auth));
		if (visible !== undefined && !visible.all) {
			const form = anyOf(visible.tokens);
			if (form === null) base.empty = true;
			else if (form !== undefined) base.tagMatches.push(form);
		}
	}
	base.checks.push(authorizationSql("s", auth));

	const filterParts: FilterPart[] = filters.map(({ filter, value }) => ({
		field: filter.field,
		tag: filter.tags(value as never, ctx),
		check: filter.sql(value as never, ctx),
	}));

	// Retrieval tool calls/results stay indexed as audit evidence but only match when toolNames names them.
	const toolNames = (filters.find((f) => f.filter.field === "toolNames")?.value as string[] | undefined) ?? [];
	const hidden = RETRIEVAL_TOOL_NAMES.filter((t) => !toolNames.includes(t));
	if (hidden.length === RETRIEVAL_TOOL_NAMES.length) base.tagExclusions.push(`"${tag.retrieval()}"`);
	if (hidden.length > 0) {
		base.checks.push({
			sql: `(f.tool_name IS NULL OR f.tool_name NOT IN (${placeholders(hidden.length)})) AND NOT (e.role = ${codeSql("role", "toolResult")} AND coalesce(e.tool_name, '') IN (${placeholders(hidden.length)}))`,
			params: [...hidden, ...hidden],
		});
	}

	// Caller rules: its own session only when targeted, and then only before the invocation cutoff.
	const own = callerSource(db, caller);
	if (own) {
		const sessionId = filters.find((f) => f.filter.field === "sessionId")?.value;
		if (own.sessionId !== null && sessionId === own.sessionId) {
			base.checks.push({ sql: "(f.source_id <> ? OR f.event_seq < ?)", params: [own.id, own.cutoff] });
		} else {
			base.tagExclusions.push(`"${tag.source(own.id)}"`);
			base.checks.push({ sql: "f.source_id <> ?", params: [own.id] });
		}
	}
	const plan: SearchPlan = { terms, tagMatches: [], tagExclusions: [], checks: [], empty: false, base, filterParts };
	if (asks) plan.asks = asks;
	if (wants) plan.wants = wants;
	return Object.assign(plan, rulesWith(plan, filterParts));
}
