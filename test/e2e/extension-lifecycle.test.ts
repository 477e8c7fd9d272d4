/**
 * The extension's lifecycle inside one process, through Pi's own SDK session runtime (the same code path as the
 * interactive /new, /resume, /fork, /reload): every replacement closes the old instance's index (workers stopped,
 * SQLite handles closed) and the new instance answers. Handles are counted from /proc: open file descriptors into
 * the index directory, and OS threads (each worker_thread is one).
 */
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	AuthStorage,
	type CreateAgentSessionRuntimeFactory,
	createAgentSessionFromServices,
	createAgentSessionRuntime,
	createAgentSessionServices,
	ModelRegistry,
	SessionManager,
	SettingsManager,
} from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSearchResult } from "../../src/contract.js";
import { registerScriptedFaux, type ScriptedFaux } from "../fixtures/faux-provider.js";
import { EXTENSION } from "../helpers/e2e.js";
import { readJsonl, sessionMessages } from "../helpers/pi-cli.js";

const hasProc = (() => {
	try {
		readdirSync("/proc/self/task");
		return true;
	} catch {
		return false;
	}
})();

let tmp: string;
let agentDir: string;
let cwd: string;
let indexDir: string;
const savedEnv = process.env.PI_CODING_AGENT_DIR;

/** File descriptors of this process that point into the index directory (db, wal, shm, locks). */
function indexFds(): number {
	let n = 0;
	for (const fd of readdirSync("/proc/self/fd")) {
		try {
			if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(indexDir)) n++;
		} catch {
			// The fd closed while listing.
		}
	}
	return n;
}

const threads = () => readdirSync("/proc/self/task").length;

async function settle(check: () => boolean, ms = 5_000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

beforeAll(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-life-")));
	agentDir = join(tmp, "agent");
	cwd = join(tmp, "project");
	indexDir = join(agentDir, "event-index");
	mkdirSync(cwd, { recursive: true });
	// The extension finds Pi's agent dir (and with it the index) the way Pi does: from the environment.
	process.env.PI_CODING_AGENT_DIR = agentDir;
});

afterAll(() => {
	if (savedEnv === undefined) delete process.env.PI_CODING_AGENT_DIR;
	else process.env.PI_CODING_AGENT_DIR = savedEnv;
	rmSync(tmp, { recursive: true, force: true });
});

/** A runtime like Pi's CLI builds: fresh services per session, the extension rebound after every replacement. */
async function startRuntime() {
	const authStorage = AuthStorage.inMemory();
	const modelRegistry = ModelRegistry.inMemory(authStorage);
	// Pi drops stream handlers of the old session on replacement: each new session gets a fresh scripted faux.
	const fauxRef: { current?: ScriptedFaux } = {};
	const settingsManager = SettingsManager.inMemory({ defaultProvider: "faux", defaultModel: "faux-1" });
	const factory: CreateAgentSessionRuntimeFactory = async ({ cwd: runCwd, sessionManager, sessionStartEvent }) => {
		fauxRef.current?.unregister();
		fauxRef.current = registerScriptedFaux((name, config) => modelRegistry.registerProvider(name, config as never), []);
		const services = await createAgentSessionServices({
			cwd: runCwd,
			agentDir,
			authStorage,
			settingsManager,
			modelRegistry,
			resourceLoaderOptions: {
				additionalExtensionPaths: [EXTENSION],
				noSkills: true,
				noPromptTemplates: true,
				noThemes: true,
				noContextFiles: true,
			},
		});
		const created = await createAgentSessionFromServices({
			services,
			sessionManager,
			sessionStartEvent,
			model: modelRegistry.find("faux", "faux-1"),
		});
		return { ...created, services, diagnostics: services.diagnostics };
	};
	const runtime = await createAgentSessionRuntime(factory, {
		cwd,
		agentDir,
		sessionManager: SessionManager.create(cwd),
	});
	runtime.setRebindSession((session) => session.bindExtensions({}));
	await runtime.session.bindExtensions({});
	return {
		runtime,
		faux: {
			append: (steps: Parameters<ScriptedFaux["append"]>[0]) => fauxRef.current?.append(steps),
			unregister: () => fauxRef.current?.unregister(),
		},
	};
}

describe.skipIf(!hasProc)("extension lifecycle in one process", () => {
	it("survives /new, /resume, /fork, /reload and quit without leaking workers or SQLite handles", async () => {
		// Warm-up: load everything once (jiti, SQLite, thread pools), then measure the baseline.
		const warm = await startRuntime();
		warm.faux.append(["noted"]);
		await warm.runtime.session.prompt("remember the lifecyclemarker word");
		const firstFile = warm.runtime.session.sessionFile as string;
		const firstUser = warm.runtime.session.sessionManager
			.getEntries()
			.find((e) => e.type === "message" && e.message.role === "user");
		await warm.runtime.dispose();
		warm.faux.unregister();
		await settle(() => indexFds() === 0);
		expect(indexFds()).toBe(0);
		const baseline = threads();

		const { runtime, faux } = await startRuntime();
		try {
			faux.append([
				{ toolCalls: [{ name: "event_search", arguments: { query: "lifecyclemarker" } }] },
				(_c, h) => `seen: ${h.lastToolResultText().split("\n")[0]}`,
			]);
			await runtime.session.prompt("search the earlier session");
			const results = sessionMessages(readJsonl(runtime.session.sessionFile as string)).filter(
				(m) => m.role === "toolResult",
			);
			expect(results).toHaveLength(1);
			expect(results[0]).toMatchObject({ toolName: "event_search", isError: false });
			expect((results[0].details as EventSearchResult).hits[0].sessionId).toBeDefined();
			// The index really is open in this process now (so the counts below can fail).
			expect(indexFds()).toBeGreaterThan(0);

			await runtime.newSession();
			await runtime.switchSession(firstFile);
			await runtime.fork(firstUser?.id as string);
			await runtime.session.reload();
			await runtime.newSession();

			// After all that, the live instance still answers.
			faux.append([
				{ toolCalls: [{ name: "event_search", arguments: { query: "lifecyclemarker" } }] },
				(_c, h) => h.lastToolResultText(),
			]);
			await runtime.session.prompt("once more");
			const last = sessionMessages(readJsonl(runtime.session.sessionFile as string)).filter(
				(m) => m.role === "toolResult",
			);
			expect(last[0]).toMatchObject({ toolName: "event_search", isError: false });
		} finally {
			await runtime.dispose();
			faux.unregister();
		}
		await settle(() => indexFds() === 0 && threads() <= baseline);
		expect(indexFds()).toBe(0);
		expect(threads()).toBeLessThanOrEqual(baseline);
	}, 120_000);
});
