/** File evidence of shell commands: the words that name files, split as a shell splits them. */
import { describe, expect, it } from "vitest";
import type { ParsedEntry } from "../../src/parse/types.js";
import { pathsFromCommand } from "../../src/project/command-paths.js";
import { projectEntry } from "../../src/project/project-entry.js";
import { pathsFromArguments } from "../../src/project/render-arguments.js";

describe("pathsFromCommand", () => {
	it.each([
		["cat src/billing/retry.ts", ["src/billing/retry.ts"]],
		["npx vitest run test/billing/retry.test.ts 2>&1 | tail -5", ["test/billing/retry.test.ts"]],
		["pytest tests/test_retry.py::TestBudget::test_max -x", ["tests/test_retry.py"]],
		["sed -n 10,40p 'src/my dir.ts' && grep -n foo src/a.ts:12", ["src/a.ts"]],
		['git diff -- "src/x.ts" README.md', ["src/x.ts", "README.md"]],
		["node --import=./loader.mjs main.js > out/log.txt", ["./loader.mjs", "main.js", "out/log.txt"]],
		["OUT=dist/app.js npm run build; echo $OUT", ["dist/app.js"]],
		["cd packages/core && ls", ["packages/core"]],
		["python -c 'import os; print(os.path)' setup.py", ["setup.py"]],
		["git show HEAD~1:src/x.ts", ["src/x.ts"]],
		["curl https://example.com/a.json -o data/a.json", ["data/a.json"]],
		["find . -name '*.ts' -newer 1.5", []],
		["echo v1.2.3 $HOME/x.ts", []],
		["cat > notes/plan.md << 'EOF'\nuse self.assertEqual in tests/x.py\nEOF\ncat notes/plan.md", ["notes/plan.md"]],
		["ls .env .gitignore ..", [".env", ".gitignore"]],
	])("%j", (command, expected) => {
		expect(pathsFromCommand(command)).toEqual(expected);
	});

	it("ignores what is not a command", () => {
		expect(pathsFromCommand(undefined)).toEqual([]);
		expect(pathsFromCommand(42)).toEqual([]);
		expect(pathsFromCommand("")).toEqual([]);
	});

	it("keeps at most 64 paths of a command", () => {
		const command = `cat ${Array.from({ length: 100 }, (_, i) => `f${i}.ts`).join(" ")}`;
		expect(pathsFromCommand(command)).toHaveLength(64);
	});
});

describe("file evidence of calls and commands", () => {
	it("a tool call's paths: its path arguments, then the files its command names", () => {
		expect(pathsFromArguments({ path: "a.ts", command: "cat b.ts a.ts" })).toEqual(["a.ts", "b.ts"]);
	});

	const entry = (message: Record<string, unknown>): ParsedEntry =>
		({
			seq: 0,
			id: "e1",
			parentId: null,
			type: "message",
			timestamp: "2026-01-01T00:00:00.000Z",
			lineNo: 2,
			byteStart: 0,
			byteEnd: 1,
			raw: { type: "message", message },
		}) as unknown as ParsedEntry;

	it("each tool call fragment carries its own paths; the event all of them", () => {
		const e = projectEntry(
			entry({
				role: "assistant",
				content: [
					{ type: "text", text: "reading both" },
					{ type: "toolCall", id: "c1", name: "read", arguments: { path: "src/a.ts" } },
					{ type: "toolCall", id: "c2", name: "bash", arguments: { command: "pytest tests/test_b.py" } },
				],
			}),
		);
		expect(e.fragments.map((f) => [f.kind, f.files])).toEqual([
			["assistant_text", undefined],
			["tool_call", ["src/a.ts"]],
			["tool_call", ["tests/test_b.py"]],
		]);
		expect(e.files).toEqual(["src/a.ts", "tests/test_b.py"]);
	});

	it("a ! command's files are its event's", () => {
		const e = projectEntry(entry({ role: "bashExecution", command: "cat src/a.ts", output: "x", exitCode: 0 }));
		expect(e.files).toEqual(["src/a.ts"]);
	});
});
