import { describe, expect, it } from "vitest";
import type { SemanticKind } from "../../src/contract.js";
import type { ParsedEntry } from "../../src/parse/types.js";
import { projectEntry } from "../../src/project/project-entry.js";
import { renderToolCall } from "../../src/project/render-arguments.js";
import { boundString } from "../../src/project/text-utils.js";
import type { ProjectedEvent } from "../../src/project/types.js";
import { codePointLength } from "../../src/text/code-points.js";
import { fixtureBytes, listFixtures, parseWhole } from "../parse/helpers.js";

function project(name: string): ProjectedEvent[] {
	return parseWhole(fixtureBytes(name)).entries.map(projectEntry);
}

function kindCounts(events: ProjectedEvent[]): Partial<Record<SemanticKind, number>> {
	const out: Partial<Record<SemanticKind, number>> = {};
	for (const e of events) for (const f of e.fragments) out[f.kind] = (out[f.kind] ?? 0) + 1;
	return Object.fromEntries(Object.entries(out).sort());
}

function roleCounts(events: ProjectedEvent[]): Record<string, number> {
	const out: Record<string, number> = {};
	for (const e of events) {
		const k = e.role ? `${e.entryType}:${e.role}` : e.entryType;
		out[k] = (out[k] ?? 0) + 1;
	}
	return out;
}

function mk(raw: Record<string, unknown>, id = "e1"): ParsedEntry {
	return {
		seq: 0,
		lineNo: 2,
		byteStart: 10,
		byteEnd: 20,
		id,
		parentId: null,
		type: String(raw.type),
		timestamp: "2026-01-01T00:00:00.000Z",
		raw,
	};
}

const msg = (message: Record<string, unknown>) => projectEntry(mk({ type: "message", message }));

/** Fragment kinds per fixture, counted independently (a Python pass over the files). */
const KINDS: Record<string, Partial<Record<SemanticKind, number>>> = {
	"pi-0.73.1/cli-continued-c.jsonl": { assistant_text: 4, tool_call: 2, tool_result: 2, user_text: 2 },
	"pi-0.73.1/cli-fork-copy.jsonl": { assistant_text: 6, tool_call: 3, tool_result: 3, user_text: 3 },
	"pi-0.73.1/cli-print-tool-call.jsonl": { assistant_text: 2, tool_call: 1, tool_result: 1, user_text: 1 },
	"pi-0.73.1/createBranchedSession-fork.jsonl": { label: 1, tool_call: 1, user_text: 1 },
	"pi-0.73.1/duplicate-header-bug.jsonl": { assistant_text: 2, tool_call: 1, tool_result: 1, user_text: 1 },
	"pi-0.73.1/forkFrom-copy.jsonl": {
		assistant_text: 4,
		bash_command: 1,
		bash_output: 1,
		branch_summary: 1,
		compaction_summary: 1,
		custom_message: 1,
		label: 1,
		session_name: 1,
		tool_call: 1,
		tool_result: 1,
		user_text: 4,
	},
	"pi-0.73.1/rich-tree-compaction.jsonl": {
		assistant_text: 4,
		bash_command: 1,
		bash_output: 1,
		branch_summary: 1,
		compaction_summary: 1,
		custom_message: 1,
		label: 1,
		session_name: 1,
		tool_call: 1,
		tool_result: 1,
		user_text: 4,
	},
	"pi-0.73.1/v1-after-migration.jsonl": { assistant_text: 1, compaction_summary: 1, custom_message: 1, user_text: 1 },
	"pi-0.73.1/v1-before-migration.jsonl": { assistant_text: 1, compaction_summary: 1, custom_message: 1, user_text: 1 },
	// Pi 1.x's system messages (one each) have no fragments.
	"pi-1.6/sdk-fork-copy.jsonl": {
		assistant_text: 4,
		branch_summary: 1,
		compaction_summary: 1,
		label: 1,
		tool_call: 1,
		tool_result: 1,
		user_text: 3,
	},
	"pi-1.6/sdk-retry-tree-compact.jsonl": {
		assistant_text: 5,
		branch_summary: 1,
		compaction_summary: 1,
		label: 1,
		tool_call: 1,
		tool_result: 1,
		user_text: 4,
	},
	"pi-mono-v1/before-compaction.jsonl": {
		assistant_text: 272,
		bash_command: 3,
		bash_output: 3,
		compaction_summary: 2,
		tool_call: 454,
		tool_result: 448,
		user_text: 55,
	},
	"pi-mono-v1/large-session.jsonl": { assistant_text: 266, tool_call: 391, tool_result: 373, user_text: 88 },
};

