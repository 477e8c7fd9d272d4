/**
 * The query services over a corpus written by real Pi 0.73.1 (see corpus.ts), indexed by the real ingest path
 * into a real SQLite store. Assertions are entry by entry against ids Pi wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventReadRequest, type EventSearchResult, NOT_FOUND_MESSAGE } from "../../src/contract.js";
import { QueryError } from "../../src/query/errors.js";
import { traceSession } from "../../src/query/lineage.js";
import { readEvent } from "../../src/query/read.js";
import { searchEvents } from "../../src/query/search.js";
import { traceEvent } from "../../src/query/trace.js";
import { MIDDLE_MARKER, readEntries } from "./corpus.js";
import { type Harness, openHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
	h = await openHarness();
});
afterAll(() => {
	// No result ever names a session file, the agent dir, the other workspace, or carries a stack trace.
	const all = h.outputs.join("\n");
	expect(h.outputs.length).toBeGreaterThan(30);
	expect(all).not.toContain(h.corpus.agentDir);
	expect(all).not.toContain(".jsonl");
	expect(all).not.toContain(h.corpus.otherCwd);
	expect(all).not.toContain(h.corpus.other.id);
	expect(all).not.toMatch(/\n\s+at /);
	h.db.close();
});

const search = (req: Parameters<typeof searchEvents>[1], caller = h.caller()) =>
	h.record(searchEvents(h.db, req, caller));
const read = (req: Parameters<typeof readEvent>[1], caller = h.caller()) => h.record(readEvent(h.db, req, caller));
const trace = (req: Parameters<typeof traceEvent>[1], caller = h.caller()) => h.record(traceEvent(h.db, req, caller));
const hitKeys = (r: ReturnType<typeof searchEvents>) => r.hits.map((x) => `${x.sessionId}/${x.entryId}`);

/** The failure a call throws, recorded like a result. */
function failure(fn: () => unknown): QueryError {
	try {
		fn();
	} catch (err) {
		expect(err).toBeInstanceOf(QueryError);
		h.record({ error: (err as QueryError).message, code: (err as QueryError).code });
		return err as QueryError;
	}
	throw new Error("expected a QueryError");
}

/** Keys of the hits that contain every term (the relaxed tier's hits say what they miss). */
function fullKeys(r: EventSearchResult): string[] {
	return hitKeys({ ...r, hits: r.hits.filter((x) => x.missingTerms === undefined) });
}

