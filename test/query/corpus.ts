/**
 * Builds a small corpus of session files written by REAL Pi 0.73.1 (SDK, in-process) with the scripted faux
 * provider and the real built-in tools (bash, read). Tree operations (branch with summary, compaction, label,
 * session name, --fork copies, a /fork path copy) use Pi's own SessionManager, exactly as Pi's commands do.
 *
 * Layout under one temp root:
 *   ws/.git, ws/app            the caller's workspace (git root ws) and cwd
 *   other/                     another workspace (never authorized)
 *   agent/sessions/--<enc>--/  session files
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AssistantMessage, fauxAssistantMessage, fauxText, fauxThinking, fauxToolCall } from "@mariozechner/pi-ai";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import type { ScriptStep } from "../fixtures/faux-provider.js";
import { openSdkSession } from "../helpers/pi-sdk.js";

/** Entry ids and files of the generated corpus that tests assert against. */
export interface Corpus {
	root: string;
	agentDir: string;
	workspace: string;
	appCwd: string;
	otherCwd: string;
	/** Main session (workspace). */
	main: { file: string; id: string; entries: Record<string, string> };
	/** `--fork` child of main, and its own `--fork` child (three generations). */
	forkChild: { file: string; id: string; newUserId: string };
	grandChild: { file: string; id: string };
	/** `/fork`-style path copy of main up to `entries.parallelAnswer`. */
	pathCopy: { file: string; id: string };
	/** Session of another workspace. */
	other: { file: string; id: string; userId: string };
	/** The 45,000+ character tool result's text and where its middle marker is (code points). */
	big: { text: string; markerOffset: number };
}

export const MIDDLE_MARKER = "MIDDLEMARKERXYZ";