describe("projectEntry over every fixture", () => {
	it("covers every fixture", () => {
		expect(Object.keys(KINDS).sort()).toEqual(listFixtures());
	});

	for (const [name, kinds] of Object.entries(KINDS)) {
		it(`${name}: fragment kinds, ords, charCount, identity`, () => {
			const entries = parseWhole(fixtureBytes(name)).entries;
			const events = entries.map(projectEntry);
			expect(kindCounts(events)).toEqual(kinds);
			events.forEach((e, i) => {
				expect(e.seq).toBe(entries[i].seq);
				expect(e.entryId).toBe(entries[i].id);
				expect(e.parentId).toBe(entries[i].parentId);
				expect([e.lineNo, e.byteStart, e.byteEnd]).toEqual([
					entries[i].lineNo,
					entries[i].byteStart,
					entries[i].byteEnd,
				]);
				e.fragments.forEach((f, ord) => {
					expect(f.ord).toBe(ord);
					expect(f.text.trim()).not.toBe("");
					expect(f.charCount).toBe([...f.text].length);
				});
				for (const v of Object.values(e.attributes))
					if (typeof v === "string") expect([...v].length).toBeLessThanOrEqual(200);
			});
		});
	}

	it("large-session (v1): role counts, error events, and no thinking text anywhere", () => {
		const events = project("pi-mono-v1/large-session.jsonl");
		expect(roleCounts(events)).toEqual({
			"message:user": 88,
			"message:assistant": 453,
			"message:toolResult": 373,
			thinking_level_change: 103,
			model_change: 1,
		});
		expect(events.filter((e) => e.role === "assistant" && e.isError)).toHaveLength(1);
		expect(events.filter((e) => e.role === "toolResult" && e.isError)).toHaveLength(19);
		expect(events[1].attributes).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
		expect(events[1].fragments).toEqual([
			{ ord: 0, kind: "assistant_text", text: "Request was aborted", charCount: 19 },
		]);
		assertNoThinking(events, "pi-mono-v1/large-session.jsonl", ["The user wants me to use the thinking feature"]);
	});

	it("before-compaction (v1): roles, bash executions, compaction links and file evidence", () => {
		const events = project("pi-mono-v1/before-compaction.jsonl");
		expect(roleCounts(events)).toEqual({
			"message:user": 55,
			"message:assistant": 484,
			"message:toolResult": 448,
			"message:bashExecution": 3,
			thinking_level_change: 5,
			model_change: 5,
			compaction: 2,
		});
		const comps = events.filter((e) => e.entryType === "compaction");
		expect(comps.map((c) => [c.linkId, c.attributes.tokensBefore])).toEqual([
			["v1-293", 175004],
			["v1-551", 185014],
		]);
		const bash = events.filter((e) => e.role === "bashExecution");
		expect(bash[0].fragments.map((f) => [f.kind, f.text.slice(0, 9)])).toEqual([
			["bash_command", "ls"],
			["bash_output", "AGENTS.md"],
		]);
		expect(bash[0]).toMatchObject({ isError: false, attributes: { exitCode: 0, cancelled: false, truncated: false } });
		// The `write` call on line 26 names its file; tool calls keep name, argument keys and raw string values.
		const write = events.find((e) => e.lineNo === 26);
		expect(write?.files).toEqual(["/Users/badlogic/workspaces/pi-mono/packages/coding-agent/docs/refactor.md"]);
		const call = write?.fragments.find((f) => f.kind === "tool_call");
		expect(call?.toolName).toBe("write");
		expect(call?.toolCallId).toBe("toolu_01Xt4pFeRqFqxri1aV3XLAmF");
		expect(
			call?.text.startsWith(
				"write\npath: /Users/badlogic/workspaces/pi-mono/packages/coding-agent/docs/refactor.md\ncontent: # Coding Agent Refactoring Plan\n\n## Status\n",
			),
		).toBe(true);
		assertNoThinking(events, "pi-mono-v1/before-compaction.jsonl", [
			"The user wants to expand AgentSession to be m",
			"The user wants me to create a git branch call",
			"The user is asking if this refactoring will m",
		]);
	});

	it("v1 before and after Pi's in-place migration: same events and fragment texts, different ids", () => {
		const before = project("pi-0.73.1/v1-before-migration.jsonl");
		const after = project("pi-0.73.1/v1-after-migration.jsonl");
		expect(after).toHaveLength(before.length);
		const view = (e: ProjectedEvent) => ({
			type: e.entryType,
			role: e.role,
			fragments: e.fragments,
			attributes: e.attributes,
			isError: e.isError,
		});
		expect(after.map(view)).toEqual(before.map(view));
		expect(after.map((e) => e.entryId)).not.toEqual(before.map((e) => e.entryId));
		// hookMessage (v2 name) and custom (v3 name) are the same role.
		expect(before[3].role).toBe("custom");
		expect(before[3].fragments[0]).toMatchObject({ kind: "custom_message", text: "x" });
	});

	it("rich-tree-compaction: every entry type's projection", () => {
		const ev = project("pi-0.73.1/rich-tree-compaction.jsonl");
		const by = (id: string) => ev.find((e) => e.entryId === id) as ProjectedEvent;
		expect(by("be0b1611")).toMatchObject({
			entryType: "model_change",
			attributes: { provider: "faux", modelId: "faux-1" },
			fragments: [],
		});
		expect(by("e2ded057")).toMatchObject({ attributes: { thinkingLevel: "off" }, fragments: [] });
		// The assistant's thinking block ("plan") is dropped; the tool call is a fragment.
		expect(by("84051c10")).toMatchObject({
			role: "assistant",
			toolName: "event_search",
			isError: false,
			attributes: { provider: "faux", model: "faux-1", stopReason: "toolUse" },
			fragments: [
				{ ord: 0, kind: "tool_call", text: "event_search\nquery: foo", toolName: "event_search", toolCallId: "call_A" },
			],
		});
		expect(by("1c165423")).toMatchObject({
			role: "toolResult",
			toolName: "event_search",
			toolCallId: "call_A",
			isError: false,
			fragments: [{ kind: "tool_result", text: "hits for foo" }],
		});
		expect(by("5e8c7032")).toMatchObject({
			sessionName: "My indexed session",
			fragments: [{ kind: "session_name", text: "My indexed session" }],
		});
		expect(by("da4417ab")).toMatchObject({
			linkId: "84051c10",
			attributes: { label: "checkpoint" },
			fragments: [{ kind: "label", text: "checkpoint" }],
		});
		expect(by("31e94dc5")).toMatchObject({
			linkId: "ca92c2d6",
			attributes: { fromHook: false },
			fragments: [{ kind: "branch_summary" }],
		});
		expect(by("6d35745e")).toMatchObject({
			linkId: "be0b1611",
			attributes: { tokensBefore: 2258, fromHook: false },
			fragments: [{ kind: "compaction_summary", text: "## Goal\ncompaction summary text" }],
		});
		expect(by("734741ac")).toMatchObject({
			attributes: { customType: "x", display: true },
			fragments: [{ kind: "custom_message", text: "y" }],
		});
		for (const e of ev) for (const f of e.fragments) expect(f.text).not.toBe("plan");
	});
});