describe("searchEvents", () => {
	it("finds a user phrase once, in the original session, with its fork copies folded into the hit", () => {
		const { main, forkChild, grandChild, pathCopy } = h.corpus;
		const r = search({ query: '"deploy the staging cluster"' });
		const t1 = main.entries.t1User;
		expect(hitKeys(r)).toEqual([`${main.id}/${t1}`]);
		expect(r.hits[0].forkCopies?.map((c) => `${c.sessionId}/${c.entryId}`).sort()).toEqual(
			[forkChild.id, grandChild.id, pathCopy.id].map((id) => `${id}/${t1}`).sort(),
		);
		const hit = r.hits.find((x) => x.sessionId === main.id);
		expect(hit).toMatchObject({
			entryType: "message",
			matchingFragmentId: `${t1}#0`,
			semanticKind: "user_text",
			role: "user",
			branchState: "selected",
			selectionState: "summarized",
			sessionName: "Deploy work",
			cwd: h.corpus.appCwd,
			matchingFragmentCount: 1,
		});
		expect(hit?.snippet).toContain("deploy the staging cluster");
		// Targeting a copy's session finds that copy; the /fork path copy has no compaction, so it is direct there.
		const copy = search({ query: '"deploy the staging cluster"', sessionId: pathCopy.id });
		expect(hitKeys(copy)).toEqual([`${pathCopy.id}/${t1}`]);
		expect(copy.hits[0].selectionState).toBe("direct");
		expect(copy.hits[0].forkCopies).toBeUndefined();
		expect(r.truncated).toBe(false);
		expect(r.limit).toBe(10);
		expect(r.coverage).toMatchObject({ known: 5, indexed: 5, pending: 0, failed: 0, partial: false });
	});

	it("finds an identifier inside a tool result", () => {
		const { main } = h.corpus;
		const r = search({ query: "configureWidgetFactory", sessionId: main.id });
		expect(hitKeys(r)).toEqual([`${main.id}/${main.entries.notesResult}`]);
		expect(r.hits[0]).toMatchObject({ semanticKind: "tool_result", toolName: "bash", role: "toolResult" });
		expect(r.hits[0].snippet).toContain("configureWidgetFactory");
	});

	it("errorOnly keeps only the failed bash result", () => {
		const { main } = h.corpus;
		const both = search({ query: "compilekaput", sessionId: main.id });
		expect(both.hits).toHaveLength(2); // the tool call's command and its failed result
		const r = search({ query: "compilekaput", sessionId: main.id, errorOnly: true });
		expect(hitKeys(r)).toEqual([`${main.id}/${main.entries.failResult}`]);
		expect(r.hits[0]).toMatchObject({ isError: true, toolName: "bash", semanticKind: "tool_result" });
	});

	it("finds a CJK word inside a longer run", () => {
		const { main } = h.corpus;
		const r = search({ query: "数据库", sessionId: main.id });
		expect(hitKeys(r)).toEqual([`${main.id}/${main.entries.cjkUser}`]);
		expect(r.hits[0].snippet).toContain("数据库");
	});

	it("never matches assistant reasoning", () => {
		expect(search({ query: "zebraquokka" }).hits).toEqual([]);
	});

	it("marks alternate-branch hits and filters by branch state", () => {
		const { main } = h.corpus;
		const r = search({ query: "altbranchterm", sessionId: main.id });
		expect(hitKeys(r)).toEqual([`${main.id}/${main.entries.altUser}`]);
		expect(r.hits[0].branchState).toBe("alternate");
		expect(search({ query: "altbranchterm", branchStates: ["selected"] }).hits).toEqual([]);
		expect(search({ query: "altbranchterm", sessionId: main.id, branchStates: ["alternate"] }).hits).toHaveLength(1);
	});

	it("marks entries before a compaction's kept boundary as summarized", () => {
		const { main } = h.corpus;
		const r = search({ query: "summarizedterm", sessionId: main.id, selectionStates: ["summarized"] });
		expect(hitKeys(r)).toEqual([`${main.id}/${main.entries.t1User}`]);
		expect(search({ query: "summarizedterm", sessionId: main.id, selectionStates: ["direct"] }).hits).toEqual([]);
		// the kept boundary itself is direct
		const kept = search({ query: "数据库", sessionId: main.id, selectionStates: ["direct"] });
		expect(hitKeys(kept)).toEqual([`${main.id}/${main.entries.cjkUser}`]);
	});

	it("suppresses retrieval tool calls and results unless toolNames names them", () => {
		const { main } = h.corpus;
		expect(search({ query: "retrievalprobe" }).hits).toEqual([]);
		expect(search({ query: '"event_search not found"' }).hits).toEqual([]);
		const opted = search({ query: "retrievalprobe", sessionId: main.id, toolNames: ["event_search"] });
		expect(hitKeys(opted)).toEqual([`${main.id}/${main.entries.retrievalCall}`]);
		expect(opted.hits[0]).toMatchObject({ semanticKind: "tool_call", toolName: "event_search" });
		const result = search({ query: '"event_search not found"', sessionId: main.id, toolNames: ["event_search"] });
		expect(hitKeys(result)).toEqual([`${main.id}/${main.entries.retrievalResult}`]);
	});

	it("applies the caller rules: own session only when targeted, and then only before the cutoff", () => {
		const { main, forkChild, grandChild } = h.corpus;
		const self = h.caller({ sessionFile: main.file, sessionId: main.id, cutoffEntryId: main.entries.finalUser });
		// Untargeted: the caller's own file is left out; its fork copies are other sessions (the grandchild's copy
		// folds into the child's).
		const untargeted = search({ query: '"final question"' }, self);
		expect(hitKeys(untargeted)).toEqual([`${forkChild.id}/${main.entries.finalUser}`]);
		expect(untargeted.hits[0].forkCopies).toEqual([{ sessionId: grandChild.id, entryId: main.entries.finalUser }]);
		// Targeted: entries before the invocation cutoff only; the calling entry never matches itself.
		expect(search({ query: '"final question"', sessionId: main.id }, self).hits).toEqual([]);
		expect(fullKeys(search({ query: "deploy staging", sessionId: main.id }, self))).toEqual([
			`${main.id}/${main.entries.t1User}`,
		]);
		const later = h.caller({ sessionFile: main.file, sessionId: main.id, cutoffEntryId: main.entries.finalAnswer });
		expect(hitKeys(search({ query: '"final question"', sessionId: main.id }, later))).toEqual([
			`${main.id}/${main.entries.finalUser}`,
		]);
		expect(search({ query: '"final answer"', sessionId: main.id }, later).hits).toEqual([]);
	});

	it("coalesces fragments per event and names the others (bounded)", () => {
		const { main } = h.corpus;
		const r = search({ query: "read", sessionId: main.id, kinds: ["tool_call"] });
		expect(hitKeys(r)).toEqual([`${main.id}/${main.entries.parallelCall}`]);
		expect(r.hits[0].matchingFragmentCount).toBe(2);
		expect(r.hits[0].otherFragmentIds).toHaveLength(1);
		const none = search(
			{ query: "read", sessionId: main.id, kinds: ["tool_call"] },
			h.caller({ budgets: { otherFragmentIds: 0 } }),
		);
		expect(none.hits[0].otherFragmentIds).toBeUndefined();
	});

	it("owns the result limit and reports truncation", () => {
		const r = search({ query: "deploy" }, h.caller({ budgets: { searchLimit: 1 } }));
		expect(r.hits).toHaveLength(1);
		expect(r.limit).toBe(1);
		expect(r.truncated).toBe(true);
		// A caller-supplied limit is not part of the request: an error, never silently ignored (request-keys.ts).
		expect(() => search({ query: "deploy", limit: 1000 } as never, h.caller())).toThrow(/"limit" is not a key/);
	});

	it("filters by time, role and cwd, combinably", () => {
		const { main } = h.corpus;
		expect(search({ query: "deploy", roles: ["assistant"] }).hits).toEqual([]);
		expect(search({ query: "deploy", time: { to: "2000-01-01" } }).hits).toEqual([]);
		expect(
			search({ query: "staging", time: { from: "2000-01-01" }, cwd: h.corpus.appCwd, sessionId: main.id }).hits,
		).toHaveLength(1);
		expect(search({ query: "deploy", cwd: `${h.corpus.appCwd}x` }).hits).toEqual([]);
		expect(failure(() => search({ query: "deploy", time: { from: "yesterday-ish" } })).code).toBe("invalid_request");
		expect(failure(() => search({ query: "deploy", branchStates: ["sideways" as never] })).message).toContain(
			"branchStates",
		);
	});

	it("treats every operator and stray punctuation as plain text, never an error", () => {
		const queries = [
			"deploy AND staging",
			"deploy OR",
			"NOT deploy",
			"NEAR(deploy staging)",
			"body:deploy",
			"deploy*",
			"^deploy",
			"(deploy",
			'"unbalanced',
			'deploy"',
			"'; DROP TABLE events; --",
			"deploy -staging +cluster",
			'""',
			"a\u0000b",
			"{deploy}",
			"col:*",
			"数据库 OR AND",
			"😀 deploy",
		];
		for (const query of queries) {
			try {
				const r = search({ query });
				expect(Array.isArray(r.hits)).toBe(true);
			} catch (err) {
				expect(err).toBeInstanceOf(QueryError);
				expect((err as QueryError).code).toBe("invalid_request");
			}
		}
		// NOT is a plain (function) word, not an operator: it does not exclude the deploy events.
		expect(fullKeys(search({ query: "NOT deploy", sessionId: h.corpus.main.id }))).toContain(
			`${h.corpus.main.id}/${h.corpus.main.entries.t1User}`,
		);
		// A literal word no entry contains makes the result relaxed, never an operator and never empty.
		const literal = search({ query: "deploy NEAR staging", sessionId: h.corpus.main.id });
		expect(literal.relaxed).toBe(true);
		expect(literal.tiers?.allTerms).toBe(0);
		for (const hit of literal.hits) expect(hit.missingTerms).toContain("near");
		expect(fullKeys(search({ query: "deploy staging", sessionId: h.corpus.main.id }))).toEqual([
			`${h.corpus.main.id}/${h.corpus.main.entries.t1User}`,
		]);
		for (const query of ["", "   ", "!!! ... ???", "()*^"]) {
			expect(failure(() => search({ query })).code).toBe("invalid_request");
		}
	});
});