function sessionDir(agentDir: string, cwd: string): string {
	const enc = `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
	const dir = join(agentDir, "sessions", enc);
	mkdirSync(dir, { recursive: true });
	return dir;
}

interface Entry {
	type: string;
	id: string;
	parentId: string | null;
	message?: { role: string; content?: unknown; toolName?: string };
}

/** Reads a session file's entries (header excluded). */
export function readEntries(file: string): Entry[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l.trim() !== "")
		.map((l) => JSON.parse(l) as Entry)
		.filter((e) => e.type !== "session");
}

function lastId(sm: SessionManager, pred: (e: Entry) => boolean): string {
	const entries = sm.getEntries() as unknown as Entry[];
	for (let i = entries.length - 1; i >= 0; i--) if (pred(entries[i])) return entries[i].id;
	throw new Error("entry not found");
}

const isUser = (e: Entry) => e.type === "message" && e.message?.role === "user";
const isAssistant = (e: Entry) => e.type === "message" && e.message?.role === "assistant";
const isToolResult = (e: Entry) => e.type === "message" && e.message?.role === "toolResult";

/** A real SDK session on `sm` that answers with `steps` (the shared in-process helper). */
async function agent(cwd: string, agentDir: string, sm: SessionManager, steps: ScriptStep[]) {
	const session = await openSdkSession({ cwd, agentDir, sessionManager: sm });
	session.append(steps);
	return session;
}

const msg = (m: AssistantMessage) => m;

/** Generates the corpus (a few seconds). */
export async function buildCorpus(): Promise<Corpus> {
	const root = mkdtempSync(join(tmpdir(), "pi-query-corpus-"));
	const agentDir = join(root, "agent");
	const workspace = join(root, "ws");
	const appCwd = join(workspace, "app");
	const otherCwd = join(root, "other");
	mkdirSync(join(workspace, ".git"), { recursive: true });
	mkdirSync(appCwd, { recursive: true });
	mkdirSync(otherCwd, { recursive: true });
	writeFileSync(join(appCwd, "notes.txt"), "call configureWidgetFactory(options) before boot\n");
	writeFileSync(join(appCwd, "a.txt"), "alpha file contents parallelalpha\n");
	writeFileSync(join(appCwd, "b.txt"), "beta file contents parallelbeta\n");
	// 450 lines of 100 characters (newline included) with a marker in the middle line.
	const lines: string[] = [];
	for (let i = 0; i < 450; i++) {
		const body =
			i === 225 ? `${MIDDLE_MARKER} ${"m".repeat(99 - MIDDLE_MARKER.length - 1)}` : `line${i} `.padEnd(99, "x");
		lines.push(body);
	}
	writeFileSync(join(appCwd, "big.txt"), `${lines.join("\n")}\n`);

	const dir = sessionDir(agentDir, appCwd);
	const sm = SessionManager.create(appCwd, dir);
	const steps: ScriptStep[] = [
		// t1: tool result with an identifier; reasoning-only term.
		msg(fauxAssistantMessage(fauxToolCall("bash", { command: "cat notes.txt" }), { stopReason: "toolUse" })),
		msg(fauxAssistantMessage([fauxThinking("zebraquokka is my private reasoning"), fauxText("noted the notes")])),
		// t2: a failing bash command.
		msg(
			fauxAssistantMessage(fauxToolCall("bash", { command: "echo compilekaput >&2; exit 3" }), {
				stopReason: "toolUse",
			}),
		),
		"the build failed",
		// t3: alternate branch content.
		"alternate answer",
		// t4: CJK.
		"checking the database",
		// t5: parallel tool calls.
		msg(
			fauxAssistantMessage([fauxToolCall("read", { path: "a.txt" }), fauxToolCall("read", { path: "b.txt" })], {
				stopReason: "toolUse",
			}),
		),
		"both files read",
		// t6: big output.
		msg(fauxAssistantMessage(fauxToolCall("bash", { command: "cat big.txt" }), { stopReason: "toolUse" })),
		"that is long",
		// t7: a retrieval tool call (not registered here, so Pi records an error result for it).
		msg(fauxAssistantMessage(fauxToolCall("event_search", { query: "retrievalprobe" }), { stopReason: "toolUse" })),
		"no such tool",
		// t8
		"final answer",
	];
	const a = await agent(appCwd, agentDir, sm, steps);
	const e: Record<string, string> = {};
	await a.prompt("please deploy the staging cluster tonight summarizedterm");
	e.t1User = lastId(sm, isUser);
	e.notesResult = lastId(sm, isToolResult);
	e.reasoningAnswer = lastId(sm, isAssistant);
	await a.prompt("run the failing build");
	e.failResult = lastId(sm, isToolResult);
	e.forkPoint = lastId(sm, isAssistant);
	await a.prompt("try the altbranchterm approach");
	e.altUser = lastId(sm, isUser);
	e.altAnswer = lastId(sm, isAssistant);
	// /tree back to forkPoint with a summary: the alt turn becomes an alternate branch.
	e.branchSummary = sm.branchWithSummary(e.forkPoint, "explored an alternative idea", { readFiles: ["notes.txt"] });
	await a.prompt("我们的数据库连接失败了 please check");
	e.cjkUser = lastId(sm, isUser);
	await a.prompt("read both files");
	const parallelResults = (sm.getEntries() as unknown as Entry[]).filter(isToolResult).slice(-2);
	e.parallelCall = parallelResults[0].parentId as string;
	e.parallelResultA = parallelResults[0].id;
	e.parallelResultB = parallelResults[1].id;
	e.parallelAnswer = lastId(sm, isAssistant);
	await a.prompt("show the big log");
	e.bigResult = lastId(sm, isToolResult);
	await a.prompt("look something up");
	e.retrievalCall = (sm.getEntries() as unknown as Entry[]).filter(isAssistant).slice(-2)[0].id;
	e.retrievalResult = lastId(sm, isToolResult);
	// Compaction keeping everything from the CJK turn on: earlier path entries become summarized.
	e.compaction = sm.appendCompaction("## Goal\nearlier deployment work", e.cjkUser, 5000, {
		readFiles: ["notes.txt"],
		modifiedFiles: ["deploy.yaml"],
	});
	e.label = sm.appendLabelChange(e.parallelAnswer, "milestone");
	sm.appendSessionInfo("Deploy work");
	await a.prompt("final question");
	e.finalUser = lastId(sm, isUser);
	e.finalAnswer = lastId(sm, isAssistant);
	await a.close();
	const mainFile = sm.getSessionFile() as string;

	// --fork child (full copy) with one new turn, then its own --fork child: three generations.
	const childSm = SessionManager.forkFrom(mainFile, appCwd, dir);
	const c = await agent(appCwd, agentDir, childSm, ["child answer"]);
	await c.prompt("forked followup");
	const newUserId = lastId(childSm, isUser);
	await c.close();
	const childFile = childSm.getSessionFile() as string;
	const grandSm = SessionManager.forkFrom(childFile, appCwd, dir);
	const grandFile = grandSm.getSessionFile() as string;

	// /fork-style path copy of main up to the parallel answer (labels re-created).
	const copySm = SessionManager.open(mainFile, dir);
	const copyFile = copySm.createBranchedSession(e.parallelAnswer) as string;

	// Another workspace with the same words.
	const otherSm = SessionManager.create(otherCwd, sessionDir(agentDir, otherCwd));
	const o = await agent(otherCwd, agentDir, otherSm, ["other answer configureWidgetFactory"]);
	await o.prompt("please deploy the staging cluster tonight summarizedterm");
	const otherUser = lastId(otherSm, isUser);
	await o.close();

	const bigEntry = readEntries(mainFile).find((x) => x.id === e.bigResult);
	const content = (bigEntry?.message?.content ?? []) as Array<{ type: string; text?: string }>;
	const bigText = content
		.filter((b) => b.type === "text")
		.map((b) => b.text)
		.join("\n");
	const markerUnits = bigText.indexOf(MIDDLE_MARKER);
	return {
		root,
		agentDir,
		workspace,
		appCwd,
		otherCwd,
		main: { file: mainFile, id: sm.getSessionId(), entries: e },
		forkChild: { file: childFile, id: childSm.getSessionId(), newUserId },
		grandChild: { file: grandFile, id: grandSm.getSessionId() },
		pathCopy: { file: copyFile, id: copySm.getSessionId() },
		other: { file: otherSm.getSessionFile() as string, id: otherSm.getSessionId(), userId: otherUser },
		big: { text: bigText, markerOffset: Array.from(bigText.slice(0, markerUnits)).length },
	};
}
