/**
 * Where Pi 0.73.1 keeps session files, following its own rules (dist/config.js `getAgentDir`,
 * dist/main.js session-dir precedence, dist/core/settings-manager.js `getSessionDir`,
 * dist/core/session-manager.js `getDefaultSessionDir`). Pure path logic plus small reads of
 * settings files; nothing here ever creates a directory (Pi's getDefaultSessionDir mkdirs; we do not).
 */
import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** Environment variable that moves Pi's agent directory. */
export const ENV_AGENT_DIR = "PI_CODING_AGENT_DIR";
/** Environment variable that moves Pi's session directory (below `--session-dir`). */
const ENV_SESSION_DIR = "PI_CODING_AGENT_SESSION_DIR";
/** Pi's per-project config folder name (`piConfig.configDir`). */
export const PI_CONFIG_DIR_NAME = ".pi";

/** Environment variables as Pi reads them. */
export type Env = Record<string, string | undefined>;

/** Expands a leading `~` or `~/` exactly as Pi's `expandTildePath` does (`~user` is left alone). */
export function expandTilde(path: string, home: string = homedir()): string {
	if (path === "~") return home;
	if (path.startsWith("~/")) return home + path.slice(1);
	return path;
}

/** Pi's agent directory: `$PI_CODING_AGENT_DIR` (leading `~` expanded), else `~/.pi/agent`; made absolute. */
export function resolveAgentDir(env: Env = process.env): string {
	const fromEnv = env[ENV_AGENT_DIR];
	// Pi tests truthiness: an empty variable means "unset".
	if (fromEnv) return resolve(expandTilde(fromEnv));
	return join(homedir(), PI_CONFIG_DIR_NAME, "agent");
}

/** The folder name Pi gives a cwd under `<agentDir>/sessions/` (`--<path, / \ : → ->--`); not reversible. */
export function encodeSessionDirName(cwd: string): string {
	return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** Where the effective session directory came from. */
type SessionDirSource = "flag" | "env" | "project-settings" | "global-settings" | "default";

/** The session directory Pi would write to for a cwd, and why. */
export interface EffectiveSessionDir {
	/** Absolute path (not necessarily existing). */
	path: string;
	source: SessionDirSource;
	/** A custom directory is flat; the default one is per-cwd under `<agentDir>/sessions/`. */
	custom: boolean;
	/** Problems met while reading settings files (unparsable JSON, wrong type); Pi ignores such files too. */
	problems: string[];
}

/** Inputs of {@link effectiveSessionDir}. */
export interface EffectiveSessionDirOptions {
	/** The Pi process's working directory (absolute). */
	cwd: string;
	/** Pi's agent directory (see {@link resolveAgentDir}). */
	agentDir: string;
	/** The value of `--session-dir`, if Pi was started with one. */
	sessionDirFlag?: string;
	env?: Env;
}

/** Reads `sessionDir` from one Pi settings.json; missing file → undefined, bad file → a problem string. */
function readSettingsSessionDir(file: string): { value?: string; problem?: string } {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return {};
		return { problem: `${file}: cannot be read (${code ?? String(error)}); Pi ignores it too` };
	}
	// Pi treats an empty file as "no settings".
	if (!text) return {};
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		return { problem: `${file}: not valid JSON (${(error as Error).message}); Pi ignores it too` };
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
	const value = (parsed as Record<string, unknown>).sessionDir;
	if (value === undefined || value === null || value === "") return {};
	if (typeof value !== "string") {
		return { problem: `${file}: "sessionDir" should be a string, got ${typeof value}; ignored` };
	}
	return { value };
}

/** Pi's settings `sessionDir` tilde rule (`join(homedir(), rest)`), slightly different from the env rule. */
function expandSettingsTilde(path: string): string {
	if (path === "~") return homedir();
	if (path.startsWith("~/")) return join(homedir(), path.slice(2));
	return path;
}

/**
 * The session directory Pi 0.73.1 uses, highest first: `--session-dir` (taken as given, no `~` expansion),
 * `PI_CODING_AGENT_SESSION_DIR` (leading `~` expanded), `sessionDir` in `<cwd>/.pi/settings.json`, then in
 * `<agentDir>/settings.json` (project wins, `~` expanded), else `<agentDir>/sessions/<encoded cwd>/`.
 * Relative results resolve against cwd, as Pi's file writes resolve them against its process cwd.
 */