describe("authorization", () => {
	it("never returns another workspace's session, whatever the filters", () => {
		const { other } = h.corpus;
		const combos = [
			{},
			{ sessionId: other.id },
			{ cwd: h.corpus.otherCwd },
			{ cwd: "/" },
			{ roles: ["user"] },
			{ kinds: ["user_text"] },
			{ branchStates: ["selected" as const] },
			{ selectionStates: ["direct" as const, "summarized" as const] },
			{ time: { from: "2000-01-01" } },
			{ toolNames: ["bash"] },
			{ errorOnly: false },
		];
		for (const combo of combos) {
			for (const query of ["deploy", "configureWidgetFactory", "summarizedterm"]) {
				const r = search({ query, ...combo });
				expect(r.hits.filter((x) => x.sessionId === other.id)).toEqual([]);
			}
		}
		// A prefix of the other workspace's path is not an authorized root for it (segment-aware).
		const prefix = h.caller({ authorization: { extraRoots: [h.corpus.otherCwd.slice(0, -1)], allRoots: false } });
		expect(search({ query: "deploy", sessionId: other.id }, prefix).hits).toEqual([]);
	});

	it("missing and unauthorized targets fail identically for read, trace and lineage", () => {
		const { other } = h.corpus;
		const failures = [
			failure(() => read({ sessionId: other.id, entryId: other.userId })),
			failure(() => read({ sessionId: "no-such-session", entryId: "deadbeef" })),
			failure(() => read({ sessionId: h.corpus.main.id, entryId: "deadbeef" })),
			failure(() => trace({ sessionId: other.id, entryId: other.userId })),
			failure(() => trace({ sessionId: "no-such-session", entryId: "deadbeef" })),
			failure(() => h.record(traceSession(h.db, { sessionId: other.id }, h.caller()))),
			failure(() => h.record(traceSession(h.db, { sessionId: "no-such-session" }, h.caller()))),
		];
		for (const f of failures) {
			expect(f.code).toBe("not_found");
			expect(f.message).toBe(NOT_FOUND_MESSAGE);
		}
	});

	it("extra roots and allRoots open other workspaces explicitly", () => {
		const { other } = h.corpus;
		const extra = h.caller({ authorization: { extraRoots: [h.corpus.otherCwd], allRoots: false } });
		// Not recorded: these outputs legitimately name the explicitly authorized workspace.
		const r0 = searchEvents(h.db, { query: "deploy", sessionId: other.id }, extra);
		expect(hitKeys(r0)).toEqual([`${other.id}/${other.userId}`]);
		const everything = h.caller({ authorization: { extraRoots: [], allRoots: true } });
		const r = readEvent(h.db, { sessionId: other.id, entryId: other.userId }, everything);
		expect(r.event.entryId).toBe(other.userId);
	});
});

