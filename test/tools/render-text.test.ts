/** Model-facing text of the tools: bounded, one line per hit, no absolute paths in metadata, partial said out loud. */
import { describe, expect, it } from "vitest";
import type { Coverage, EventReadResult, EventSearchHit, EventSearchResult, EventTrace } from "../../src/contract.js";
import { shortReason, stripPaths, toPublicError } from "../../src/extension/public-errors.js";
import { QueryError } from "../../src/query/index.js";
import { coverageText } from "../../src/text/coverage-text.js";
import {
	capText,
	displayPath,
	MAX_TOOL_TEXT_CHARS,
	renderReadText,
	renderSearchText,
	renderTraceText,
} from "../../src/tools/render-text.js";

const CWD = "/home/dev/ws/app";
const complete: Coverage = {
	known: 3,
	indexed: 3,
	pending: 0,
	failed: 0,
	rebuilding: false,
	partial: false,
	note: "complete: 3 of 3 session files indexed",
};
const partial: Coverage = {
	known: 340,
	indexed: 120,
	pending: 220,
	failed: 0,
	rebuilding: false,
	partial: true,
	note: "partial: 120 of 340 session files indexed, 220 pending, catch-up running",
};

function hit(i: number, over: Partial<EventSearchHit> = {}): EventSearchHit {
	return {
		sessionId: `01a2371f-007b-772e-9e6c-36a81c1f2d6${i}`,
		cwd: `${CWD}/pkg`,
		entryId: `0000000${i}`,
		entryType: "message",
		matchingFragmentId: `0000000${i}#0`,
		semanticKind: "tool_result",
		timestamp: "2026-12-02T14:18:28.359Z",
		branchState: "selected",
		selectionState: "direct",
		snippet: `line one\nline two with marker ${i}`,
		matchingFragmentCount: 1,
		role: "toolResult",
		toolName: "bash",
		...over,
	};
}

