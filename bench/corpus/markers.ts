/**
 * Marker terms planted by the generator at known rates, and the fixed query set of the search-latency
 * figure. The generator counts every line it writes that contains each marker (fork copies included),
 * so a benchmark can check hit counts as well as time them.
 */
import type { EventSearchRequest } from "../../src/contract.js";

/** Marker terms; each is planted only where its comment says. */
export const MARKERS = {
	/** A rare identifier in a few user messages (about one session in 700). */
	rare: "zephyrquokka42",
	/** A moderately common identifier in assistant text (about 2 % of assistant messages). */
	common: "blorptastic",
	/** A three-word phrase inside bash outputs (about 1 % of bash results). */
	phrase: "amber lighthouse protocol",
	/** Only inside failing tool results (isError: true). */
	error: "enovellafault",
	/** A CJK word inside CJK user messages (about 1 % of user messages). */
	cjk: "索引测试",
	/** Only inside assistant thinking blocks: a correct index never returns it. */
	thinkingOnly: "cogitosecretum",
	/** Only in session names (session_info). */
	sessionName: "nebulaharbor",
} as const;

/** Which marker a count refers to. */
export type MarkerName = keyof typeof MARKERS;

/** Lines written that contain each marker. */
export type MarkerCounts = Record<MarkerName, number>;

/** Zeroed marker counts. */
export function emptyMarkerCounts(): MarkerCounts {
	return { rare: 0, common: 0, phrase: 0, error: 0, cjk: 0, thinkingOnly: 0, sessionName: 0 };
}

/** Where the generated workspaces live: a caller at this cwd can be authorized for all of them. */
export const CORPUS_ROOT_CWD = "/home/bench";

/** One query of the search-latency figure, with its ripgrep equivalent. */
export interface BenchQuery {
	name: string;
	/** What the query exercises (term, phrase, filter, CJK, zero-hit). */
	shape: "term" | "frequent-term" | "two-terms" | "phrase" | "filter" | "relaxed" | "cjk" | "zero-hit";
	request: EventSearchRequest;
	/** Fixed string ripgrep searches for (case-insensitive); it cannot express filters or AND across lines. */
	rgPattern: string;
	/** Marker whose line count bounds the expected hits, if any. */
	marker?: MarkerName;
}

/** The fixed query set (terms, phrases, filters, CJK). */
export const BENCH_QUERIES: readonly BenchQuery[] = [
	{ name: "rare term", shape: "term", request: { query: MARKERS.rare }, rgPattern: MARKERS.rare, marker: "rare" },
	{
		name: "common term",
		shape: "term",
		request: { query: MARKERS.common },
		rgPattern: MARKERS.common,
		marker: "common",
	},
	{ name: "frequent real word", shape: "frequent-term", request: { query: "function" }, rgPattern: "function" },
	{
		name: "two terms (AND)",
		shape: "two-terms",
		request: { query: `${MARKERS.common} helper` },
		rgPattern: MARKERS.common,
	},
	{
		name: "phrase",
		shape: "phrase",
		request: { query: `"${MARKERS.phrase}"` },
		rgPattern: MARKERS.phrase,
		marker: "phrase",
	},
	{
		name: "phrase + toolNames bash",
		shape: "filter",
		request: { query: `"${MARKERS.phrase}"`, toolNames: ["bash"] },
		rgPattern: MARKERS.phrase,
		marker: "phrase",
	},
	{
		name: "errorOnly + kinds tool_result",
		shape: "filter",
		request: { query: MARKERS.error, errorOnly: true, kinds: ["tool_result"] },
		rgPattern: MARKERS.error,
		marker: "error",
	},
	{
		name: "term + role user + time range",
		shape: "filter",
		request: { query: MARKERS.rare, roles: ["user"], time: { from: "2026-01-01T00:00:00.000Z" } },
		rgPattern: MARKERS.rare,
		marker: "rare",
	},
	{
		name: "relaxed natural question",
		shape: "relaxed",
		request: { query: `when did we see the ${MARKERS.rare} with the failing zebracorn` },
		rgPattern: MARKERS.rare,
	},
	// A common word under each selective filter: filters narrow inside the index, before the ranked-match cap.
	...(
		[
			["sessionId (none)", { sessionId: "00000000-0000-7000-8000-000000000000" }],
			["cwd", { cwd: `${CORPUS_ROOT_CWD}/work` }],
			["kinds user_text", { kinds: ["user_text"] }],
			["roles assistant", { roles: ["assistant"] }],
			["toolNames read", { toolNames: ["read"] }],
			["errorOnly", { errorOnly: true }],
			["time.to 2025-12-31", { time: { to: "2025-12-31" } }],
			["branch alternate", { branchStates: ["alternate"] }],
			["selection summarized", { selectionStates: ["summarized"] }],
		] as const
	).map(
		([name, filter]): BenchQuery => ({
			name: `common term + ${name}`,
			shape: "filter",
			request: { query: MARKERS.common, ...filter } as EventSearchRequest,
			rgPattern: MARKERS.common,
		}),
	),
	// Look-up by file: the generator's calls name files of the text pool (node_modules of this checkout).
	{
		name: "paths: one file, no terms",
		shape: "filter",
		request: { query: "", paths: ["node_modules/@anthropic-ai/sdk/client.d.ts"] },
		rgPattern: "node_modules/@anthropic-ai/sdk/client.d.ts",
	},
	{
		name: "paths: a common base name, no terms",
		shape: "filter",
		request: { query: "", paths: ["README.md"] },
		rgPattern: "README.md",
	},
	{
		name: "common term + paths base name",
		shape: "filter",
		request: { query: MARKERS.common, paths: ["README.md"] },
		rgPattern: MARKERS.common,
	},
	{ name: "CJK word", shape: "cjk", request: { query: MARKERS.cjk }, rgPattern: MARKERS.cjk, marker: "cjk" },
	{
		name: "thinking-only (0 hits)",
		shape: "zero-hit",
		request: { query: MARKERS.thinkingOnly },
		rgPattern: MARKERS.thinkingOnly,
		marker: "thinkingOnly",
	},
];
