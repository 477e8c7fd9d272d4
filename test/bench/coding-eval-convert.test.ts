/**
 * The coding eval's converter: SpecStory exports (both of their layouts) become Pi v3 sessions that Pi's own
 * SessionManager opens, with the tool uses as Pi tool calls, a failing command's output flagged as an error, and the
 * same bytes (so the same gold entry ids) on every conversion.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { convertExport, headingDate, startOf } from "../../bench/coding-eval/convert.js";
import { diffSides, outputShowsError } from "../../bench/coding-eval/pi-session.js";
import { parseSpecStory } from "../../bench/coding-eval/specstory.js";
import { CURSOR_EXPORT, SAMPLE_EXPORT } from "../helpers/specstory-sample.js";

let dir: string | undefined;
afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("coding eval converter", () => {
	it("parses turns, tool uses and their outputs, and drops thinking", () => {
		const chat = parseSpecStory(SAMPLE_EXPORT);
		expect(chat.title).toBe("Fixing the Invoice Rounding Bug");
		expect(chat.turns.map((t) => t.role)).toEqual(["user", "assistant", "user"]);
		const tools = chat.turns[1].items.flatMap((it) => ("tool" in it ? [it.tool] : []));
		expect(tools.map((t) => [t.kind, t.arg])).toEqual([
			["bash", "pytest tests/test_invoice.py -k total"],
			["read", "billing/invoice.py"],
			["grep", "round("],
			["edit", ""],
			["bash", "pytest tests/test_invoice.py"],
		]);
		expect(tools[0].output).toContain("1 failed");
		expect(JSON.stringify(chat)).not.toContain("zanzibar");
	});

	it("writes a Pi v3 session Pi's SessionManager opens, with Pi tool calls and an error flagged", () => {
		dir = mkdtempSync(join(tmpdir(), "coding-convert-"));
		const spec = { label: "billing/2025-03-04_10-15-invoice", project: "billing", cwd: "/home/dev/billing" };
		const start = startOf({ path: "x/2025-03-04_10-15-invoice.md", commit: "" }, SAMPLE_EXPORT);
		expect(start).toBe("2025-03-04T10:15:00.000Z");
		const session = convertExport(SAMPLE_EXPORT, { ...spec, start }, join(dir, "a"));
		if (!session) throw new Error("no session written");
		const file = join(dir, "a", session.file);
		const sm = SessionManager.open(file, dir);
		const entries = sm.getEntries();
		expect(entries.map((e) => e.id)).toEqual(session.entries.map((e) => e.id));
		expect(sm.getHeader()?.cwd).toBe("/home/dev/billing");
		const calls = session.entries.filter((e) => e.role === "assistant" && e.tool).map((e) => e.tool);
		expect(calls).toEqual(["bash", "read", "grep", "edit", "bash"]);
		const results = session.entries.filter((e) => e.role === "toolResult");
		expect(results.map((e) => e.isError)).toEqual([true, false, false, false, false]);
		const edit = readFileSync(file, "utf8")
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l))
			.flatMap((l) => l.message?.content ?? [])
			.find((b: { type: string; name?: string }) => b.type === "toolCall" && b.name === "edit");
		expect(edit.arguments.path).toBe("billing/invoice.py");
		expect(edit.arguments.newText).toContain("Decimal(l.price)");
		// The same export converts to the same bytes, so questions' gold ids survive a reconversion.
		const again = convertExport(SAMPLE_EXPORT, { ...spec, start }, join(dir, "b"));
		expect(readFileSync(join(dir, "b", again?.file ?? ""), "utf8")).toBe(readFileSync(file, "utf8"));
	});

	it("reads Cursor's own export layout and the dates of export headings", () => {
		const chat = parseSpecStory(CURSOR_EXPORT);
		expect(chat.turns.map((t) => t.role)).toEqual(["user", "assistant"]);
		expect(headingDate(CURSOR_EXPORT)).toBe("2025-06-30T10:50:00.000Z");
		expect(headingDate("## Title (25/02/2025, 03:54:18)")).toBe("2025-02-25T03:54:00.000Z");
		expect(headingDate("## Title (8/22/2024, 2:05:19 PM)")).toBe("2024-08-22T14:05:00.000Z");
	});

	it("tells failing output from passing output, and splits a diff into its sides", () => {
		expect(outputShowsError("Traceback (most recent call last):\n  File x")).toBe(true);
		expect(outputShowsError("src/a.ts(3,1): error TS2304: Cannot find name 'x'.")).toBe(true);
		expect(outputShowsError("12 passed, 0 errors in 1.2s")).toBe(false);
		expect(diffSides("  a\n- b\n+ c")).toEqual({ oldText: "a\nb", newText: "a\nc", removed: 1 });
	});
});
