import { describe, expect, it } from "vitest";
import { projectEntry } from "../../src/project/project-entry.js";
import { computeTreeStates, extendsLeaf, leafExtensionStates, treeNodeOf } from "../../src/project/tree-states.js";
import type { TreeNode, TreeStates } from "../../src/project/types.js";
import { fixtureBytes, listFixtures, parseWhole, prng } from "../parse/helpers.js";

function fixtureNodes(name: string): TreeNode[] {
	return parseWhole(fixtureBytes(name)).entries.map(projectEntry).map(treeNodeOf);
}

/** States by entry id (fixtures here have unique ids). */
function statesById(nodes: TreeNode[]): Map<string, [string, string]> {
	const st = computeTreeStates(nodes);
	return new Map(
		nodes.map((n) => [n.entryId, [st.get(n.seq)?.branchState ?? "?", st.get(n.seq)?.selectionState ?? "?"]]),
	);
}

/** Compact node builder: [id, parentId, type?, linkId?] in file order. */
function tree(...spec: Array<[string, string | null, string?, string?]>): TreeNode[] {
	return treeOf(spec);
}

function treeOf(spec: Array<[string, string | null, string?, string?]>): TreeNode[] {
	return spec.map(([entryId, parentId, entryType = "message", linkId], seq) => {
		const n: TreeNode = { seq, entryId, parentId, entryType };
		if (linkId !== undefined) n.linkId = linkId;
		return n;
	});
}

function table(nodes: TreeNode[]): string[] {
	const st = computeTreeStates(nodes);
	return nodes.map((n) => `${n.entryId} ${st.get(n.seq)?.branchState} ${st.get(n.seq)?.selectionState}`);
}

const RICH_TREE: Array<[string, string, string, string]> = [
	// id, what it is, branchState, selectionState
	["be0b1611", "model_change", "selected", "not-applicable"],
	["e2ded057", "thinking_level_change", "selected", "not-applicable"],
	["a1f8265b", "user: first question", "selected", "direct"],
	["84051c10", "assistant: tool call", "selected", "direct"],
	["1c165423", "toolResult", "selected", "direct"],
	["ca92c2d6", "assistant: answer one (branch point)", "selected", "direct"],
	["1b83421d", "user: second question (left by /tree)", "alternate", "summarized"],
	["3d66c558", "assistant: answer two", "alternate", "summarized"],
	["5e8c7032", "session_info", "alternate", "not-applicable"],
	["da4417ab", "label", "alternate", "not-applicable"],
	["e6381537", "bashExecution (old leaf)", "alternate", "summarized"],
	["31e94dc5", "branch_summary fromId ca92c2d6", "selected", "direct"],
	["7fe12b9e", "user: third question", "selected", "direct"],
	["30cc8d69", "assistant: answer three", "selected", "direct"],
	["6d35745e", "compaction firstKept be0b1611 (keeps all)", "selected", "direct"],
	["9f36bc75", "user: fourth question", "selected", "direct"],
	["3177a70b", "assistant: answer four", "selected", "direct"],
	["734741ac", "custom_message (leaf)", "selected", "direct"],
];