describe("readEvent", () => {
	it("previews a 45,000-character tool result head and tail, and windows its middle", () => {
		const { main, big } = h.corpus;
		expect(Array.from(big.text).length).toBe(45_000);
		const found = search({ query: MIDDLE_MARKER, sessionId: main.id });
		expect(hitKeys(found)).toEqual([`${main.id}/${main.entries.bigResult}`]);
		const fragmentId = found.hits[0].matchingFragmentId;

		const r = read({ sessionId: main.id, entryId: main.entries.bigResult });
		expect(r.fragmentCoverage).toEqual({ total: 1, returned: 1, omitted: 0, truncated: false });
		const preview = r.fragments[0].text;
		expect(preview.totalChars).toBe(45_000);
		expect(preview.truncated).toBe(true);
		expect(preview.shownRanges).toEqual([
			{ start: 0, end: 999 },
			{ start: 45_000 - 998, end: 45_000 },
		]);
		expect(preview.omittedRanges).toEqual([{ start: 999, end: 45_000 - 998 }]);
		expect(preview.text.startsWith(big.text.slice(0, 999))).toBe(true);
		expect(preview.text.endsWith(big.text.slice(-998))).toBe(true);
		expect(preview.text).not.toContain(MIDDLE_MARKER);
		expect(r.event).toMatchObject({ role: "toolResult", toolName: "bash", onLeafPath: true });
		// Format 3 stores a tool result's tool on its event only; the fragment still shows it.
		expect(r.fragments[0].toolName).toBe("bash");

		const offset = big.markerOffset - 100;
		const w = read({ sessionId: main.id, entryId: main.entries.bigResult, matchingFragmentId: fragmentId, offset });
		expect(w.window).toMatchObject({
			fragmentId,
			semanticKind: "tool_result",
			offset,
			totalChars: 45_000,
			range: { start: offset, end: offset + 4_000 },
			hasBefore: true,
			hasAfter: true,
		});
		expect(w.window?.text).toBe(big.text.slice(offset, offset + 4_000));
		expect(w.window?.text.indexOf(MIDDLE_MARKER)).toBe(100);
		expect(w.fragments).toEqual([]);

		// Moving the window never raises its size; a smaller configured window is obeyed.
		const end = read({
			sessionId: main.id,
			entryId: main.entries.bigResult,
			matchingFragmentId: fragmentId,
			offset: 10 ** 9,
		});
		expect(end.window?.range).toEqual({ start: 41_000, end: 45_000 });
		const small = read(
			{ sessionId: main.id, entryId: main.entries.bigResult, matchingFragmentId: fragmentId, offset },
			h.caller({ budgets: { windowChars: 300 } }),
		);
		expect(Array.from(small.window?.text ?? "").length).toBe(300);
		expect(
			failure(() => read({ sessionId: main.id, entryId: main.entries.bigResult, matchingFragmentId: "x#0" })).code,
		).toBe("invalid_request");
		expect(
			failure(() =>
				read({ sessionId: main.id, entryId: main.entries.bigResult, matchingFragmentId: fragmentId, offset: -1 }),
			).code,
		).toBe("invalid_request");
	});

	it("refuses an offset without a fragment, also when matchingFragmentId is null (regression: it was dropped silently)", () => {
		const { main } = h.corpus;
		for (const matchingFragmentId of [undefined, null]) {
			const req = { sessionId: main.id, entryId: main.entries.bigResult, matchingFragmentId, offset: 20 };
			const err = failure(() => read(req as unknown as EventReadRequest));
			expect(err.code).toBe("invalid_request");
			expect(err.message).toContain('needs "matchingFragmentId"');
		}
	});

	it("caps unfiltered fragments but never displaces a targeted fragment", () => {
		const { main } = h.corpus;
		const capped = h.caller({ budgets: { readFragments: 1 } });
		const r = read({ sessionId: main.id, entryId: main.entries.parallelCall }, capped);
		expect(r.fragments.map((f) => f.fragmentId)).toEqual([`${main.entries.parallelCall}#0`]);
		expect(r.fragmentCoverage).toEqual({ total: 2, returned: 1, omitted: 1, truncated: true });
		const t = read(
			{ sessionId: main.id, entryId: main.entries.parallelCall, matchingFragmentId: `${main.entries.parallelCall}#1` },
			capped,
		);
		expect(t.window?.fragmentId).toBe(`${main.entries.parallelCall}#1`);
		expect(t.window?.text).toContain("b.txt");
	});

	it("walks branch neighbours across an in-session fork with receipts", () => {
		const { main } = h.corpus;
		const e = main.entries;
		const entries = readEntries(main.file);
		const failCall = entries.find((x) => x.id === e.failResult)?.parentId;
		const r = read({ sessionId: main.id, entryId: e.forkPoint, before: 2, after: 2 });
		expect(r.order).toBe("branch");
		expect(r.neighbors.map((n) => [n.relation, n.event.entryId])).toEqual([
			["before", failCall],
			["before", e.failResult],
			["after", e.branchSummary],
			["after", e.cjkUser],
		]);
		expect(r.forks).toEqual([
			{
				kind: "in-session",
				at: { sessionId: main.id, entryId: e.forkPoint },
				candidates: [
					{ sessionId: main.id, entryId: e.altUser },
					{ sessionId: main.id, entryId: e.branchSummary },
				],
				chosen: { sessionId: main.id, entryId: e.branchSummary },
			},
		]);
		// On the alternate branch: predecessors cross the fork (chosen = this branch), successors follow the
		// sole-child chain and stop at its end; the selected branch never enters the window.
		const alt = read({ sessionId: main.id, entryId: e.altUser, before: 1, after: 3 });
		expect(alt.event.branchState).toBe("alternate");
		expect(alt.neighbors.map((n) => [n.relation, n.event.entryId])).toEqual([
			["before", e.forkPoint],
			["after", e.altAnswer],
		]);
		expect(alt.forks).toEqual([
			{
				kind: "in-session",
				at: { sessionId: main.id, entryId: e.forkPoint },
				candidates: [
					{ sessionId: main.id, entryId: e.altUser },
					{ sessionId: main.id, entryId: e.branchSummary },
				],
				chosen: { sessionId: main.id, entryId: e.altUser },
			},
		]);
		// Append order is file chronology: the branch summary follows the alternate answer.
		const app = read({ sessionId: main.id, entryId: e.altAnswer, before: 0, after: 1, order: "append" });
		expect(app.neighbors.map((n) => n.event.entryId)).toEqual([e.branchSummary]);
		expect(app.forks).toEqual([]);
	});

	it("clamps neighbour counts to the configured maximum", () => {
		const { main } = h.corpus;
		const r = read({ sessionId: main.id, entryId: main.entries.finalUser, before: 1000, after: 1000 });
		expect(r.neighbors.filter((n) => n.relation === "before")).toHaveLength(6);
		const none = read({ sessionId: main.id, entryId: main.entries.finalUser });
		expect(none.neighbors.filter((n) => n.relation === "before")).toHaveLength(2);
		expect(failure(() => read({ sessionId: main.id, entryId: main.entries.finalUser, before: -1 })).code).toBe(
			"invalid_request",
		);
	});

	it("reports a --fork child as a session-fork candidate at the parent's leaf", () => {
		const { main, forkChild } = h.corpus;
		const r = read({ sessionId: main.id, entryId: main.entries.finalAnswer, before: 1, after: 2 });
		expect(r.forks).toEqual([
			{
				kind: "session-fork",
				at: { sessionId: main.id, entryId: main.entries.finalAnswer },
				candidates: [{ sessionId: forkChild.id, entryId: forkChild.newUserId }],
			},
		]);
		// Read from the child: the fork point is identified by the parent-session event.
		const c = read({ sessionId: forkChild.id, entryId: forkChild.newUserId, before: 1, after: 0 });
		expect(c.forks).toEqual([
			{
				kind: "session-fork",
				at: { sessionId: main.id, entryId: main.entries.finalAnswer },
				candidates: [{ sessionId: forkChild.id, entryId: forkChild.newUserId }],
				chosen: { sessionId: forkChild.id, entryId: forkChild.newUserId },
			},
		]);
	});

	it("reports a /fork path copy from both sides, labels re-created in the copy", () => {
		const { main, pathCopy } = h.corpus;
		const e = main.entries;
		const copyEntries = readEntries(pathCopy.file);
		const newLabel = copyEntries[copyEntries.length - 1];
		expect(newLabel.type).toBe("label");
		const afterParallel = readEntries(main.file).find((x) => x.parentId === e.parallelAnswer)?.id;
		const fromMain = read({ sessionId: main.id, entryId: e.parallelAnswer, before: 0, after: 1 });
		expect(fromMain.forks).toContainEqual({
			kind: "session-fork",
			at: { sessionId: main.id, entryId: e.parallelAnswer },
			candidates: [
				{ sessionId: main.id, entryId: afterParallel },
				{ sessionId: pathCopy.id, entryId: newLabel.id },
			],
			chosen: { sessionId: main.id, entryId: afterParallel },
		});
		expect(fromMain.event.labels).toEqual(["milestone"]);
		const fromCopy = read({ sessionId: pathCopy.id, entryId: e.parallelAnswer, before: 0, after: 1 });
		expect(fromCopy.forks).toEqual([
			{
				kind: "session-fork",
				at: { sessionId: main.id, entryId: e.parallelAnswer },
				candidates: [
					{ sessionId: main.id, entryId: afterParallel },
					{ sessionId: pathCopy.id, entryId: newLabel.id },
				],
				chosen: { sessionId: pathCopy.id, entryId: newLabel.id },
			},
		]);
		expect(fromCopy.event.labels).toEqual(["milestone"]);
	});
});

