/**
 * The extension's own configuration: `<agentDir>/event-index.json` (the person's) and `<cwd>/.pi/event-index.json`
 * (the workspace's, which a cloned repository can ship). The workspace file may only narrow the person's settings:
 * what would widen what a caller sees or where data goes is refused with one notice (docs/security.md). Every
 * problem becomes a specific message and that key falls back to the next source; loading never throws.
 * Documented in docs/configuration.md.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { escapeValue } from "../text/safe-text.js";
import { BUDGET_BOUNDS, type Budgets, DEFAULT_BUDGETS } from "./budgets.js";
import { DEFAULT_IDLE_RECHECK_SECONDS, IDLE_RECHECK_MAX_SECONDS, isIdleRecheckSeconds } from "./idle-recheck.js";
import { expandTilde, PI_CONFIG_DIR_NAME } from "./pi-paths.js";
import { BACKGROUND_THREADS, type CatchUpThreads, isCatchUpThreads } from "./threads.js";

/** Environment variable that moves the index directory; wins over both config files. */
const ENV_INDEX_DIR = "PI_EVENT_INDEX_DIR";
/** File name of the extension's config, in the agent dir and in `<cwd>/.pi/`. */
const CONFIG_FILE_NAME = "event-index.json";
/** Sub-folder of the agent dir that holds the index by default. */
const DEFAULT_INDEX_DIR_NAME = "event-index";

import type { Env } from "./pi-paths.js";

/** What one config file may say, after validation (paths already absolute). */
export interface EventIndexConfigFile {
	/** Where the index lives. */
	indexDir?: string;
	/** Extra or archive session directories to index (scanned recursively, down to discover.ts MAX_ROOT_DEPTH). */
	roots?: string[];
	authorization?: {
		/** Directories (besides the caller's workspace) whose sessions this workspace may read. */
		extraRoots?: string[];
		/** Let every workspace read every indexed session. */
		allRoots?: boolean;
	};
	/** Output bounds; each key within BUDGET_BOUNDS. */
	budgets?: Partial<Budgets>;
	catchUp?: {
		/** Run the background catch-up of all roots (default true). */
		enabled?: boolean;
		/** Threads of the background catch-up (default 1; `reindex` always uses 2). */
		threads?: CatchUpThreads;
		/** How long a check of every file is trusted for files idle an hour, in seconds (default 60; 0: never). */
		idleFilesRecheckSeconds?: number;
	};
	/** Mask known secret formats in indexed and returned text (default true; only the person's own file turns it off). */
	redactSecrets?: boolean;
	/** Globs of workspaces whose sessions are never indexed (only the person's own file). */
	excludeWorkspaces?: string[];
}

/** The configuration with every field filled. */
export interface ResolvedConfig {
	/** Absolute index directory. */
	indexDir: string;
	/** Absolute extra/archive session directories. */
	roots: string[];
	authorization: { extraRoots: string[]; allRoots: boolean };
	budgets: Budgets;
	catchUp: { enabled: boolean; threads: CatchUpThreads; idleFilesRecheckSeconds: number };
	/** Secrets are masked at index time and on output (src/text/redact.ts). */
	redactSecrets: boolean;
	/** Workspace globs never indexed (ingest/forgotten.ts). */
	excludeWorkspaces: string[];
	/** Config files that were found and read (whether or not they had problems). */
	loadedFiles: string[];
}

/** Inputs of {@link loadConfig}. */
export interface LoadConfigOptions {
	cwd: string;
	/** Pi's agent directory (see resolveAgentDir). */
	agentDir: string;
	env?: Env;
}

/** A resolved configuration and every problem met building it. */
export interface LoadConfigResult {
	config: ResolvedConfig;
	/** Specific, human-readable: file, key, what was expected. Empty when all is well. */
	problems: string[];
	/** One line naming the widening keys of the workspace file that were ignored; names no path (the model sees it). */
	refused?: string;
}

/** The two config file locations for a cwd and agent dir. */
export function configFilePaths(cwd: string, agentDir: string): { global: string; project: string } {
	return {
		global: join(resolve(agentDir), CONFIG_FILE_NAME),
		project: join(resolve(cwd), PI_CONFIG_DIR_NAME, CONFIG_FILE_NAME),
	};
}