describe("computeTreeStates over the fixtures", () => {
	it("rich-tree-compaction: every entry, explicitly", () => {
		const nodes = fixtureNodes("pi-0.73.1/rich-tree-compaction.jsonl");
		expect(nodes.map((n) => n.entryId)).toEqual(RICH_TREE.map((r) => r[0]));
		const got = statesById(nodes);
		for (const [id, what, branch, selection] of RICH_TREE)
			expect([id, what, ...(got.get(id) ?? [])]).toEqual([id, what, branch, selection]);
	});

	it("forkFrom-copy (full copy, same ids) has exactly the source's states", () => {
		const copy = statesById(fixtureNodes("pi-0.73.1/forkFrom-copy.jsonl"));
		const src = statesById(fixtureNodes("pi-0.73.1/rich-tree-compaction.jsonl"));
		expect([...copy.entries()]).toEqual([...src.entries()]);
	});

	it("createBranchedSession-fork copies only the root→leaf path (same ids), plus a re-created label", () => {
		const nodes = fixtureNodes("pi-0.73.1/createBranchedSession-fork.jsonl");
		expect(nodes.map((n) => n.entryId)).toEqual(["be0b1611", "e2ded057", "a1f8265b", "84051c10", "d53341f2"]);
		expect(table(nodes)).toEqual([
			"be0b1611 selected not-applicable",
			"e2ded057 selected not-applicable",
			"a1f8265b selected direct",
			"84051c10 selected direct",
			"d53341f2 selected not-applicable",
		]);
		const src = new Set(fixtureNodes("pi-0.73.1/rich-tree-compaction.jsonl").map((n) => n.entryId));
		expect(nodes.filter((n) => src.has(n.entryId)).map((n) => n.entryId)).toEqual(
			nodes.slice(0, 4).map((n) => n.entryId),
		);
	});

	it("cli-fork-copy shares its first ten ids with cli-continued-c; both are linear and fully selected", () => {
		const fork = fixtureNodes("pi-0.73.1/cli-fork-copy.jsonl");
		const src = fixtureNodes("pi-0.73.1/cli-continued-c.jsonl");
		expect(fork.slice(0, 10).map((n) => [n.entryId, n.parentId])).toEqual(src.map((n) => [n.entryId, n.parentId]));
		for (const nodes of [fork, src]) {
			const rows = table(nodes);
			expect(rows.slice(0, 2).map((r) => r.split(" ").slice(1).join(" "))).toEqual([
				"selected not-applicable",
				"selected not-applicable",
			]);
			for (const r of rows.slice(2)) expect(r.endsWith("selected direct")).toBe(true);
		}
	});

	it("every other fixture: linear sessions are fully selected; counts of selection states", () => {
		const count = (name: string) => {
			const st = computeTreeStates(fixtureNodes(name));
			const c: Record<string, number> = {};
			for (const s of st.values()) {
				const k = `${s.branchState}/${s.selectionState}`;
				c[k] = (c[k] ?? 0) + 1;
			}
			return c;
		};
		expect(count("pi-0.73.1/cli-print-tool-call.jsonl")).toEqual({
			"selected/not-applicable": 2,
			"selected/direct": 4,
		});
		expect(count("pi-0.73.1/duplicate-header-bug.jsonl")).toEqual({
			"selected/not-applicable": 2,
			"selected/direct": 4,
		});
		expect(count("pi-mono-v1/large-session.jsonl")).toEqual({ "selected/not-applicable": 104, "selected/direct": 914 });
		// Last compaction keeps from firstKeptEntryIndex 551: ordinals 1..550 (that reach the model) are summarized.
		expect(count("pi-mono-v1/before-compaction.jsonl")).toEqual({
			"selected/not-applicable": 10,
			"selected/summarized": 546,
			"selected/direct": 446,
		});
		const bc = statesById(fixtureNodes("pi-mono-v1/before-compaction.jsonl"));
		expect(bc.get("v1-359")).toEqual(["selected", "summarized"]); // the older compaction
		expect(bc.get("v1-550")).toEqual(["selected", "summarized"]);
		expect(bc.get("v1-551")).toEqual(["selected", "direct"]);
		expect(bc.get("v1-628")).toEqual(["selected", "direct"]); // the last compaction
	});

	it("v1 before and after migration: same states in the same order", () => {
		const before = table(fixtureNodes("pi-0.73.1/v1-before-migration.jsonl")).map((r) =>
			r.split(" ").slice(1).join(" "),
		);
		const after = table(fixtureNodes("pi-0.73.1/v1-after-migration.jsonl")).map((r) => r.split(" ").slice(1).join(" "));
		expect(before).toEqual(["selected summarized", "selected direct", "selected direct", "selected direct"]);
		expect(after).toEqual(before);
	});
});