describe("traceEvent", () => {
	const related = (t: ReturnType<typeof traceEvent>) =>
		t.related.map((r) => [r.kind, r.node ? `${r.node.sessionId}/${r.node.entryId}` : r.file, r.inferred]);

	it("links a parallel tool call pair to both results and each result back to its call", () => {
		const { main } = h.corpus;
		const e = main.entries;
		const t = trace({ sessionId: main.id, entryId: e.parallelCall });
		expect(related(t).filter((r) => r[0] === "tool-result")).toEqual([
			["tool-result", `${main.id}/${e.parallelResultA}`, false],
			["tool-result", `${main.id}/${e.parallelResultB}`, false],
		]);
		expect(related(t).filter((r) => r[0] === "file")).toEqual([
			["file", "a.txt", true],
			["file", "b.txt", true],
		]);
		expect(t.children.map((c) => c.node?.entryId)).toEqual([e.parallelResultA]);
		const b = trace({ sessionId: main.id, entryId: e.parallelResultB });
		expect(b.parent?.node?.entryId).toBe(e.parallelResultA); // Pi chains parallel results
		expect(related(b).filter((r) => r[0] === "tool-call")).toEqual([
			["tool-call", `${main.id}/${e.parallelCall}`, false],
		]);
		expect(b.target).toMatchObject({ role: "toolResult", toolName: "read", towardLeaf: true, branchState: "selected" });
	});

	it("traces a compaction to its kept boundary and file evidence, and back", () => {
		const { main } = h.corpus;
		const e = main.entries;
		const t = trace({ sessionId: main.id, entryId: e.compaction });
		expect(related(t).filter((r) => !String(r[0]).startsWith("session-fork"))).toEqual([
			["compaction-kept", `${main.id}/${e.cjkUser}`, false],
			["file", "notes.txt", true],
			["file", "deploy.yaml", true],
		]);
		const back = trace({ sessionId: main.id, entryId: e.cjkUser });
		expect(related(back)).toContainEqual(["compacted-by", `${main.id}/${e.compaction}`, false]);
	});

	it("traces a branch summary, its source, and derived branch siblings", () => {
		const { main } = h.corpus;
		const e = main.entries;
		const t = trace({ sessionId: main.id, entryId: e.branchSummary });
		expect(related(t)).toContainEqual(["branch-summary-from", `${main.id}/${e.forkPoint}`, false]);
		expect(t.branchSiblings).toEqual([
			expect.objectContaining({ kind: "branch-sibling", derived: true, inferred: false }),
		]);
		expect(t.branchSiblings[0].node).toMatchObject({ entryId: e.altUser, branchState: "alternate", towardLeaf: false });
		const from = trace({ sessionId: main.id, entryId: e.forkPoint });
		expect(related(from)).toContainEqual(["summarized-by", `${main.id}/${e.branchSummary}`, false]);
		expect(from.children.map((c) => c.node?.entryId)).toEqual([e.altUser, e.branchSummary]);
	});

	it("traces a label both ways and copies in fork children as inferred edges", () => {
		const { main, forkChild, pathCopy } = h.corpus;
		const e = main.entries;
		expect(related(trace({ sessionId: main.id, entryId: e.label }))).toContainEqual([
			"label",
			`${main.id}/${e.parallelAnswer}`,
			false,
		]);
		const t = trace({ sessionId: main.id, entryId: e.parallelAnswer });
		expect(related(t)).toEqual([
			["labels", `${main.id}/${e.label}`, false],
			["session-fork-child", `${forkChild.id}/${e.parallelAnswer}`, true],
			["session-fork-child", `${pathCopy.id}/${e.parallelAnswer}`, true],
		]);
		const inChild = trace({ sessionId: forkChild.id, entryId: e.parallelAnswer });
		expect(related(inChild)).toContainEqual(["session-fork-parent", `${main.id}/${e.parallelAnswer}`, true]);
	});

	it("bounds edges and makes transitive traversal opt-in", () => {
		const { main } = h.corpus;
		const e = main.entries;
		const small = trace({ sessionId: main.id, entryId: e.parallelCall }, h.caller({ budgets: { traceEdges: 5 } }));
		const count = (small.parent ? 1 : 0) + small.children.length + small.branchSiblings.length + small.related.length;
		expect(count).toBeLessThanOrEqual(5);
		expect(small.truncated).toBe(true);
		const direct = trace({ sessionId: main.id, entryId: e.label });
		expect(direct.related.every((r) => r.depth === undefined)).toBe(true);
		const deep = trace({ sessionId: main.id, entryId: e.label, depth: 2 });
		expect(deep.related.some((r) => r.depth === 2 && r.kind === "session-fork-child")).toBe(true);
		expect(failure(() => trace({ sessionId: main.id, entryId: e.label, depth: 0 })).code).toBe("invalid_request");
	});
});