describe("projectEntry of Pi 1.x entries (fixtures/pi-1.6)", () => {
	const ev = project("pi-1.6/sdk-retry-tree-compact.jsonl");
	const ofType = (type: string) => ev.filter((e) => e.entryType === type);
	const raw = new TextDecoder().decode(fixtureBytes("pi-1.6/sdk-retry-tree-compact.jsonl"));
	const allText = ev.flatMap((e) => [...e.fragments.map((f) => f.text), ...Object.values(e.attributes).map(String)]);

	it("a system message is an event without fragments: Pi's prompt is never indexed", () => {
		const system = ev.filter((e) => e.role === "system");
		expect(system).toHaveLength(1);
		expect(system[0]).toMatchObject({ entryType: "message", fragments: [], attributes: {} });
		// Its prompt sections (and the compaction's systemMessage checkpoint) are in the file, not in any fragment.
		const probe = "You are a coding assistant running inside pi";
		expect(raw.includes(probe)).toBe(true);
		expect(allText.some((t) => t.includes(probe))).toBe(false);
		// A later system message with text content (a prompt patch) is not indexed either.
		expect(msg({ role: "system", content: "Always answer in French.", sections: { x: "y" } })).toMatchObject({
			role: "system",
			fragments: [],
		});
	});

	it("a context edit links to the attempt it omits; a usage entry is an event without text", () => {
		const [edit] = ofType("context_edit");
		const failed = ev.find((e) => e.entryId === edit.linkId) as ProjectedEvent;
		expect(edit).toMatchObject({ attributes: { edit: "omit" }, fragments: [] });
		expect(failed).toMatchObject({ role: "assistant", isError: true, attributes: { stopReason: "error" } });
		expect(
			projectEntry(mk({ type: "context_edit", targetId: "t1", replacement: { content: "shorter" } })),
		).toMatchObject({ linkId: "t1", attributes: { edit: "replace" }, fragments: [] });
		expect(ofType("usage")).toMatchObject([
			{ attributes: { usageKind: "cache_warm", provider: "faux", model: "faux-1" }, fragments: [] },
		]);
	});
});