describe("computeTreeStates of Pi 1.x sessions (fixtures/pi-1.6, written by real Pi 1.6)", () => {
	it("sdk-retry-tree-compact: the retried attempt is not-selected, the system message folded into the compaction", () => {
		const nodes = fixtureNodes("pi-1.6/sdk-retry-tree-compact.jsonl");
		const events = parseWhole(fixtureBytes("pi-1.6/sdk-retry-tree-compact.jsonl")).entries.map(projectEntry);
		const st = statesById(nodes);
		const of = (pick: (e: (typeof events)[number]) => boolean) => st.get(events.filter(pick)[0].entryId);
		const edit = events.find((e) => e.entryType === "context_edit");
		// The failed attempt Pi retried: on the path, but a context_edit omits it from what the model is sent.
		expect(st.get(edit?.linkId as string)).toEqual(["selected", "not-selected"]);
		expect(st.get(edit?.entryId as string)).toEqual(["selected", "not-applicable"]);
		// The system message lies before the compaction's first kept entry: summarized (its systemMessage is sent).
		expect(of((e) => e.role === "system")).toEqual(["selected", "summarized"]);
		expect(of((e) => e.entryType === "usage")).toEqual(["selected", "not-applicable"]);
		// The answer after the retry is sent.
		expect(st.get(events[events.length - 2].entryId)).toEqual(["selected", "direct"]);
	});

	it("system messages from the compaction's first kept entry up to it are summarized, later ones direct", () => {
		const nodes = tree(["s", null], ["u", "s"], ["s2", "u"], ["a", "s2"], ["c", "a", "compaction", "u"], ["s3", "c"]);
		for (const n of nodes) if (n.entryId.startsWith("s")) n.role = "system";
		expect(table(nodes)).toEqual([
			"s selected summarized",
			"u selected direct",
			"s2 selected summarized",
			"a selected direct",
			"c selected direct",
			"s3 selected direct",
		]);
	});

	it("context_edit: a sent edit makes its target not-selected; a summarized edit or an off-path target changes nothing", () => {
		const edited = tree(["u", null], ["a", "u"], ["e", "a", "context_edit", "a"], ["a2", "e"]);
		expect(table(edited)).toEqual([
			"u selected direct",
			"a selected not-selected",
			"e selected not-applicable",
			"a2 selected direct",
		]);
		// The edit itself summarized by a later compaction (kept from a2): the attempt is summarized anyway.
		const compacted = [...edited, ...tree(["c", "a2", "compaction", "a2"]).map((n) => ({ ...n, seq: 4 }))];
		expect(table(compacted).slice(0, 4)).toEqual([
			"u selected summarized",
			"a selected summarized",
			"e selected not-applicable",
			"a2 selected direct",
		]);
		// An edit on another branch does not apply to the selected path.
		const offPath = tree(["u", null], ["a", "u"], ["e", "a", "context_edit", "a"], ["b", "a"]);
		expect(table(offPath)[1]).toBe("a selected direct");
	});
});