const TOP_KEYS = new Set([
	"$schema",
	"indexDir",
	"roots",
	"authorization",
	"budgets",
	"catchUp",
	"redactSecrets",
	"excludeWorkspaces",
]);
const AUTHORIZATION_KEYS = new Set(["extraRoots", "allRoots"]);
const CATCH_UP_KEYS = new Set(["enabled", "threads", "idleFilesRecheckSeconds"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") return `the string ${escapeValue(JSON.stringify(value))}`;
	if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
	return `a ${typeof value}`;
}

/** Expands `~` and resolves against `baseDir`. */
function resolvePath(value: string, baseDir: string): string {
	return resolve(baseDir, expandTilde(value));
}

/** Where the problems of one file go, and what its relative paths resolve against. */
interface FileCheck {
	problem(key: string, message: string): void;
	baseDir: string;
}

/**
 * Validates one parsed config file. Pure: `file` only names the source in messages, `baseDir` anchors
 * relative paths. Invalid keys are dropped with a problem; valid ones are kept.
 */
export function validateConfigFile(
	raw: unknown,
	file: string,
	baseDir: string,
): { config: EventIndexConfigFile; problems: string[] } {
	const problems: string[] = [];
	const config: EventIndexConfigFile = {};
	if (!isPlainObject(raw)) {
		problems.push(`${file}: expected a JSON object at the top level, got ${describe(raw)}; file ignored`);
		return { config, problems };
	}
	// A key is the file writer's text (a repository's, maybe): shown escaped, it cannot forge a line of the report.
	const c: FileCheck = {
		baseDir,
		problem: (key, message) => problems.push(`${file}: "${escapeValue(key)}" ${message}`),
	};
	unknownKeys(c, raw, "", TOP_KEYS, [...TOP_KEYS].slice(1));
	if (raw.indexDir !== undefined) config.indexDir = indexDirOf(c, raw.indexDir);
	if (raw.roots !== undefined) config.roots = pathList(c, "roots", raw.roots);
	if (raw.authorization !== undefined) config.authorization = authorizationOf(c, raw.authorization);
	if (raw.budgets !== undefined) config.budgets = budgetsOf(c, raw.budgets);
	if (raw.catchUp !== undefined) config.catchUp = catchUpOf(c, raw.catchUp);
	if (raw.redactSecrets !== undefined) config.redactSecrets = booleanOf(c, "redactSecrets", raw.redactSecrets);
	if (raw.excludeWorkspaces !== undefined) config.excludeWorkspaces = globList(c, raw.excludeWorkspaces);
	// A key whose whole value was refused is absent, not undefined (merging spreads objects by key).
	for (const key of Object.keys(config) as (keyof EventIndexConfigFile)[]) {
		if (config[key] === undefined) delete config[key];
	}
	return { config, problems };
}

/** Reports every key of `obj` that is not in `known` (`listed` names them in the message). */
function unknownKeys(
	c: FileCheck,
	obj: Record<string, unknown>,
	prefix: string,
	known: ReadonlySet<string>,
	listed: readonly string[],
): void {
	for (const key of Object.keys(obj)) {
		if (!known.has(key)) c.problem(`${prefix}${key}`, `is not a known key (known: ${listed.join(", ")}); ignored`);
	}
}

/** The index directory, resolved; undefined when it is not a non-empty string. */
function indexDirOf(c: FileCheck, value: unknown): string | undefined {
	if (typeof value === "string" && value.trim() !== "") return resolvePath(value, c.baseDir);
	c.problem("indexDir", `should be a non-empty path string, got ${describe(value)}; ignored`);
	return undefined;
}

/** A list of directory paths, resolved and without repeats; undefined when it is not an array. */
function pathList(c: FileCheck, key: string, value: unknown): string[] | undefined {
	if (!Array.isArray(value)) {
		c.problem(key, `should be an array of directory paths, got ${describe(value)}; ignored`);
		return undefined;
	}
	const out: string[] = [];
	value.forEach((item, index) => {
		if (typeof item !== "string" || item.trim() === "") {
			c.problem(`${key}[${index}]`, `should be a non-empty path string, got ${describe(item)}; ignored`);
			return;
		}
		const path = resolvePath(item, c.baseDir);
		if (!out.includes(path)) out.push(path);
	});
	return out;
}

/** A list of non-empty glob strings; undefined when it is not an array. */
function globList(c: FileCheck, value: unknown): string[] | undefined {
	if (!Array.isArray(value)) {
		c.problem("excludeWorkspaces", `should be an array of workspace globs, got ${describe(value)}; ignored`);
		return undefined;
	}
	return value.filter((item, index) => {
		if (typeof item === "string" && item.trim() !== "") return true;
		c.problem(`excludeWorkspaces[${index}]`, `should be a non-empty glob string, got ${describe(item)}; ignored`);
		return false;
	});
}

/** A boolean setting; undefined (with a problem) when it is anything else. */
function booleanOf(c: FileCheck, key: string, value: unknown): boolean | undefined {
	if (typeof value === "boolean") return value;
	c.problem(key, `should be true or false, got ${describe(value)}; ignored`);
	return undefined;
}

/** `value` as the object of section `name`, its unknown keys reported; undefined (with a problem) when not an object. */
function sectionOf(
	c: FileCheck,
	name: string,
	value: unknown,
	known: ReadonlySet<string>,
): Record<string, unknown> | undefined {
	if (!isPlainObject(value)) {
		const shape = [...known].map((k) => `${k}?`).join(", ");
		c.problem(name, `should be an object { ${shape} }, got ${describe(value)}; ignored`);
		return undefined;
	}
	unknownKeys(c, value, `${name}.`, known, [...known]);
	return value;
}

/** The `authorization` object: its valid keys. */
function authorizationOf(c: FileCheck, value: unknown): EventIndexConfigFile["authorization"] {
	const auth = sectionOf(c, "authorization", value, AUTHORIZATION_KEYS);
	if (!auth) return undefined;
	const out: NonNullable<EventIndexConfigFile["authorization"]> = {};
	if (auth.extraRoots !== undefined) {
		const extra = pathList(c, "authorization.extraRoots", auth.extraRoots);
		if (extra) out.extraRoots = extra;
	}
	if (auth.allRoots !== undefined) {
		const all = booleanOf(c, "authorization.allRoots", auth.allRoots);
		if (all !== undefined) out.allRoots = all;
	}
	return out;
}

/** The `budgets` object: each known budget that is an integer within its BUDGET_BOUNDS. */
function budgetsOf(c: FileCheck, budgets: unknown): Partial<Budgets> | undefined {
	if (!isPlainObject(budgets)) {
		c.problem("budgets", `should be an object of budget numbers, got ${describe(budgets)}; ignored`);
		return undefined;
	}
	const out: Partial<Budgets> = {};
	for (const [key, value] of Object.entries(budgets)) {
		if (!Object.hasOwn(BUDGET_BOUNDS, key)) {
			c.problem(`budgets.${key}`, `is not a known budget (known: ${Object.keys(BUDGET_BOUNDS).join(", ")}); ignored`);
			continue;
		}
		const name = key as keyof Budgets;
		const [min, max] = BUDGET_BOUNDS[name];
		if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
			c.problem(
				`budgets.${key}`,
				`should be an integer from ${min} to ${max}, got ${describe(value)}; using ${DEFAULT_BUDGETS[name]} unless another file sets it`,
			);
			continue;
		}
		out[name] = value;
	}
	return out;
}

