/**
 * Builds the ranking evaluation corpus: every session of set.ts written by REAL Pi 0.73.1 in-process (SDK, faux
 * model, the real `read` and `bash` tools over files of this repository's node_modules), the tree operations through
 * Pi's own SessionManager, then indexed by the real ingest path into a real SQLite store. Deterministic: the same
 * files and scripts give the same texts (only ids and timestamps differ from run to run).
 */

import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SqliteDb } from "../../src/store/driver.js";
import { openSdkSession } from "../../test/helpers/pi-sdk.js";
import { indexInTempDir } from "../lib/temp-index.js";
import { backgroundSessions, EVAL_SESSIONS, type EvalSession } from "./set.js";

/** Repository root (bench/ranking/../..). */
const REPO_ROOT = resolve(fileURLToPath(import.meta.url), "..", "..", "..");
const NODE_MODULES = join(REPO_ROOT, "node_modules");

/** The built corpus: its store, and the entry each set key names. */
export interface RankingCorpus {
	root: string;
	db: SqliteDb;
	/** Caller cwd: the parent of every session's workspace. */
	cwd: string;
	/** Set key → `${sessionId}/${entryId}`. */
	targets: Map<string, string>;
	sessionFiles: string[];
	close(): void;
}

interface Entry {
	type: string;
	id: string;
	message?: { role: string };
}

function toolStep(tool: EvalSession["turns"][number]["tool"]) {
	if ("read" in tool) return { toolCalls: [{ name: "read", arguments: { path: join(NODE_MODULES, tool.read) } }] };
	return { toolCalls: [{ name: "bash", arguments: { command: tool.bash.replaceAll("{nm}", NODE_MODULES) } }] };
}

async function writeEvalSession(
	spec: EvalSession,
	root: string,
	agentDir: string,
	targets: Map<string, string>,
): Promise<string> {
	const cwd = join(root, "ws", spec.name);
	const sessionDir = join(agentDir, "sessions", `--ws-${spec.name}--`);
	mkdirSync(sessionDir, { recursive: true });
	const s = await openSdkSession({ cwd, sessionDir, agentDir, tools: ["read", "bash"] });
	const sm = s.result.session.sessionManager;
	const last = (role: string) => {
		const entries = sm.getEntries() as unknown as Entry[];
		for (let i = entries.length - 1; i >= 0; i--)
			if (entries[i].type === "message" && entries[i].message?.role === role) return entries[i].id;
		throw new Error(`no ${role} entry in ${spec.name}`);
	};
	const key = (k: string | undefined, entryId: string) => {
		if (k !== undefined) targets.set(k, `${s.sessionId()}/${entryId}`);
	};
	try {
		const firstAnswers: string[] = [];
		const prompts: string[] = [];
		for (const turn of spec.turns) {
			s.append([toolStep(turn.tool), turn.answer]);
			await s.prompt(turn.prompt);
			const userId = last("user");
			prompts.push(userId);
			key(turn.promptKey, userId);
			key(turn.resultKey, last("toolResult"));
			const answerId = last("assistant");
			firstAnswers.push(answerId);
			key(turn.answerKey, answerId);
		}
		if (spec.compaction) {
			const id = sm.appendCompaction(spec.compaction.summary, prompts[prompts.length - 1], 40_000, {
				readFiles: [],
				modifiedFiles: [],
			});
			key(spec.compaction.key, id);
		}
		if (spec.branchSummary) {
			const id = sm.branchWithSummary(firstAnswers[0], spec.branchSummary.summary, { readFiles: [] });
			key(spec.branchSummary.key, id);
		}
		if (spec.sessionName) key(spec.sessionName.key, sm.appendSessionInfo(spec.sessionName.name));
		const file = s.sessionFile();
		if (!file) throw new Error(`session ${spec.name} has no file`);
		return file;
	} finally {
		await s.close();
	}
}

/** Writes the set's sessions with real Pi and indexes them into a fresh store (a few seconds). */
export async function buildRankingCorpus(): Promise<RankingCorpus> {
	const targets = new Map<string, string>();
	const sessionFiles: string[] = [];
	const index = await indexInTempDir("pi-ranking-eval-", async (root) => {
		const agentDir = join(root, "agent");
		mkdirSync(agentDir, { recursive: true });
		for (const spec of [...EVAL_SESSIONS, ...backgroundSessions()])
			sessionFiles.push(await writeEvalSession(spec, root, agentDir, targets));
		return sessionFiles;
	});
	return { ...index, cwd: join(index.root, "ws"), targets, sessionFiles };
}