describe("computeTreeStates rules", () => {
	it("several roots: the leaf's tree is selected, the other tree alternate", () => {
		expect(table(tree(["a", null], ["b", "a"], ["c", null], ["d", "c"]))).toEqual([
			"a alternate not-selected",
			"b alternate not-selected",
			"c selected direct",
			"d selected direct",
		]);
	});

	it("duplicate ids: lookups use the last entry with that id", () => {
		// The second "x" shadows the first, so "y" hangs off the second one.
		expect(table(tree(["r", null], ["x", "r"], ["q", "r"], ["x", "q"], ["y", "x"]))).toEqual([
			"r selected direct",
			"x alternate not-selected",
			"q selected direct",
			"x selected direct",
			"y selected direct",
		]);
	});

	it("a parent cycle makes the leaf's chain unknown; entries off it are alternate", () => {
		// "a" is redefined below "c", closing a loop a → c → b → a.
		expect(table(tree(["a", null], ["b", "a"], ["z", "a"], ["c", "b"], ["a", "c", "label"]))).toEqual([
			"a alternate not-selected",
			"b unknown unknown",
			"z alternate not-selected",
			"c unknown unknown",
			"a unknown not-applicable",
		]);
	});

	it("a missing parent on the leaf's chain: the chain is selected, entries provably below it alternate, the rest unknown", () => {
		expect(
			table(
				tree(
					["a", null], // maybe the missing entry's ancestor: undecidable
					["b", "a"],
					["o", "gone"], // orphan: the chain ends here
					["side", "o"], // hangs off the chain: alternate
					["m", "o", "model_change"],
					["leaf", "m"],
				),
			),
		).toEqual([
			"a unknown unknown",
			"b unknown unknown",
			"o selected direct",
			"side alternate not-selected",
			"m selected not-applicable",
			"leaf selected direct",
		]);
	});

	it("compaction: before firstKept is summarized, from it on direct; older compactions summarized", () => {
		expect(
			table(
				tree(
					["1", null],
					["c1", "1", "compaction", "1"],
					["2", "c1"],
					["3", "2"],
					["t", "3", "thinking_level_change"],
					["c2", "t", "compaction", "3"],
					["4", "c2"],
				),
			),
		).toEqual([
			"1 selected summarized",
			"c1 selected summarized",
			"2 selected summarized",
			"3 selected direct",
			"t selected not-applicable",
			"c2 selected direct",
			"4 selected direct",
		]);
	});

	it("compaction whose firstKeptEntryId is not on the path (or missing) summarizes everything before it", () => {
		const rows = (link: string | undefined) =>
			table(tree(["1", null], ["x", "1"], ["2", "1"], ["c", "2", "compaction", link], ["3", "c"]));
		const expected = [
			"1 selected summarized",
			"x alternate not-selected",
			"2 selected summarized",
			"c selected direct",
			"3 selected direct",
		];
		expect(rows("x")).toEqual(expected);
		expect(rows(undefined)).toEqual(expected);
		expect(rows("nope")).toEqual(expected);
	});

	it("branch_summary: path(oldLeaf) minus path(fromId) is summarized, other alternates not-selected", () => {
		expect(
			table(
				tree(
					["r", null],
					["a", "r"],
					["a1", "a"], // an older abandoned branch, not covered by the summary
					["b", "a"],
					["b1", "b"],
					["b2", "b1"], // old leaf
					["s", "a", "branch_summary", "a"],
					["n", "s"],
				),
			),
		).toEqual([
			"r selected direct",
			"a selected direct",
			"a1 alternate not-selected",
			"b alternate summarized",
			"b1 alternate summarized",
			"b2 alternate summarized",
			"s selected direct",
			"n selected direct",
		]);
	});

	it('branch_summary to the root (fromId "root") covers the whole old path; off the selected path it covers nothing', () => {
		expect(table(tree(["a", null], ["b", "a"], ["s", null, "branch_summary", "root"], ["n", "s"]))).toEqual([
			"a alternate summarized",
			"b alternate summarized",
			"s selected direct",
			"n selected direct",
		]);
		// The summary itself was later abandoned: its branch covers nothing any more.
		expect(table(tree(["a", null], ["b", "a"], ["s", "a", "branch_summary", "a"], ["c", "a"]))).toEqual([
			"a selected direct",
			"b alternate not-selected",
			"s alternate not-selected",
			"c selected direct",
		]);
	});

	it("a branch summary that was itself compacted still marks its branch summarized", () => {
		expect(
			table(
				tree(
					["a", null],
					["b", "a"],
					["s", "a", "branch_summary", "a"],
					["c", "s"],
					["k", "c", "compaction", "c"],
					["d", "k"],
				),
			),
		).toEqual([
			"a selected summarized",
			"b alternate summarized",
			"s selected summarized",
			"c selected direct",
			"k selected direct",
			"d selected direct",
		]);
	});

	it("handles an empty source and unsorted input", () => {
		expect(computeTreeStates([]).size).toBe(0);
		const nodes = tree(["a", null], ["b", "a"], ["c", "a"]);
		expect(computeTreeStates([...nodes].reverse())).toEqual(computeTreeStates(nodes));
	});

	// No wall-clock assertion (timing belongs in bench/): a quadratic walk over 200k nodes with 100 summaries would
	// run for minutes and fail on the test timeout instead.
	it("handles a 200k-entry session with many branch summaries", () => {
		const spec: Array<[string, string | null, string?, string?]> = [["n0", null]];
		for (let i = 1; i < 200_000; i++) {
			if (i % 2000 === 0) {
				spec.push([`alt${i}`, `n${i - 1}`]);
				spec.push([`n${i}`, `n${i - 1}`, "branch_summary", `n${i - 1}`]);
			} else spec.push([`n${i}`, `n${i - 1}`]);
		}
		const st = computeTreeStates(treeOf(spec));
		expect(st.size).toBe(spec.length);
		expect(st.get(2000)).toEqual({ branchState: "alternate", selectionState: "summarized" });
	});
});

