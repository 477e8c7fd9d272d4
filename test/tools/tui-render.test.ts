/**
 * The tools' rows as Pi draws them, through the real renderCall/renderResult with Pi's real theme, at 80 and 160
 * columns: every line fits the width, collapsed rows say what was found, expanded rows are laid out for the screen
 * (not the model's key=value text), paths keep their project name, and the query shows as typed with every filter.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import type { Theme } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { Coverage, EventReadResult, EventSearchHit, EventSearchResult, EventTrace } from "../../src/contract.js";
import { renderSearchText } from "../../src/tools/render-text.js";
import { shortenPathLeft } from "../../src/tools/screen-text.js";
import { type EventToolName, renderCallFor, renderResultFor } from "../../src/tools/tui-render.js";
import { tuiWidth } from "../../src/tools/tui-width.js";

/**
 * The Pi this runtime can load: Pi 1.x (Node ≥ 22.19, the `test:node22` run) or else Pi 0.73 (Node 20), so that the
 * rows are checked against the Theme of each supported Pi.
 */
const pi: { name: string; Theme: new (...args: never[]) => Theme } = await import("@earendil-works/pi-coding-agent")
	.then((m) => ({ name: "@earendil-works/pi-coding-agent", Theme: m.Theme }))
	.catch(() =>
		import("@mariozechner/pi-coding-agent").then((m) => ({
			name: "@mariozechner/pi-coding-agent",
			Theme: m.Theme as unknown as new (...args: never[]) => Theme,
		})),
	);
const { visibleWidth } = tuiWidth();

/** Pi's real Theme class over the dark theme's colour names (256-colour codes), so rows carry real escapes. */
function darkTheme(): Theme {
	const main = fileURLToPath(import.meta.resolve(pi.name));
	const json = JSON.parse(readFileSync(join(dirname(main), "modes/interactive/theme/dark.json"), "utf8")) as {
		colors: Record<string, unknown>;
	};
	const bgKeys = new Set([
		"selectedBg",
		"userMessageBg",
		"customMessageBg",
		"toolPendingBg",
		"toolSuccessBg",
		"toolErrorBg",
	]);
	const fg: Record<string, number> = {};
	const bg: Record<string, number> = {};
	Object.keys(json.colors).forEach((key, i) => {
		(bgKeys.has(key) ? bg : fg)[key] = 16 + i;
	});
	return new pi.Theme(fg as never, bg as never, "256color" as never);
}
const theme = darkTheme();
const CWD = "/home/dev/projects/amber-north";
/** Escape sequences out, so content assertions read the text as people see it. */
const plain = (lines: readonly string[]) => lines.map((l) => stripVTControlCharacters(l));

const partial: Coverage = {
	known: 417,
	indexed: 120,
	pending: 297,
	failed: 0,
	rebuilding: false,
	partial: true,
	note: "partial: 120 of 417 session files indexed, 297 pending, catch-up running",
};

function hit(i: number, over: Partial<EventSearchHit> = {}): EventSearchHit {
	return {
		sessionId: `019cc284-117${i}-7000-8000-00000000000${i}`,
		sessionName: "Amber lighthouse work",
		cwd: "/home/dev/some/very/deeply/nested/workspace/directory/projects/amber-north-lighthouse-service",
		entryId: `253f41d${i}`,
		entryType: "message",
		matchingFragmentId: `253f41d${i}#0`,
		semanticKind: i === 1 ? "user_text" : "tool_result",
		timestamp: `2026-12-0${i}T14:18:28.359Z`,
		branchState: "selected",
		selectionState: "direct",
		snippet: `snippet ${i}: ${i === 1 ? "" : "日本語の説明 😀 "}the amber lighthouse protocol ${"says a great many things about keepers and lamps ".repeat(6)}`,
		matchingFragmentCount: 1,
		role: i === 1 ? "user" : "toolResult",
		...(i === 1 ? {} : { toolName: "bash" }),
		...over,
	};
}

const search: EventSearchResult = {
	hits: [1, 2, 3, 4, 5].map((i) => hit(i)),
	truncated: true,
	limit: 5,
	coverage: partial,
};