/** The `catchUp` object: its valid keys. */
function catchUpOf(c: FileCheck, value: unknown): EventIndexConfigFile["catchUp"] {
	const catchUp = sectionOf(c, "catchUp", value, CATCH_UP_KEYS);
	if (!catchUp) return undefined;
	const out: NonNullable<EventIndexConfigFile["catchUp"]> = {};
	if (catchUp.enabled !== undefined) {
		const enabled = booleanOf(c, "catchUp.enabled", catchUp.enabled);
		if (enabled !== undefined) out.enabled = enabled;
	}
	if (catchUp.threads !== undefined) {
		if (isCatchUpThreads(catchUp.threads)) out.threads = catchUp.threads;
		else c.problem("catchUp.threads", `should be 1 or 2, got ${describe(catchUp.threads)}; ignored`);
	}
	const recheck = catchUp.idleFilesRecheckSeconds;
	if (recheck !== undefined) {
		if (isIdleRecheckSeconds(recheck)) out.idleFilesRecheckSeconds = recheck;
		else
			c.problem(
				"catchUp.idleFilesRecheckSeconds",
				`should be an integer from 0 to ${IDLE_RECHECK_MAX_SECONDS}, got ${describe(recheck)}; ignored`,
			);
	}
	return out;
}

/** True when `p` is `root` or lies inside it (whole path segments). */
function isInside(p: string, root: string): boolean {
	const rel = relative(root, p);
	return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

/**
 * What a workspace file may say on top of the person's own settings: only what narrows them. `indexDir` never (it
 * sends data elsewhere); `roots` only folders the person's `roots` lists; `allRoots` only `false`; `extraRoots` only
 * folders the person already lets every workspace read; `catchUp.enabled` only `false`. Budgets and threads bound
 * answers and work, not who sees what, and stay the workspace's to set. `refused` names each key dropped.
 */
function narrowOnly(
	person: EventIndexConfigFile,
	workspace: EventIndexConfigFile,
): { config: EventIndexConfigFile; refused: string[] } {
	const refused: string[] = [];
	const config: EventIndexConfigFile = { ...workspace };
	if (workspace.indexDir !== undefined) {
		if (workspace.indexDir !== person.indexDir) refused.push("indexDir");
		delete config.indexDir;
	}
	if (workspace.roots !== undefined) {
		const allowed = workspace.roots.filter((root) => person.roots?.includes(root));
		if (allowed.length < workspace.roots.length) refused.push("roots");
		config.roots = allowed;
	}
	const auth = workspace.authorization;
	if (auth !== undefined) {
		const personAll = person.authorization?.allRoots === true;
		const narrowed: NonNullable<EventIndexConfigFile["authorization"]> = { ...auth };
		if (auth.allRoots === true && !personAll) {
			refused.push("authorization.allRoots");
			delete narrowed.allRoots;
		}
		if (auth.extraRoots !== undefined) {
			const personExtra = person.authorization?.extraRoots ?? [];
			// With allRoots off in the workspace, any folder of an all-seeing person is still a narrowing.
			const readable = (dir: string) => personAll || personExtra.some((root) => isInside(dir, root));
			const allowed = auth.extraRoots.filter(readable);
			if (allowed.length < auth.extraRoots.length) refused.push("authorization.extraRoots");
			narrowed.extraRoots = allowed;
		}
		config.authorization = narrowed;
	}
	if (workspace.catchUp?.enabled === true && person.catchUp?.enabled === false) {
		refused.push("catchUp.enabled");
		const { enabled: _, ...rest } = workspace.catchUp;
		config.catchUp = rest;
	}
	return { config, refused };
}

/** The one notice a widening workspace file gets (status, the tools' coverage note, the log). */
function refusedNotice(keys: readonly string[]): string | undefined {
	if (keys.length === 0) return undefined;
	const named = keys.map((k) => `"${k}"`).join(", ");
	return `workspace config .pi/${CONFIG_FILE_NAME} ignored ${named}: a repository's file may only narrow; widening settings go in the user's own ${CONFIG_FILE_NAME}`;
}

/** Merges like Pi's settings: `override` wins; nested objects merge by key; arrays and primitives replace. */
export function mergeConfigFiles(base: EventIndexConfigFile, override: EventIndexConfigFile): EventIndexConfigFile {
	const merged: EventIndexConfigFile = { ...base };
	if (override.indexDir !== undefined) merged.indexDir = override.indexDir;
	if (override.roots !== undefined) merged.roots = override.roots;
	if (override.authorization !== undefined) {
		merged.authorization = { ...base.authorization, ...override.authorization };
	}
	if (override.budgets !== undefined) merged.budgets = { ...base.budgets, ...override.budgets };
	if (override.catchUp !== undefined) merged.catchUp = { ...base.catchUp, ...override.catchUp };
	if (override.redactSecrets !== undefined) merged.redactSecrets = override.redactSecrets;
	if (override.excludeWorkspaces !== undefined) merged.excludeWorkspaces = override.excludeWorkspaces;
	return merged;
}

/** Reads and validates one config file; a missing file is not a problem. */
function readConfigFile(file: string): { found: boolean; config: EventIndexConfigFile; problems: string[] } {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { found: false, config: {}, problems: [] };
		return { found: true, config: {}, problems: [`${file}: cannot be read (${code ?? String(error)}); file ignored`] };
	}
	if (text.trim() === "") return { found: true, config: {}, problems: [] };
	let raw: unknown;
	try {
		raw = JSON.parse(text.replace(/^\uFEFF/, ""));
	} catch (error) {
		return {
			found: true,
			config: {},
			problems: [`${file}: not valid JSON (${(error as Error).message}); file ignored, using defaults`],
		};
	}
	const { config, problems } = validateConfigFile(raw, file, dirname(file));
	return { found: true, config, problems };
}