describe("extendsLeaf (the append fast path)", () => {
	const equalStates = (a: Map<number, TreeStates>, b: Map<number, TreeStates>) =>
		expect([...a.entries()].sort((x, y) => x[0] - y[0])).toEqual([...b.entries()].sort((x, y) => x[0] - y[0]));

	for (const name of listFixtures()) {
		it(`${name}: appended line by line and in random batches, the fast path agrees with the full computation`, () => {
			const all = fixtureNodes(name);
			const rand = prng(name.length * 7919);
			for (const batchMode of [false, true]) {
				let prev: TreeNode[] = [];
				let prevStates = new Map<number, TreeStates>();
				let fast = 0;
				while (prev.length < all.length) {
					const k = batchMode ? 1 + Math.floor(rand() * 5) : 1;
					const batch = all.slice(prev.length, prev.length + k);
					const used = new Set<string>();
					for (const n of prev) {
						used.add(n.entryId);
						if (n.parentId) used.add(n.parentId);
						if (n.linkId) used.add(n.linkId);
					}
					const leaf = prev[prev.length - 1];
					const ok = extendsLeaf(leaf ? leaf.entryId : null, batch, {
						prevLeafStates: leaf ? prevStates.get(leaf.seq) : undefined,
						idInUse: (id) => used.has(id),
					});
					const next = [...prev, ...batch];
					const full = computeTreeStates(next);
					if (ok) {
						fast++;
						const incremental = new Map([...prevStates, ...leafExtensionStates(batch)]);
						equalStates(incremental, full);
					}
					prev = next;
					prevStates = full;
				}
				// Line by line, the first append (a root on an empty source) always takes the fast path.
				if (!batchMode) expect(fast).toBeGreaterThan(0);
			}
		});
	}

	it("takes the fast path for a plain continuation, including a new root when the source is empty", () => {
		expect(extendsLeaf(null, tree(["a", null], ["b", "a"]))).toBe(true);
		expect(extendsLeaf("leaf", [{ seq: 5, entryId: "n", parentId: "leaf", entryType: "label" }])).toBe(true);
		expect(extendsLeaf("leaf", [])).toBe(true);
	});

	it("refuses branches, summaries, compactions, reused ids and a leaf inside a cycle", () => {
		const n = (entryId: string, parentId: string | null, entryType = "message"): TreeNode => ({
			seq: 9,
			entryId,
			parentId,
			entryType,
		});
		expect(extendsLeaf("leaf", [n("x", "older")])).toBe(false);
		expect(extendsLeaf(null, [n("x", "dangling")])).toBe(false);
		expect(extendsLeaf("leaf", [n("x", "leaf"), n("y", "leaf")])).toBe(false);
		expect(extendsLeaf("leaf", [n("x", "leaf", "compaction")])).toBe(false);
		expect(extendsLeaf("leaf", [n("x", "leaf", "branch_summary")])).toBe(false);
		// A context edit changes its (older) target's selection state.
		expect(extendsLeaf("leaf", [n("x", "leaf", "context_edit")])).toBe(false);
		expect(extendsLeaf("leaf", [n("leaf", "leaf")])).toBe(false);
		expect(extendsLeaf("leaf", [n("x", "leaf"), n("x", "x")])).toBe(false);
		expect(extendsLeaf("leaf", [n("x", "leaf")], { idInUse: (id) => id === "x" })).toBe(false);
		expect(
			extendsLeaf("leaf", [n("x", "leaf")], { prevLeafStates: { branchState: "unknown", selectionState: "unknown" } }),
		).toBe(false);
	});

	it("the refusals are needed: each refused case would change older states or disagree with the full computation", () => {
		// A reused id (forward reference): an orphan's missing parent appears later, turning unknown into alternate.
		const before = tree(["a", null], ["o", "late"], ["leaf", "o"]);
		expect(table(before)[0]).toBe("a unknown unknown");
		const after = [...before, { seq: 3, entryId: "late", parentId: "leaf", entryType: "message" }];
		expect(table(after)).toEqual([
			"a alternate not-selected",
			"o unknown unknown",
			"leaf unknown unknown",
			"late unknown unknown",
		]);
	});
});