/** No absolute path anywhere in text (a "/x/y" run after a separator). */
const ABSOLUTE = /(^|[\s=(:"'])\/[\w.-]+\/[\w.-]+/;

describe("renderSearchText", () => {
	it("one line per hit with identity, kind, states, time; cwd relative; coverage line", () => {
		const result: EventSearchResult = {
			hits: [hit(1), hit(2, { isError: true, sessionName: "Deploy\nwork", cwd: CWD })],
			truncated: false,
			limit: 10,
			coverage: complete,
		};
		const text = renderSearchText(result, "marker", { cwd: CWD });
		const lines = text.split("\n");
		expect(lines[0]).toBe('2 events match "marker":');
		expect(lines[1]).toBe(
			"1. sessionId=01a2371f-007b-772e-9e6c-36a81c1f2d61 entryId=00000001 fragment=00000001#0 kind=tool_result role=toolResult tool=bash state=selected/direct time=2026-12-02T14:18:28.359Z cwd=pkg",
		);
		// Snippet newlines are folded (shown as ⏎) so the hit stays on its own two lines; the snippet is framed.
		expect(lines[2]).toBe("   │ line one ⏎ line two with marker 1");
		expect(lines[3]).toContain(
			' error state=selected/direct time=2026-12-02T14:18:28.359Z session="Deploy ⏎ work" cwd=.',
		);
		expect(lines.at(-1)).toBe("coverage: complete: 3 of 3 session files indexed");
		expect(text).not.toMatch(ABSOLUTE);
	});

	it("says partial and truncated, and no hits clearly", () => {
		const none = renderSearchText({ hits: [], truncated: false, limit: 10, coverage: partial }, "nothing", {
			cwd: CWD,
		});
		expect(none).toBe(
			'No events match "nothing": no event contains any of its terms.\ncoverage: partial: 120 of 340 session files indexed, 220 pending, catch-up running (results may be incomplete; try again in a few seconds)',
		);
		const many = renderSearchText({ hits: [hit(1)], truncated: true, limit: 1, coverage: complete }, "m", { cwd: CWD });
		expect(many.split("\n")[0]).toContain("more matched; showing the best 1");
	});

	it("a look-up by file (an empty query) says what was looked up, newest first", () => {
		const none = renderSearchText({ hits: [], truncated: false, limit: 10, coverage: complete }, "", { cwd: CWD });
		expect(none.split("\n")[0]).toBe(
			"No events touched those paths (no read, edit, write or bash command named them).",
		);
		const some = renderSearchText({ hits: [hit(1)], truncated: true, limit: 1, coverage: complete }, " ", {
			cwd: CWD,
		});
		expect(some.split("\n")[0]).toBe(
			"1 event touched those paths, newest first (more matched; showing the newest 1 — narrow the query or filters):",
		);
	});

	it("a cwd outside the caller's is relative too, never absolute", () => {
		const text = renderSearchText(
			{ hits: [hit(1, { cwd: "/srv/other" })], truncated: false, limit: 10, coverage: complete },
			"m",
			{
				cwd: CWD,
			},
		);
		expect(text).toContain("cwd=../../../../srv/other");
		expect(text).not.toMatch(ABSOLUTE);
	});

	it("is bounded even with the largest budgets", () => {
		const huge = "x".repeat(2_000);
		const hits = Array.from({ length: 50 }, (_, i) => hit(i, { snippet: huge }));
		const text = renderSearchText({ hits, truncated: true, limit: 50, coverage: complete }, "x", { cwd: CWD });
		expect(Array.from(text).length).toBeLessThanOrEqual(MAX_TOOL_TEXT_CHARS);
	});
});

const readResult = (over: Partial<EventReadResult> = {}): EventReadResult => ({
	event: {
		sessionId: "S1",
		cwd: CWD,
		entryId: "9498ba66",
		parentId: "e32dfc82",
		entryType: "message",
		role: "toolResult",
		toolName: "bash",
		timestamp: "2026-12-02T14:18:28.359Z",
		branchState: "selected",
		selectionState: "direct",
		onLeafPath: true,
		attributes: { exitCode: 0 },
	},
	fragments: [
		{
			fragmentId: "9498ba66#0",
			semanticKind: "tool_result",
			toolName: "bash",
			text: {
				text: "head\n…\ntail",
				totalChars: 45_000,
				shownRanges: [
					{ start: 0, end: 999 },
					{ start: 44_002, end: 45_000 },
				],
				omittedRanges: [{ start: 999, end: 44_002 }],
				truncated: true,
			},
		},
	],
	fragmentCoverage: { total: 1, returned: 1, omitted: 0, truncated: false },
	neighbors: [
		{
			relation: "before",
			event: {
				sessionId: "S1",
				cwd: CWD,
				entryId: "e32dfc82",
				parentId: null,
				entryType: "message",
				role: "assistant",
				toolName: "bash",
				timestamp: "t",
				branchState: "selected",
				selectionState: "direct",
				onLeafPath: true,
			},
			preview: {
				text: "bash\ncommand: cat big.txt",
				totalChars: 25,
				shownRanges: [],
				omittedRanges: [],
				truncated: false,
			},
		},
	],
	order: "branch",
	forks: [
		{
			kind: "session-fork",
			at: { sessionId: "S1", entryId: "804bb430" },
			candidates: [
				{ sessionId: "S1", entryId: "a45ea8f8" },
				{ sessionId: "CHILD", entryId: "86ce7aec" },
			],
			chosen: { sessionId: "CHILD", entryId: "86ce7aec" },
		},
	],
	coverage: complete,
	...over,
});

describe("renderReadText", () => {
	it("shows metadata, preview receipts with exact ranges, how to page, neighbours and forks", () => {
		const text = renderReadText(readResult(), { cwd: CWD });
		expect(text.split("\n")[0]).toBe(
			"event sessionId=S1 entryId=9498ba66 type=message role=toolResult tool=bash parent=e32dfc82 state=selected/direct time=2026-12-02T14:18:28.359Z cwd=. exitCode=0",
		);
		expect(text).toContain(
			"--- 9498ba66#0 tool_result bash (45000 chars, shown 0-999, 44002-45000, omitted 999-44002)",
		);
		expect(text).toContain("matchingFragmentId=9498ba66#0 and offset");
		expect(text).toContain("  before entryId=e32dfc82 type=message (assistant bash): bash ⏎ command: cat big.txt");
		expect(text).toContain(
			"fork (session-fork) at 804bb430: candidates a45ea8f8, CHILD/86ce7aec chosen=CHILD/86ce7aec",
		);
		expect(text).not.toMatch(ABSOLUTE);
	});

	it("a window names its range and the next offset", () => {
		const text = renderReadText(
			readResult({
				fragments: [],
				window: {
					fragmentId: "9498ba66#0",
					semanticKind: "tool_result",
					offset: 22_400,
					text: "MIDDLE",
					totalChars: 45_000,
					range: { start: 22_400, end: 26_400 },
					hasBefore: true,
					hasAfter: true,
				},
			}),
			{ cwd: CWD },
		);
		expect(text).toContain(
			"--- window 9498ba66#0 tool_result chars 22400-26400 of 45000 (more before; more after: offset=26400)\n│ MIDDLE",
		);
	});

	it("is cut with a receipt when budgets would exceed the hard cap", () => {
		const big = "y".repeat(20_000);
		const fragments = Array.from({ length: 5 }, (_, i) => ({
			fragmentId: `9498ba66#${i}`,
			semanticKind: "tool_result" as const,
			text: { text: big, totalChars: 20_000, shownRanges: [], omittedRanges: [], truncated: false },
		}));
		const text = renderReadText(readResult({ fragments }), { cwd: CWD });
		expect(Array.from(text).length).toBeLessThanOrEqual(MAX_TOOL_TEXT_CHARS);
		expect(text).toMatch(/\[output cut at 48000 of \d+ characters; read one fragment with matchingFragmentId/);
	});
});

describe("renderTraceText", () => {
	it("lists parent, children, siblings and related edges; files relative; other sessions qualified", () => {
		const node = (entryId: string, sessionId = "S1") => ({
			sessionId,
			entryId,
			entryType: "message",
			role: "assistant",
			timestamp: "t",
			branchState: "selected" as const,
			selectionState: "direct" as const,
			towardLeaf: true,
		});
		const trace: EventTrace = {
			target: node("866ab77e"),
			parent: { kind: "parent", node: node("7b791daa"), inferred: false },
			children: [{ kind: "child", node: node("8865de33"), inferred: false }],
			branchSiblings: [{ kind: "branch-sibling", node: node("11111111"), inferred: false, derived: true }],
			related: [
				{ kind: "file", file: `${CWD}/src/a.ts`, inferred: true },
				{ kind: "file", file: "b.txt", inferred: true },
				{ kind: "session-fork-child", node: node("866ab77e", "CHILD"), inferred: true },
			],
			truncated: true,
			coverage: partial,
		};
		const text = renderTraceText(trace, { cwd: CWD });
		expect(text).toContain(
			"parent:\n  parent: entryId=7b791daa type=message (assistant) state=selected/direct toward-leaf time=t",
		);
		expect(text).toContain("branch siblings:\n  branch-sibling [derived]: entryId=11111111");
		expect(text).toContain("  file [inferred]: file src/a.ts");
		expect(text).toContain("  session-fork-child [inferred]: entryId=CHILD/866ab77e");
		expect(text).toContain("(edges cut at the trace budget)");
		expect(text).toMatch(/coverage: partial: .* \(results may be incomplete; try again in a few seconds\)$/);
		expect(text).not.toMatch(ABSOLUTE);
	});
});

describe("helpers", () => {
	it("displayPath, capText and coverageText", () => {
		expect(displayPath(CWD, CWD)).toBe(".");
		expect(displayPath(`${CWD}/x/y`, CWD)).toBe("x/y");
		expect(displayPath("rel/p", CWD)).toBe("rel/p");
		expect(capText("abc", 10)).toBe("abc");
		// Code points, not UTF-16 units: an astral character counts once and is never split.
		const emoji = "😀".repeat(300);
		const cut = capText(emoji, 200);
		expect(Array.from(cut).length).toBeLessThanOrEqual(200);
		expect(cut).not.toContain("\uFFFD");
		expect(coverageText({ ...complete, note: undefined })).toBe("coverage: complete: 3 of 3 session files indexed");
	});

	it("public errors: QueryError as is, anything else generic with paths stripped", () => {
		expect(toPublicError(new QueryError("not_found", "No such event.")).message).toBe("No such event.");
		const err = new Error(
			"SQLITE_CANTOPEN: unable to open /home/me/.pi/agent/event-index/index-f1.sqlite\n    at x (/a/b.js:1:2)",
		);
		const msg = toPublicError(err).message;
		expect(msg).toBe("event index unavailable: SQLITE_CANTOPEN: unable to open …/index-f1.sqlite");
		expect(stripPaths("C:\\Users\\me\\x.db and /tmp/a/b")).toBe("…/x.db and …/b");
		expect(shortReason("z".repeat(500)).length).toBeLessThanOrEqual(160);
		expect(shortReason(undefined)).toBe("unknown error");
	});
});