const read: EventReadResult = {
	event: {
		sessionId: "019cc284-1171-7000-8000-000000000001",
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
		sessionName: "Deploy work",
	},
	fragments: [
		{
			fragmentId: "9498ba66#0",
			semanticKind: "tool_result",
			toolName: "bash",
			text: {
				text: `\nDeploying amber-north to staging\n${"a long output line with many words in it ".repeat(8)}\n…\ntail`,
				totalChars: 45_000,
				shownRanges: [{ start: 0, end: 999 }],
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
				...({} as EventReadResult["event"]),
				entryId: "e32dfc82",
				entryType: "message",
				role: "assistant",
				toolName: "bash",
				timestamp: "2026-12-02T14:18:20.000Z",
			},
			preview: {
				text: `bash\ncommand: ${"deploy --target staging ".repeat(10)}`,
				totalChars: 200,
				shownRanges: [],
				omittedRanges: [],
				truncated: false,
			},
		},
	],
	order: "branch",
	forks: [],
	coverage: { ...partial, partial: false, note: "complete: 417 of 417 session files indexed" },
};

const node = (entryId: string, role: string) => ({
	sessionId: "019cc284-1171-7000-8000-000000000001",
	entryId,
	entryType: "message",
	role,
	timestamp: "2026-12-02T14:18:28.359Z",
	branchState: "selected" as const,
	selectionState: "direct" as const,
	towardLeaf: true,
	preview: { text: "read\npath: a.txt", totalChars: 16, shownRanges: [], omittedRanges: [], truncated: false },
});

const trace: EventTrace = {
	target: node("866ab77e", "assistant"),
	parent: { kind: "parent", node: node("7b791daa", "user"), inferred: false },
	children: [{ kind: "child", node: node("8865de33", "toolResult"), inferred: false }],
	branchSiblings: [],
	related: [
		{ kind: "tool-result", node: node("8865de33", "toolResult"), inferred: false },
		{ kind: "tool-result", node: node("b216db7e", "toolResult"), inferred: false },
		{
			kind: "file",
			file: `${CWD}/src/very/long/path/to/some/module/that/keeps/going/lighthouse-keeper.ts`,
			inferred: true,
		},
	],
	truncated: false,
	coverage: partial,
};

const context = (isError = false) =>
	({
		cwd: CWD,
		isError,
		args: {},
		toolCallId: "t",
		invalidate() {},
		lastComponent: undefined,
		state: {},
		executionStarted: true,
		argsComplete: true,
		isPartial: false,
		expanded: false,
		showImages: false,
	}) as never;

function renderResult(
	tool: EventToolName,
	details: unknown,
	expanded: boolean,
	width: number,
	text = "",
	isError = false,
) {
	const component = renderResultFor(tool)(
		{ content: [{ type: "text", text }], details },
		{ expanded, isPartial: false },
		theme,
		context(isError),
	);
	return component.render(width);
}

const renderCall = (tool: EventToolName, args: Record<string, unknown>, width: number) =>
	renderCallFor(tool)(args, theme, context()).render(width);

function expectFits(lines: readonly string[], width: number) {
	expect(lines.length).toBeGreaterThan(0);
	for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(width);
}