/** Fills every field: env `PI_EVENT_INDEX_DIR` over the merged files over the defaults. */
function resolveConfig(
	merged: EventIndexConfigFile,
	options: { cwd: string; agentDir: string; env?: Env },
): { config: Omit<ResolvedConfig, "loadedFiles">; problems: string[] } {
	const problems: string[] = [];
	const env = options.env ?? process.env;
	const fromEnv = env[ENV_INDEX_DIR];
	const indexDir =
		fromEnv && fromEnv.trim() !== ""
			? resolvePath(fromEnv, options.cwd)
			: (merged.indexDir ?? join(resolve(options.agentDir), DEFAULT_INDEX_DIR_NAME));
	const budgets: Budgets = { ...DEFAULT_BUDGETS, ...merged.budgets };
	if (budgets.defaultNeighbors > budgets.maxNeighbors) {
		problems.push(
			`budgets: "defaultNeighbors" (${budgets.defaultNeighbors}) exceeds "maxNeighbors" (${budgets.maxNeighbors}); using ${budgets.maxNeighbors}`,
		);
		budgets.defaultNeighbors = budgets.maxNeighbors;
	}
	return {
		config: {
			indexDir,
			roots: merged.roots ?? [],
			authorization: {
				extraRoots: merged.authorization?.extraRoots ?? [],
				allRoots: merged.authorization?.allRoots ?? false,
			},
			budgets,
			catchUp: {
				enabled: merged.catchUp?.enabled ?? true,
				threads: merged.catchUp?.threads ?? BACKGROUND_THREADS,
				idleFilesRecheckSeconds: merged.catchUp?.idleFilesRecheckSeconds ?? DEFAULT_IDLE_RECHECK_SECONDS,
			},
			redactSecrets: merged.redactSecrets ?? true,
			excludeWorkspaces: merged.excludeWorkspaces ?? [],
		},
		problems,
	};
}