function assertNoThinking(events: ProjectedEvent[], name: string, probes: string[]): void {
	const all = events
		.flatMap((e) => [...e.fragments.map((f) => f.text), ...Object.values(e.attributes).map(String)])
		.join("\n");
	for (const p of probes) expect(all.includes(p)).toBe(false);
	// And every thinking block of the file, whole.
	const raw = new TextDecoder().decode(fixtureBytes(name));
	let n = 0;
	for (const line of raw.split("\n")) {
		if (!line.includes('"thinking"')) continue;
		const content = JSON.parse(line).message?.content;
		if (!Array.isArray(content)) continue;
		for (const b of content) {
			if (b.type === "thinking" && b.thinking.length > 40) {
				n++;
				expect(all.includes(b.thinking)).toBe(false);
			}
		}
	}
	expect(n).toBeGreaterThan(0);
	// The probe strings really are in the file (so the absence above means something).
	for (const p of probes) expect(raw.includes(p)).toBe(true);
}

describe("projectEntry, entry by entry", () => {
	it("user text: string or text blocks (joined with newlines), images skipped, blanks dropped", () => {
		expect(msg({ role: "user", content: "hello" }).fragments).toEqual([
			{ ord: 0, kind: "user_text", text: "hello", charCount: 5 },
		]);
		const blocks = msg({
			role: "user",
			content: [
				{ type: "text", text: "a" },
				{ type: "image", data: "QUJDREVGRw==", mimeType: "image/png" },
				{ type: "text", text: "b" },
			],
		});
		expect(blocks.fragments.map((f) => f.text)).toEqual(["a\nb"]);
		expect(JSON.stringify(blocks)).not.toContain("QUJDREVGRw==");
		expect(msg({ role: "user", content: "   " }).fragments).toEqual([]);
		expect(msg({ role: "user", content: [] }).fragments).toEqual([]);
	});

	it("assistant: text and tool calls in order, thinking never, errorMessage searchable, stopReason error is an error", () => {
		const e = msg({
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "SECRET-REASONING", thinkingSignature: "SIG" },
				{ type: "text", text: "first" },
				{ type: "toolCall", id: "c1", name: "read", arguments: { path: "/a.ts", offset: 3 } },
				{ type: "text", text: "" },
				{
					type: "toolCall",
					id: "c2",
					name: "edit",
					arguments: { file_path: "/b.ts", paths: ["/c.ts", 5, "/a.ts"], filePath: "/d.ts" },
				},
				{ type: "text", text: "second" },
			],
			provider: "anthropic",
			model: "m",
			stopReason: "error",
			errorMessage: "rate limited: 429",
		});
		expect(e.fragments.map((f) => [f.ord, f.kind, f.text, f.toolName, f.toolCallId])).toEqual([
			[0, "assistant_text", "first", undefined, undefined],
			[1, "tool_call", "read\npath: /a.ts\noffset: 3", "read", "c1"],
			[
				2,
				"tool_call",
				"edit\nfile_path: /b.ts\npaths[0]: /c.ts\npaths[1]: 5\npaths[2]: /a.ts\nfilePath: /d.ts",
				"edit",
				"c2",
			],
			[3, "assistant_text", "second", undefined, undefined],
			[4, "assistant_text", "rate limited: 429", undefined, undefined],
		]);
		expect(e.isError).toBe(true);
		expect(e.toolName).toBe("read");
		expect(e.files).toEqual(["/a.ts", "/b.ts", "/d.ts", "/c.ts"]);
		expect(e.attributes).toEqual({
			provider: "anthropic",
			model: "m",
			stopReason: "error",
			errorMessage: "rate limited: 429",
		});
		const json = JSON.stringify(e);
		expect(json).not.toContain("SECRET-REASONING");
		expect(json).not.toContain("SIG");
		expect(msg({ role: "assistant", content: [], stopReason: "aborted" })).toMatchObject({
			isError: false,
			fragments: [],
		});
	});

	it("tool call arguments render verbatim strings, nested keys, and bounded depth, after the tool's name", () => {
		expect(
			renderToolCall("bash", {
				command: "echo 'a'\necho \"b\"",
				opts: { deep: { x: true } },
				list: [],
				none: null,
			}),
		).toBe("bash\ncommand: echo 'a'\necho \"b\"\nopts.deep.x: true\nlist: []\nnone: null");
		let deep: unknown = "leaf";
		for (let i = 0; i < 100_000; i++) deep = [deep];
		const text = renderToolCall("t", { d: deep });
		expect(text).toMatch(/^t\nd\[0\](\[0\]){14}: …$/);
		expect(renderToolCall("bash", undefined)).toBe("bash");
		expect(renderToolCall("bash", "")).toBe("bash");
		expect(renderToolCall("bash", "raw string args")).toBe("bash\nraw string args");
		expect(renderToolCall("t", 0)).toBe("t\n0");
	});

	it("tool results: text joined, images skipped, isError and ids carried by the event alone", () => {
		const e = msg({
			role: "toolResult",
			toolCallId: "c9",
			toolName: "bash",
			content: [
				{ type: "text", text: "out1" },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
				{ type: "text", text: "out2" },
			],
			details: { huge: "not indexed" },
			isError: true,
		});
		expect(e).toMatchObject({ toolName: "bash", toolCallId: "c9", isError: true, role: "toolResult" });
		expect(e.fragments).toEqual([{ ord: 0, kind: "tool_result", text: "out1\nout2", charCount: 9 }]);
		expect(JSON.stringify(e)).not.toContain("not indexed");
	});

	it("bash executions: command and output, error on non-zero exit or cancel", () => {
		const run = (extra: Record<string, unknown>) =>
			msg({ role: "bashExecution", command: "make", output: "", cancelled: false, truncated: true, ...extra });
		expect(run({ exitCode: 2 })).toMatchObject({
			isError: true,
			attributes: { exitCode: 2, cancelled: false, truncated: true },
		});
		expect(run({ exitCode: 2 }).fragments.map((f) => f.kind)).toEqual(["bash_command"]);
		expect(run({ exitCode: 0 }).isError).toBe(false);
		expect(run({ exitCode: undefined, cancelled: true })).toMatchObject({
			isError: true,
			attributes: { exitCode: null, cancelled: true },
		});
		expect(run({ exitCode: 0, excludeFromContext: true }).attributes.excludeFromContext).toBe(true);
	});

	it("custom messages (entry and role), custom entries, labels, session names, unknown types", () => {
		expect(
			projectEntry(
				mk({ type: "custom_message", customType: "note", display: false, content: [{ type: "text", text: "hi" }] }),
			),
		).toMatchObject({
			attributes: { customType: "note", display: false },
			fragments: [{ kind: "custom_message", text: "hi" }],
		});
		const custom = projectEntry(mk({ type: "custom", customType: "state", data: { secretish: "extension state" } }));
		expect(custom).toMatchObject({ attributes: { customType: "state" }, fragments: [] });
		expect(JSON.stringify(custom)).not.toContain("extension state");
		expect(projectEntry(mk({ type: "label", targetId: "t1" }))).toMatchObject({
			linkId: "t1",
			attributes: { label: "" },
			fragments: [],
		});
		expect(projectEntry(mk({ type: "session_info", name: "  My name  " }))).toMatchObject({
			sessionName: "My name",
			fragments: [{ kind: "session_name", text: "My name" }],
		});
		expect(projectEntry(mk({ type: "session_info" }))).toMatchObject({ sessionName: "", fragments: [] });
		expect(projectEntry(mk({ type: "future_kind", text: "whatever" }))).toMatchObject({
			entryType: "future_kind",
			fragments: [],
			attributes: {},
		});
		expect(msg({ role: "hookMessage", customType: "h", content: "x", display: true })).toMatchObject({
			role: "custom",
			fragments: [{ kind: "custom_message", text: "x" }],
		});
	});

	it("summaries: links, tokens and file evidence from details", () => {
		const c = projectEntry(
			mk({
				type: "compaction",
				summary: "sum",
				firstKeptEntryId: "k1",
				tokensBefore: 99,
				details: { readFiles: ["/r.ts"], modifiedFiles: ["/m.ts", "/r.ts"] },
			}),
		);
		expect(c).toMatchObject({ linkId: "k1", files: ["/r.ts", "/m.ts"], attributes: { tokensBefore: 99 } });
		const b = projectEntry(mk({ type: "branch_summary", fromId: "root", summary: "", details: null }));
		expect(b).toMatchObject({ linkId: "root", fragments: [], files: [] });
	});

	it("never throws on odd shapes", () => {
		const odd: Record<string, unknown>[] = [
			{ type: "message" },
			{ type: "message", message: null },
			{ type: "message", message: "str" },
			{ type: "message", message: { role: 5, content: { a: 1 } } },
			{ type: "message", message: { role: "assistant", content: [null, 1, "x", { type: "toolCall" }] } },
			{ type: "message", message: { role: "toolResult", content: "plain" } },
			{ type: "compaction", summary: 5, details: [1] },
			{ type: "label", label: 7 },
		];
		for (const raw of odd) expect(() => projectEntry(mk(raw))).not.toThrow();
		expect(
			projectEntry(mk({ type: "message", message: { role: "toolResult", content: "plain" } })).fragments[0].text,
		).toBe("plain");
	});

	it("counts code points and bounds attribute strings without splitting surrogate pairs", () => {
		expect(codePointLength("a😀b")).toBe(3);
		expect(codePointLength("\uD800x")).toBe(2);
		const long = "😀".repeat(300);
		const bounded = boundString(long, 200);
		expect([...bounded].length).toBe(200);
		expect(bounded.endsWith("…")).toBe(true);
		expect(boundString("😀".repeat(200), 200)).toBe("😀".repeat(200));
		const e = msg({ role: "assistant", content: [], errorMessage: "e".repeat(5000), stopReason: "error" });
		expect((e.attributes.errorMessage as string).length).toBe(200);
		expect(e.fragments[0].charCount).toBe(5000);
	});
});