export function effectiveSessionDir(options: EffectiveSessionDirOptions): EffectiveSessionDir {
	const { cwd, agentDir, sessionDirFlag } = options;
	const env = options.env ?? process.env;
	const problems: string[] = [];
	// Pi uses `??` for the flag: an empty `--session-dir ""` still counts (and means the cwd).
	if (sessionDirFlag !== undefined) {
		return { path: resolve(cwd, sessionDirFlag), source: "flag", custom: true, problems };
	}
	const fromEnv = env[ENV_SESSION_DIR];
	if (fromEnv) {
		return { path: resolve(cwd, expandTilde(fromEnv)), source: "env", custom: true, problems };
	}
	const project = readSettingsSessionDir(join(cwd, PI_CONFIG_DIR_NAME, "settings.json"));
	const global = readSettingsSessionDir(join(agentDir, "settings.json"));
	for (const read of [global, project]) if (read.problem) problems.push(read.problem);
	if (project.value !== undefined) {
		return {
			path: resolve(cwd, expandSettingsTilde(project.value)),
			source: "project-settings",
			custom: true,
			problems,
		};
	}
	if (global.value !== undefined) {
		return {
			path: resolve(cwd, expandSettingsTilde(global.value)),
			source: "global-settings",
			custom: true,
			problems,
		};
	}
	return {
		path: join(resolve(agentDir), "sessions", encodeSessionDirName(cwd)),
		source: "default",
		custom: false,
		problems,
	};
}

/** Why a directory is a discovery root. */
type SessionRootKind = "effective" | "agent-sessions" | "extra" | "current-file";

/** One directory discovery should scan. */
export interface SessionRoot {
	/** Absolute directory path. */
	path: string;
	kind: SessionRootKind;
	/** Scan sub-folders too (archives may nest); Pi's own directories are flat. */
	recursive: boolean;
	/** For kind "current-file": the session file itself (absolute), which may sit in a directory of other files. */
	file?: string;
}

/** Inputs of {@link sessionRoots}. */
export interface SessionRootsOptions {
	cwd: string;
	agentDir: string;
	env?: Env;
	sessionDirFlag?: string;
	/** Extra or archive directories from the extension's configuration (already absolute). */
	extraRoots?: string[];
	/** The current session's file (`ctx.sessionManager.getSessionFile()`), wherever it lives. */
	currentFile?: string;
}

/** Immediate sub-folders of a directory, sorted; a missing or unreadable directory yields none. */
export function subdirectories(dir: string): string[] {
	try {
		return readdirSync(dir, { withFileTypes: true })
			.filter((entry) => entry.isDirectory())
			.map((entry) => join(dir, entry.name))
			.sort();
	} catch {
		return [];
	}
}

/**
 * The discovery roots (docs/lifecycle.md, "Discovery and catch-up"): the effective session dir, every immediate sub-folder of
 * `<agentDir>/sessions/`, the current session file's directory, and the configured extra roots.
 * Deduplicated by path; the first kind named for a path wins, in that order (the caller's own workspace
 * first). Never creates anything. Settings problems are reported by {@link effectiveSessionDir}.
 */
export function sessionRoots(options: SessionRootsOptions): SessionRoot[] {
	const { cwd, agentDir } = options;
	const effective = effectiveSessionDir({
		cwd,
		agentDir,
		env: options.env,
		sessionDirFlag: options.sessionDirFlag,
	});
	const roots: SessionRoot[] = [];
	const seen = new Set<string>();
	const add = (path: string, kind: SessionRootKind, recursive: boolean, file?: string) => {
		const absolute = resolve(cwd, path);
		if (seen.has(absolute)) return;
		seen.add(absolute);
		roots.push(file === undefined ? { path: absolute, kind, recursive } : { path: absolute, kind, recursive, file });
	};
	add(effective.path, "effective", false);
	for (const dir of subdirectories(join(resolve(agentDir), "sessions"))) add(dir, "agent-sessions", false);
	if (options.currentFile) {
		const file = resolve(cwd, options.currentFile);
		add(dirname(file), "current-file", false, file);
	}
	for (const extra of options.extraRoots ?? []) add(expandTilde(extra), "extra", true);
	return roots;
}