/**
 * Drops from a workspace's file what only the person may decide: turning secret redaction off (a repository must not
 * be able to make the index keep the secrets of every other workspace). Returns the problems it reports.
 */
function personalOnly(config: EventIndexConfigFile, file: string): string[] {
	const problems: string[] = [];
	const refuse = (what: string) =>
		problems.push(`${file}: ${what} may be set only in your own ${CONFIG_FILE_NAME} (the agent dir); ignored`);
	if (config.redactSecrets === false) {
		delete config.redactSecrets;
		refuse('"redactSecrets" false');
	}
	if (config.excludeWorkspaces !== undefined) {
		delete config.excludeWorkspaces;
		refuse('"excludeWorkspaces"');
	}
	return problems;
}

/** Loads the person's then the workspace's config (narrowing only), merges, applies the environment; never throws. */
export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
	const paths = configFilePaths(options.cwd, options.agentDir);
	const global = readConfigFile(paths.global);
	// When cwd is the home folder and the agent dir is ~/.pi, the two paths could coincide: read once.
	const project = paths.project === paths.global ? undefined : readConfigFile(paths.project);
	const personal = project ? personalOnly(project.config, paths.project) : [];
	const narrowed = narrowOnly(global.config, project?.config ?? {});
	const merged = mergeConfigFiles(global.config, narrowed.config);
	const resolved = resolveConfig(merged, options);
	const loadedFiles = [global.found ? paths.global : undefined, project?.found ? paths.project : undefined].filter(
		(file): file is string => file !== undefined,
	);
	const refused = refusedNotice(narrowed.refused);
	return {
		config: { ...resolved.config, loadedFiles },
		problems: [...global.problems, ...(project?.problems ?? []), ...personal].concat(resolved.problems),
		...(refused ? { refused } : {}),
	};
}
