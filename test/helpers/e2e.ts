/**
 * Setup and checks shared by the end-to-end tests that run the extension inside a real Pi (Node CLI, Bun CLI,
 * compiled binary): the temp layout, "the run ended well", the tool results of a session, and "one index that
 * equals the session files".
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { verifyIndex } from "../../src/ingest/verify.js";
import { openStore } from "../../src/store/open-store.js";
import { type JsonlRecord, listSessionFiles, REPO_ROOT, type RunPiResult, sessionMessages } from "./pi-cli.js";

/** The extension under test (loaded with `-e`): the compiled package, as users run it. */
export const EXTENSION = join(REPO_ROOT, "dist", "extension.js");

/** The directories of one e2e test file. */
export interface E2eDirs {
	/** The temp root (a real path, so paths Pi reports compare equal); remove it in afterAll. */
	tmp: string;
	/** Pi's agent dir, `<tmp>/agent` (Pi creates it). */
	agentDir: string;
	/** The project Pi runs in, `<tmp>/project` (created). */
	cwd: string;
	/** The index directory inside the agent dir. */
	indexDir: string;
}

/** A fresh temp root named `<prefix>…` with the project dir created. */
export function e2eDirs(prefix: string): E2eDirs {
	const tmp = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	const agentDir = join(tmp, "agent");
	const cwd = join(tmp, "project");
	mkdirSync(cwd, { recursive: true });
	return { tmp, agentDir, cwd, indexDir: join(agentDir, "event-index") };
}

/** Asserts the run ended by itself with exit code 0 (its stderr is the failure message). */
export function expectOk(result: RunPiResult): void {
	expect(result.timedOut, result.stderr).toBe(false);
	expect(result.exitCode, result.stderr).toBe(0);
}

/** A tool result message as Pi writes it into the session JSONL. */
export type ToolResultMessage = Record<string, unknown> & {
	role: string;
	toolName: string;
	isError: boolean;
	content: Array<{ type: string; text?: string }>;
	details?: unknown;
};

/** The tool result messages of a session, in order. */
export function toolResults(records: JsonlRecord[]): ToolResultMessage[] {
	return sessionMessages(records).filter((m) => m.role === "toolResult") as ToolResultMessage[];
}

/** The text parts of a tool result, joined by newlines. */
export function textOf(m: ToolResultMessage): string {
	return m.content.map((c) => c.text ?? "").join("\n");
}

/**
 * Asserts the agent dir's index has one generation and agrees with every session file on disk: nothing indexed
 * differs from its file. A file may be `behind` (lines appended after its last sync): a Pi process whose last sync
 * met the other process's write lock gives up after its hot-path budget rather than wait, by design, and the next
 * catch-up indexes the rest. On a busy machine that happens; anything else is a defect.
 */
export async function expectOneConsistentIndex(agentDir: string): Promise<void> {
	const indexDir = join(agentDir, "event-index");
	expect(readdirSync(indexDir).filter((f) => f.endsWith(".sqlite"))).toHaveLength(1);
	const opened = await openStore({ dir: indexDir, readonly: true });
	if (!opened.ok) throw new Error(opened.error);
	try {
		const report = verifyIndex(opened.store.db, [{ path: join(agentDir, "sessions"), subfolders: true }]);
		expect(report.differences.filter((d) => d.kind !== "behind")).toEqual([]);
		expect(report.sources).toBe(listSessionFiles(agentDir).length);
	} finally {
		opened.store.close();
	}
}
