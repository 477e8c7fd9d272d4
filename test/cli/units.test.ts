/** Pure parts of the CLI: the command-line parser and the progress renderers. */
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../src/cli/args.js";
import { formatBytes, formatDuration, oneLine, snippetLine } from "../../src/cli/format.js";
import { createProgress, renderBar, renderLine } from "../../src/cli/progress.js";
import type { CatchUpProgress } from "../../src/contract.js";

describe("parseCommandLine", () => {
	it("takes global options anywhere and collects repeatable options in order", () => {
		const line = parseCommandLine([
			"--root",
			"/a",
			"search",
			"--kind",
			"user_text",
			"hello",
			"--json",
			"--kind=tool_result",
			"world",
			"--root=/b",
			"--agent-dir",
			"/ag",
		]);
		expect(line).toEqual({
			command: "search",
			positionals: ["hello", "world"],
			options: { kind: ["user_text", "tool_result"] },
			globals: {
				roots: ["/a", "/b"],
				agentDir: "/ag",
				all: false,
				json: true,
				debug: false,
				help: false,
				version: false,
			},
		});
	});

	it("rejects what it does not know with a UsageError naming the option", () => {
		expect(() => parseCommandLine(["status", "--nope"])).toThrow(/^unknown option --nope/);
		expect(() => parseCommandLine(["verify", "--full"])).toThrow("option --full does not apply to verify");
		expect(() => parseCommandLine(["search", "x", "--cwd"])).toThrow("option --cwd needs a value");
	});

	it("--help skips the argument count check", () => {
		expect(parseCommandLine(["read", "--help"])).toMatchObject({ command: "read", globals: { help: true } });
	});
});

const progress = (done: number, total: number, elapsedMs: number, bytesRead: number): CatchUpProgress => ({
	total,
	done,
	indexed: done,
	failed: 0,
	removed: 0,
	bytesRead,
	entriesAdded: 0,
	statesChanged: 0,
	elapsedMs,
});

describe("progress", () => {
	it("renders a bar with count, rate and ETA that fits the terminal", () => {
		const line = renderBar("indexing", progress(50, 100, 10_000, 5 * 1024 * 1024), 100);
		expect(line).toMatch(/^indexing \[#+-+\] 50\/100 files 5\.0 files\/s 512\.0 KB\/s ETA 10s$/);
		expect(line.length).toBeLessThan(100);
		expect(renderBar("indexing", progress(50, 100, 10_000, 0), 30).length).toBeLessThanOrEqual(29);
		expect(renderBar("indexing", progress(0, 100, 0, 0), 80)).toContain("ETA --");
	});

	it("renders a quiet line", () => {
		expect(renderLine("indexing", progress(25, 100, 5_000, 2048))).toBe(
			"indexing: 25/100 files (25%), 410 B/s, ETA 15s",
		);
	});

	it("line mode prints at most one line per 5 s and nothing for a short run; bar mode redraws in place", () => {
		let t = 0;
		let out = "";
		const lines = createProgress({ write: (s: string) => (out += s) }, "lines", "indexing", { now: () => t });
		lines.update(progress(1, 10, 100, 10));
		t = 1_000;
		lines.update(progress(2, 10, 1_000, 20));
		expect(out).toBe("");
		t = 6_000;
		lines.update(progress(5, 10, 6_000, 50));
		expect(out).toBe("indexing: 5/10 files (50%), 8 B/s, ETA 6s\n");
		let bar = "";
		const b = createProgress({ write: (s: string) => (bar += s) }, "bar", "indexing", {
			now: () => t,
			columns: () => 80,
		});
		b.update(progress(1, 2, 100, 10));
		b.update(progress(2, 2, 200, 20));
		b.end();
		expect(bar.startsWith("\rindexing [")).toBe(true);
		expect(bar.endsWith("\n")).toBe(true);
		expect(bar).toContain("2/2 files");
	});

	it("formats sizes and durations", () => {
		expect([formatBytes(812), formatBytes(1536), formatBytes(3 * 1024 ** 3)]).toEqual(["812 B", "1.5 KB", "3.0 GB"]);
		expect([formatDuration(850), formatDuration(12_000), formatDuration(185_000), formatDuration(7_440_000)]).toEqual([
			"850ms",
			"12s",
			"3m05s",
			"2h04m",
		]);
	});
});

describe("snippetLine", () => {
	const filler = "filler words about the build ".repeat(8);
	it("regression: keeps a match near the end of a long snippet visible (the line was cut from its start)", () => {
		const snippet = `… ${filler}okapimarker3 at the end`;
		expect(Array.from(snippet).length).toBeGreaterThan(200);
		const line = snippetLine(snippet, ["okapimarker3"]);
		expect(line).toContain("okapimarker3 at the end");
		expect(Array.from(line).length).toBeLessThanOrEqual(200);
		expect(line.startsWith("…")).toBe(true);
	});

	it("cuts a long snippet whose match is early from its start, and leaves a short one whole", () => {
		const early = `needle ${filler}`;
		expect(snippetLine(early, ["needle"])).toBe(oneLine(early, 200));
		expect(snippetLine("a short needle", ["needle"])).toBe("a short needle");
		const quoted = `${filler}the "no such file" error`;
		expect(snippetLine(quoted, ['"no such file"'])).toContain("no such file");
	});
});