describe("traceSession", () => {
	it("returns a three-generation fork chain from either end", () => {
		const { main, forkChild, grandChild, pathCopy } = h.corpus;
		const fromGrand = h.record(traceSession(h.db, { sessionId: grandChild.id }, h.caller()));
		expect(fromGrand.session).toMatchObject({ sessionId: grandChild.id, generation: 0 });
		expect(fromGrand.ancestors.map((a) => [a.sessionId, a.generation])).toEqual([
			[forkChild.id, -1],
			[main.id, -2],
		]);
		expect(fromGrand.descendants).toEqual([]);
		const fromMain = h.record(traceSession(h.db, { sessionId: main.id }, h.caller()));
		expect(fromMain.ancestors).toEqual([]);
		expect(fromMain.descendants.map((d) => [d.sessionId, d.generation]).sort()).toEqual(
			[
				[forkChild.id, 1],
				[pathCopy.id, 1],
				[grandChild.id, 2],
			].sort(),
		);
		expect(fromMain.session.sessionName).toBe("Deploy work");
		const capped = h.record(traceSession(h.db, { sessionId: main.id }, h.caller({ budgets: { lineageSessions: 2 } })));
		expect(capped.descendants).toHaveLength(1);
		expect(capped.truncated).toBe(true);
	});
});
