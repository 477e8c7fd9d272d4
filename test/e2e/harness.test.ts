/**
 * Proves the real-Pi harness: the faux provider drives the real `pi` CLI through an extension tool, `-c` appends
 * to the same file, two pi processes run at once on one agent dir, Pi's session-dir rules match src/config, and
 * the SDK helper writes a session with real `bash` and `read` results.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { effectiveSessionDir, sessionRoots } from "../../src/config/pi-paths.js";
import {
	listSessionFiles,
	type RunPiResult,
	readJsonl,
	runPi,
	SMOKE_EXTENSION,
	sessionMessages,
	writeScript,
} from "../helpers/pi-cli.js";
import { writeSession } from "../helpers/pi-sdk.js";

let tmp: string;
let agentDir: string;
let cwd: string;
let echoScript: string;

beforeAll(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pi-harness-")));
	agentDir = join(tmp, "agent");
	cwd = join(tmp, "project");
	mkdirSync(cwd, { recursive: true });
	// Calls smoke_echo with the prompt's text, then answers from the tool's result.
	echoScript = writeScript(
		tmp,
		"echo.mjs",
		`export const responses = [
	(context, h) => ({ toolCalls: [{ name: "smoke_echo", arguments: { text: h.lastUserText() } }] }),
	(context, h) => "answer from tool: " + h.lastToolResultText(),
];
`,
	);
});

afterAll(() => {
	rmSync(tmp, { recursive: true, force: true });
});

function expectOk(result: RunPiResult): void {
	expect(result.timedOut, result.stderr).toBe(false);
	expect(result.exitCode, result.stderr).toBe(0);
}

describe("real pi CLI with the faux provider", () => {
	let first: RunPiResult;

	it("calls an extension tool and answers from its result; the tool result is in the session JSONL", async () => {
		first = await runPi({ agentDir, cwd, script: echoScript, extensions: [SMOKE_EXTENSION], args: ["alpha one"] });
		expectOk(first);
		expect(first.stdout.trim()).toBe("answer from tool: ECHO:ALPHA ONE");
		expect(first.sessionFile).toBeDefined();
		expect(first.sessionFiles).toEqual([first.sessionFile]);
		// Pi put it where src/config says Pi puts it.
		expect(dirname(first.sessionFile as string)).toBe(effectiveSessionDir({ cwd, agentDir, env: {} }).path);
		expect(listSessionFiles(agentDir)).toEqual([first.sessionFile]);

		const records = readJsonl(first.sessionFile as string);
		expect(records[0]).toMatchObject({ type: "session", version: 3, cwd, id: first.reports[0].sessionId });
		const messages = sessionMessages(records);
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		const call = (messages[1].content as Array<Record<string, unknown>>)[0];
		expect(call).toMatchObject({ type: "toolCall", name: "smoke_echo", arguments: { text: "alpha one" } });
		expect(messages[2]).toMatchObject({
			role: "toolResult",
			toolName: "smoke_echo",
			toolCallId: call.id,
			isError: false,
			content: [{ type: "text", text: "ECHO:ALPHA ONE" }],
			details: { sessionId: first.reports[0].sessionId, sessionFile: first.sessionFile },
		});
		expect(messages[3].content).toEqual([{ type: "text", text: "answer from tool: ECHO:ALPHA ONE" }]);
	});

	it("-c appends to the same session file without rewriting what was there", async () => {
		const before = readFileSync(first.sessionFile as string, "utf8");
		const second = await runPi({
			agentDir,
			cwd,
			script: echoScript,
			extensions: [SMOKE_EXTENSION],
			args: ["-c", "beta two"],
		});
		expectOk(second);
		expect(second.stdout.trim()).toBe("answer from tool: ECHO:BETA TWO");
		expect(second.sessionFile).toBe(first.sessionFile);
		const after = readFileSync(first.sessionFile as string, "utf8");
		expect(after.startsWith(before)).toBe(true);
		const records = readJsonl(first.sessionFile as string);
		expect(records.filter((record) => record.type === "session")).toHaveLength(1);
		const appended = sessionMessages(readJsonl(first.sessionFile as string)).slice(4);
		expect(appended.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(appended[2]).toMatchObject({ toolName: "smoke_echo", content: [{ type: "text", text: "ECHO:BETA TWO" }] });
		// The first appended entry continues the old leaf.
		const oldLast = readJsonl(first.sessionFile as string)[before.trim().split("\n").length - 1];
		const firstNew = records[before.trim().split("\n").length];
		expect(firstNew.parentId).toBe(oldLast.id);
	});

	it("runs two pi processes at once on one agent dir, each writing its own session", async () => {
		const barrier = join(tmp, "barrier");
		mkdirSync(barrier, { recursive: true });
		// Each process waits (inside a model turn) until the other has reached the same point: proves overlap.
		const script = writeScript(
			tmp,
			"barrier.mjs",
			`import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
export const responses = [
	async (context, h) => {
		const dir = process.env.BARRIER_DIR, me = process.env.BARRIER_ME, other = process.env.BARRIER_OTHER;
		writeFileSync(join(dir, me), "");
		const deadline = Date.now() + 15000;
		while (!existsSync(join(dir, other)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
		const met = existsSync(join(dir, other)) ? "met" : "alone";
		return { toolCalls: [{ name: "smoke_echo", arguments: { text: me + "-" + met } }] };
	},
	(context, h) => h.lastToolResultText(),
];
`,
		);
		const run = (me: string, other: string) =>
			runPi({
				agentDir,
				cwd,
				script,
				extensions: [SMOKE_EXTENSION],
				env: { BARRIER_DIR: barrier, BARRIER_ME: me, BARRIER_OTHER: other },
				args: [`prompt ${me}`],
			});
		const [a, b] = await Promise.all([run("a", "b"), run("b", "a")]);
		expectOk(a);
		expectOk(b);
		expect(a.stdout.trim()).toBe("ECHO:A-MET");
		expect(b.stdout.trim()).toBe("ECHO:B-MET");
		expect(a.sessionFile).toBeDefined();
		expect(b.sessionFile).toBeDefined();
		expect(a.sessionFile).not.toBe(b.sessionFile);
		for (const [result, me] of [
			[a, "a"],
			[b, "b"],
		] as const) {
			const messages = sessionMessages(readJsonl(result.sessionFile as string));
			expect(messages[0].content).toEqual([{ type: "text", text: `prompt ${me}` }]);
			expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		}
		expect(listSessionFiles(agentDir)).toEqual(
			[first.sessionFile as string, a.sessionFile as string, b.sessionFile as string].sort(),
		);
	});

	it("with no script the model says done; a project settings sessionDir moves the file where src/config says", async () => {
		const other = join(tmp, "other-project");
		mkdirSync(join(other, ".pi"), { recursive: true });
		writeFileSync(join(other, ".pi", "settings.json"), JSON.stringify({ sessionDir: "relative-sessions" }));
		const result = await runPi({ agentDir, cwd: other, args: ["hello"] });
		expectOk(result);
		expect(result.stdout.trim()).toBe("done");
		const expected = effectiveSessionDir({ cwd: other, agentDir, env: {} });
		expect(expected).toMatchObject({ path: join(other, "relative-sessions"), source: "project-settings" });
		expect(dirname(result.sessionFile as string)).toBe(expected.path);
		// A Pi fact the extension must handle: getSessionFile() is relative when the session dir is.
		expect(result.reports[0].sessionFile?.startsWith("relative-sessions/")).toBe(true);
		const roots = sessionRoots({ cwd: other, agentDir, env: {}, currentFile: result.sessionFile });
		expect(roots[0]).toEqual({ path: expected.path, kind: "effective", recursive: false });
		expect(roots.some((root) => root.path === dirname(first.sessionFile as string))).toBe(true);
	});
});

describe("in-process SDK helper", () => {
	it("writes a session whose tool results come from Pi's real bash and read tools", async () => {
		const work = join(tmp, "sdk-work");
		const sessionDir = join(tmp, "sdk-sessions");
		mkdirSync(work, { recursive: true });
		writeFileSync(join(work, "notes.txt"), "the secret word is pelican\n");
		const written = await writeSession({
			cwd: work,
			sessionDir,
			turns: [
				{
					prompt: "run something",
					responses: [
						{ toolCalls: [{ name: "bash", arguments: { command: "echo marker-$((6*7)) && pwd" } }] },
						(_context, h) => ({
							toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }],
							text: h.lastToolResultText(),
						}),
						(_context, h) => `read back: ${h.lastToolResultText().trim()}`,
					],
				},
				{ prompt: "and again", responses: ["second turn answer"] },
			],
		});
		expect(dirname(written.sessionFile)).toBe(sessionDir);
		const records = readJsonl(written.sessionFile);
		expect(records[0]).toMatchObject({ type: "session", id: written.sessionId, cwd: work });
		const messages = sessionMessages(records);
		expect(messages.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"toolResult",
			"assistant",
			"user",
			"assistant",
		]);
		const bash = messages[2];
		expect(bash).toMatchObject({ role: "toolResult", toolName: "bash", isError: false });
		expect(JSON.stringify(bash.content)).toContain("marker-42");
		expect(JSON.stringify(bash.content)).toContain(work);
		expect(messages[4]).toMatchObject({ toolName: "read", isError: false });
		expect(JSON.stringify(messages[4].content)).toContain("the secret word is pelican");
		expect(messages[5].content).toEqual([{ type: "text", text: "read back: the secret word is pelican" }]);
		expect(messages[7].content).toEqual([{ type: "text", text: "second turn answer" }]);
	});
});