describe.each([80, 160])("at %i columns", (width) => {
	it("event_search: the call shows the query as typed and every filter, cwd and time included", () => {
		const args = {
			query: '"amber lighthouse protocol" keeper',
			cwd: "/home/dev/some/very/deeply/nested/workspace/directory/projects/amber-north",
			time: { from: "2026-12-01", to: "2026-12-31" },
			kinds: ["user_text"],
			paths: ["src/billing/retry.ts", "retry.test.ts"],
			errorOnly: true,
		};
		const lines = renderCall("event_search", args, width);
		expectFits(lines, width);
		const text = plain(lines).join(" ");
		expect(text).toContain('event_search "amber lighthouse protocol" keeper');
		expect(text).not.toContain('\\"');
		expect(text).toMatch(/ cwd=…\/(\w+\/)*projects\/amber-north /);
		expect(text).toContain("time=2026-12-01..2026-12-31");
		expect(text).toContain("kinds=user_text");
		expect(text).toContain("paths=src/billing/retry.ts,retry.test.ts");
		expect(text).toContain("errorOnly");
	});

	it("event_search collapsed: the headline and the top 3 hits, one line each with time, kind and snippet", () => {
		const lines = plain(renderResult("event_search", search, false, width));
		expectFits(lines, width);
		expect(lines[0]).toBe("5 hits (more matched) · partial coverage");
		expect(lines).toHaveLength(5);
		expect(lines[1]).toMatch(/^ {2}2026-12-01 14:18 user_text {2}snippet 1: the amber lighthouse/);
		expect(lines[2]).toMatch(/^ {2}2026-12-02 14:18 tool_result bash {2}snippet 2:/);
		expect(lines[3]).toMatch(/^ {2}2026-12-03 14:18 tool_result bash {2}snippet 3:/);
		expect(lines[4]).toBe("  … 2 more");
	});

	it("event_search expanded: laid out for the screen, cwd kept from the right, ids people can carry", () => {
		const raw = renderSearchText(search, "amber", { cwd: CWD });
		const lines = plain(renderResult("event_search", search, true, width, raw));
		expectFits(lines, width);
		const text = lines.join("\n");
		expect(text).not.toContain("sessionId=");
		expect(lines[1]).toMatch(
			/^1\. 2026-12-01 14:18 user_text {2}"Amber lighth[^·]* · (…\/|\/home\/.*\/)amber-north-lighthouse-service$/,
		);
		expect(lines[2]).toMatch(/^ {3}snippet 1: the amber lighthouse protocol/);
		expect(text).toContain("   019cc284-1171/253f41d1");
		expect(text).toContain("日本語");
		expect(lines.at(-1)).toMatch(/try again in a few seconds\)$/);
		// A hit from the caller's own project names it too (people read names, not ".").
		const own = plain(
			renderResult("event_search", { ...search, hits: [hit(1, { cwd: CWD, sessionName: undefined })] }, true, width),
		);
		expect(own[1]).toMatch(/user_text {2}\/home\/dev\/projects\/amber-north$/);
	});

	it("event_read: collapsed says kind, time and first line; expanded wraps the text to the width", () => {
		const collapsed = plain(renderResult("event_read", read, false, width));
		expectFits(collapsed, width);
		expect(collapsed).toEqual(["tool_result bash 2026-12-02 14:18  Deploying amber-north to staging"]);
		const lines = plain(renderResult("event_read", read, true, width));
		expectFits(lines, width);
		const text = lines.join("\n");
		expect(text).toContain("session 019cc284-1171…");
		expect(text).toContain("entry 9498ba66");
		expect(text).toContain("── 9498ba66#0 tool_result bash · 45000 chars, middle omitted");
		expect(text).toMatch(/\n {2}↑ 2026-12-02 14:18 assistant bash {2}bash ⏎ command: deploy/);
		// The long output line is wrapped, not cut: its words all appear.
		expect(text.match(/a long output line/g)?.length).toBe(8);
	});

	it("event_trace: collapsed gives the edge counts; expanded one line per edge, files kept from the right", () => {
		const collapsed = plain(renderResult("event_trace", trace, false, width));
		expectFits(collapsed, width);
		expect(collapsed.join(" ").replace(/\s+/g, " ")).toBe(
			"parent 1 · children 1 · siblings 0 · related 3 (tool-result 2, file 1) · partial coverage",
		);
		const lines = plain(renderResult("event_trace", trace, true, width));
		expectFits(lines, width);
		const text = lines.join("\n");
		expect(text).toMatch(/\n {2}parent {6}7b791daa 2026-12-02 14:18 user {2}read ⏎ path: a\.txt/);
		expect(text).toContain("lighthouse-keeper.ts");
		expect(text).toMatch(/\n {2}file {8}(…\/|\/home\/).*\/lighthouse-keeper\.ts \(inferred\)\n/);
	});

	it("event_read and event_trace calls show the event as a carried id and every option", () => {
		const lines = plain(
			renderCall(
				"event_read",
				{
					sessionId: "019cc284-1171-7000-8000-000000000001",
					entryId: "9498ba66",
					matchingFragmentId: "9498ba66#0",
					offset: 4000,
					order: "append",
				},
				width,
			),
		);
		expectFits(lines, width);
		expect(lines.join(" ")).toBe("event_read 019cc284-1171/9498ba66 fragment=9498ba66#0 offset=4000 order=append");
		expect(plain(renderCall("event_trace", { sessionId: "019cc284", entryId: "866ab77e", depth: 2 }, width))).toEqual([
			"event_trace 019cc284/866ab77e depth=2",
		]);
	});

	it("an error row is wrapped to the width, a few lines at most", () => {
		const message = `Session id prefix "019c" matches several sessions (${"019cc284-1171-7000-8000-000000000001, ".repeat(5)}); give more characters of the id.`;
		const lines = plain(renderResult("event_read", undefined, false, width, message, true));
		expectFits(lines, width);
		expect(lines.length).toBeLessThanOrEqual(5);
		expect(lines[0]).toMatch(/^Session id prefix "019c" matches several sessions/);
	});
});

describe("shortenPathLeft", () => {
	it("keeps the project name: cuts whole directories from the left", () => {
		expect(shortenPathLeft("/home/dev/projects/amber-north", 40)).toBe("/home/dev/projects/amber-north");
		expect(shortenPathLeft("/home/dev/projects/amber-north", 24)).toBe("…/projects/amber-north");
		expect(shortenPathLeft("/home/dev/projects/amber-north", 14)).toBe("…/amber-north");
		expect(shortenPathLeft("/x/an-extremely-long-project-name", 12)).toBe("…roject-name");
	});
});
