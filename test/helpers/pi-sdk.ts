/**
 * Writes realistic sessions in-process through Pi's own SDK: `createAgentSession` with the scripted faux model,
 * Pi's REAL built-in tools (read, bash, edit, write run for real in `cwd`), `SessionManager.create(cwd, dir)`
 * and `bindExtensions`, so extensions see `session_start` exactly as in the CLI.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
	AuthStorage,
	type CreateAgentSessionResult,
	createAgentSession,
	DefaultResourceLoader,
	ModelRegistry,
	SessionManager,
	SettingsManager,
} from "@mariozechner/pi-coding-agent";
import { registerScriptedFaux, type ScriptStep } from "../fixtures/faux-provider.js";
import { HARNESS_CACHE_DIR } from "./pi-cli.js";

/** One user prompt and the model turns that answer it (then "done" if the steps run out). */
export interface SessionTurn {
	prompt: string;
	responses?: ScriptStep[];
}

/** Options of {@link openSdkSession} and {@link writeSession}. */
export interface SdkSessionOptions {
	/** Working directory recorded in the header and used by the real tools. */
	cwd: string;
	/** Directory a new session file goes into (flat, like `--session-dir`); or give `sessionManager`. */
	sessionDir?: string;
	/** An existing session manager (a `--fork` copy, an opened file) instead of a new session in `sessionDir`. */
	sessionManager?: SessionManager;
	/** Pi agent dir used for resource discovery; default: an empty dir under node_modules/.cache/pi-harness. */
	agentDir?: string;
	/** Extension files to load (e.g. the extension under test). */
	extensions?: string[];
	/** Tool allowlist; default Pi's built-ins (read, bash, edit, write) plus every extension tool. */
	tools?: string[];
}

/** An open in-process session and its faux script. */
export interface SdkSession {
	result: CreateAgentSessionResult;
	/** Queue the model turns for the next prompt(s). */
	append(steps: ScriptStep[]): void;
	/** Prompt and wait until the agent is idle (turn entries are on disk afterwards). */
	prompt(text: string): Promise<void>;
	sessionFile(): string | undefined;
	sessionId(): string;
	/** Dispose the session and unregister the faux stream. */
	close(): Promise<void>;
}

/** An empty agent dir private to this repository: nothing from the machine's ~/.pi/agent leaks in. */
function defaultAgentDir(): string {
	return join(HARNESS_CACHE_DIR, "empty-agent");
}

/** Opens a persistent SDK session with the faux model; call `close()` when done. */
export async function openSdkSession(options: SdkSessionOptions): Promise<SdkSession> {
	const { cwd, sessionDir } = options;
	if (!options.sessionManager && sessionDir === undefined)
		throw new Error("openSdkSession needs sessionDir or sessionManager");
	mkdirSync(cwd, { recursive: true });
	const agentDir = options.agentDir ?? defaultAgentDir();
	mkdirSync(agentDir, { recursive: true });
	const authStorage = AuthStorage.inMemory();
	const modelRegistry = ModelRegistry.inMemory(authStorage);
	const faux = registerScriptedFaux((name, config) => modelRegistry.registerProvider(name, config as never), []);
	const model = modelRegistry.find("faux", "faux-1");
	if (!model) throw new Error("faux model did not register");
	const settingsManager = SettingsManager.inMemory({ defaultProvider: "faux", defaultModel: "faux-1" });
	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		additionalExtensionPaths: options.extensions ?? [],
		// Only the extensions named here: nothing from the machine's agent dir or the cwd.
		noSkills: true,
		noPromptTemplates: true,
		noThemes: true,
		noContextFiles: true,
	});
	await resourceLoader.reload();
	const result = await createAgentSession({
		cwd,
		agentDir,
		model,
		authStorage,
		modelRegistry,
		settingsManager,
		resourceLoader,
		sessionManager: options.sessionManager ?? SessionManager.create(cwd, sessionDir),
		tools: options.tools,
	});
	if (result.extensionsResult.errors.length > 0) {
		faux.unregister();
		result.session.dispose();
		const messages = result.extensionsResult.errors.map((error) => `${error.path}: ${error.error}`);
		throw new Error(`extension load failed: ${messages.join("; ")}`);
	}
	await result.session.bindExtensions({});
	return {
		result,
		append: (steps) => faux.append(steps),
		prompt: (text) => result.session.prompt(text),
		sessionFile: () => result.session.sessionManager.getSessionFile(),
		sessionId: () => result.session.sessionManager.getSessionId(),
		close: async () => {
			result.session.dispose();
			faux.unregister();
		},
	};
}

/** What {@link writeSession} wrote. */
export interface WrittenSession {
	sessionFile: string;
	sessionId: string;
}

/** Writes one session: each turn queues its responses, then prompts. Returns the file Pi wrote. */
export async function writeSession(options: SdkSessionOptions & { turns: SessionTurn[] }): Promise<WrittenSession> {
	const session = await openSdkSession(options);
	try {
		for (const turn of options.turns) {
			session.append(turn.responses ?? []);
			await session.prompt(turn.prompt);
		}
		const sessionFile = session.sessionFile();
		if (!sessionFile) throw new Error("the SDK session has no file");
		return { sessionFile, sessionId: session.sessionId() };
	} finally {
		await session.close();
	}
}
