/**
 * Silently wrong tool input, through real Pi (its SDK session, its tool-argument validation, the faux model) and
 * the built extension: a misspelled key and an impossible date come back to the model as clear, bounded errors,
 * and 100,000 toolNames as one short error at once. Pi's validation lets extra keys through, so the services are
 * what refuse them.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTENSION } from "../helpers/e2e.js";
import { readJsonl, sessionMessages } from "../helpers/pi-cli.js";
import { openSdkSession, type SdkSession } from "../helpers/pi-sdk.js";

let tmp: string;
let session: SdkSession;
const savedEnv = process.env.PI_CODING_AGENT_DIR;

beforeAll(async () => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-tool-input-")));
	const agentDir = join(tmp, "agent");
	mkdirSync(agentDir, { recursive: true });
	process.env.PI_CODING_AGENT_DIR = agentDir;
	session = await openSdkSession({
		cwd: join(tmp, "project"),
		sessionDir: join(agentDir, "sessions", "--project--"),
		agentDir,
		extensions: [EXTENSION],
	});
});
afterAll(async () => {
	// As Pi's runtime quits: session_shutdown first (the extension closes its index and worker), then dispose.
	await session.result.session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
	await session.close();
	if (savedEnv === undefined) delete process.env.PI_CODING_AGENT_DIR;
	else process.env.PI_CODING_AGENT_DIR = savedEnv;
	rmSync(tmp, { recursive: true, force: true });
});

describe("tool input through real Pi", () => {
	it("regression: a misspelled key, an impossible date and 100,000 toolNames are bounded errors for the model", async () => {
		const calls = [
			{ query: "deploy", kind: ["user_text"] },
			{ query: "deploy", time: { from: "2026-02-30" } },
			{ query: "deploy", toolNames: Array.from({ length: 100_000 }, (_, i) => `tool${i}`) },
		];
		session.append([{ toolCalls: calls.map((args) => ({ name: "event_search", arguments: args })) }]);
		await session.prompt("search with bad input");
		const results = sessionMessages(readJsonl(session.sessionFile() as string)).filter((m) => m.role === "toolResult");
		expect(results).toHaveLength(3);
		const texts = results.map((r) => {
			expect(r).toMatchObject({ toolName: "event_search", isError: true });
			const text = JSON.stringify(r.content);
			expect(text.length).toBeLessThan(2_000);
			return text;
		});
		expect(texts[0]).toMatch(/\\"kind\\" is not a key of event_search; the nearest is \\"kinds\\"/);
		expect(texts[1]).toMatch(/\\"2026-02-30\\" has no day 30/);
		expect(texts[2]).toMatch(/\\"toolNames\\" has 100000 values; at most 100 are allowed/);
	}, 60_000);
});
