/**
 * The extension's own configuration: `<agentDir>/event-index.json` (global) and `<cwd>/.pi/event-index.json`
 * (project), merged like Pi's settings (project wins; objects merged by key; arrays replace). Every problem
 * becomes a specific message and that key falls back to the next source; loading never throws.
 * Documented in docs/configuration.md.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { BACKGROUND_THREADS, type CatchUpThreads, isCatchUpThreads } from "../ingest/catch-up-job.js";
import { BUDGET_BOUNDS, type Budgets, DEFAULT_BUDGETS } from "../query/budgets.js";
import { expandTilde, PI_CONFIG_DIR_NAME } from "./pi-paths.js";

/** Environment variable that moves the index directory; wins over both config files. */
export const ENV_INDEX_DIR = "PI_EVENT_INDEX_DIR";
/** File name of the extension's config, in the agent dir and in `<cwd>/.pi/`. */
export const CONFIG_FILE_NAME = "event-index.json";
/** Sub-folder of the agent dir that holds the index by default. */
export const DEFAULT_INDEX_DIR_NAME = "event-index";

import type { Env } from "./pi-paths.js";

/** What one config file may say, after validation (paths already absolute). */
export interface EventIndexConfigFile {
	/** Where the index lives. */
	indexDir?: string;
	/** Extra or archive session directories to index (scanned recursively). */
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
	};
}

/** The configuration with every field filled. */
export interface ResolvedConfig {
	/** Absolute index directory. */
	indexDir: string;
	/** Absolute extra/archive session directories. */
	roots: string[];
	authorization: { extraRoots: string[]; allRoots: boolean };
	budgets: Budgets;
	catchUp: { enabled: boolean; threads: CatchUpThreads };
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
}

/** The two config file locations for a cwd and agent dir. */
export function configFilePaths(cwd: string, agentDir: string): { global: string; project: string } {
	return {
		global: join(resolve(agentDir), CONFIG_FILE_NAME),
		project: join(resolve(cwd), PI_CONFIG_DIR_NAME, CONFIG_FILE_NAME),
	};
}

const TOP_KEYS = new Set(["$schema", "indexDir", "roots", "authorization", "budgets", "catchUp"]);
const AUTHORIZATION_KEYS = new Set(["extraRoots", "allRoots"]);
const CATCH_UP_KEYS = new Set(["enabled", "threads"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
	if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
	return `a ${typeof value}`;
}

/** Expands `~` and resolves against `baseDir`. */
function resolvePath(value: string, baseDir: string): string {
	return resolve(baseDir, expandTilde(value));
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
	const problem = (key: string, message: string) => problems.push(`${file}: "${key}" ${message}`);
	if (!isPlainObject(raw)) {
		problems.push(`${file}: expected a JSON object at the top level, got ${describe(raw)}; file ignored`);
		return { config, problems };
	}
	for (const key of Object.keys(raw)) {
		if (!TOP_KEYS.has(key)) problem(key, `is not a known key (known: ${[...TOP_KEYS].slice(1).join(", ")}); ignored`);
	}

	const pathList = (key: string, value: unknown): string[] | undefined => {
		if (!Array.isArray(value)) {
			problem(key, `should be an array of directory paths, got ${describe(value)}; ignored`);
			return undefined;
		}
		const out: string[] = [];
		value.forEach((item, index) => {
			if (typeof item !== "string" || item.trim() === "") {
				problem(`${key}[${index}]`, `should be a non-empty path string, got ${describe(item)}; ignored`);
				return;
			}
			const path = resolvePath(item, baseDir);
			if (!out.includes(path)) out.push(path);
		});
		return out;
	};

	if (raw.indexDir !== undefined) {
		if (typeof raw.indexDir === "string" && raw.indexDir.trim() !== "") {
			config.indexDir = resolvePath(raw.indexDir, baseDir);
		} else {
			problem("indexDir", `should be a non-empty path string, got ${describe(raw.indexDir)}; ignored`);
		}
	}

	if (raw.roots !== undefined) {
		const roots = pathList("roots", raw.roots);
		if (roots) config.roots = roots;
	}

	if (raw.authorization !== undefined) {
		const auth = raw.authorization;
		if (!isPlainObject(auth)) {
			problem("authorization", `should be an object { extraRoots?, allRoots? }, got ${describe(auth)}; ignored`);
		} else {
			const out: NonNullable<EventIndexConfigFile["authorization"]> = {};
			for (const key of Object.keys(auth)) {
				if (!AUTHORIZATION_KEYS.has(key))
					problem(`authorization.${key}`, "is not a known key (known: extraRoots, allRoots); ignored");
			}
			if (auth.extraRoots !== undefined) {
				const extra = pathList("authorization.extraRoots", auth.extraRoots);
				if (extra) out.extraRoots = extra;
			}
			if (auth.allRoots !== undefined) {
				if (typeof auth.allRoots === "boolean") out.allRoots = auth.allRoots;
				else problem("authorization.allRoots", `should be true or false, got ${describe(auth.allRoots)}; ignored`);
			}
			config.authorization = out;
		}
	}

	if (raw.budgets !== undefined) {
		const budgets = raw.budgets;
		if (!isPlainObject(budgets)) {
			problem("budgets", `should be an object of budget numbers, got ${describe(budgets)}; ignored`);
		} else {
			const out: Partial<Budgets> = {};
			for (const [key, value] of Object.entries(budgets)) {
				if (!Object.hasOwn(BUDGET_BOUNDS, key)) {
					problem(`budgets.${key}`, `is not a known budget (known: ${Object.keys(BUDGET_BOUNDS).join(", ")}); ignored`);
					continue;
				}
				const name = key as keyof Budgets;
				const [min, max] = BUDGET_BOUNDS[name];
				if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
					problem(
						`budgets.${key}`,
						`should be an integer from ${min} to ${max}, got ${describe(value)}; using ${DEFAULT_BUDGETS[name]} unless another file sets it`,
					);
					continue;
				}
				out[name] = value;
			}
			config.budgets = out;
		}
	}

	if (raw.catchUp !== undefined) {
		const catchUp = raw.catchUp;
		if (!isPlainObject(catchUp)) {
			problem("catchUp", `should be an object { enabled?, threads? }, got ${describe(catchUp)}; ignored`);
		} else {
			const out: NonNullable<EventIndexConfigFile["catchUp"]> = {};
			for (const key of Object.keys(catchUp)) {
				if (!CATCH_UP_KEYS.has(key)) {
					problem(`catchUp.${key}`, `is not a known key (known: ${[...CATCH_UP_KEYS].join(", ")}); ignored`);
				}
			}
			if (catchUp.enabled !== undefined) {
				if (typeof catchUp.enabled === "boolean") out.enabled = catchUp.enabled;
				else problem("catchUp.enabled", `should be true or false, got ${describe(catchUp.enabled)}; ignored`);
			}
			if (catchUp.threads !== undefined) {
				if (isCatchUpThreads(catchUp.threads)) out.threads = catchUp.threads;
				else problem("catchUp.threads", `should be 1 or 2, got ${describe(catchUp.threads)}; ignored`);
			}
			config.catchUp = out;
		}
	}
	return { config, problems };
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
	return merged;
}

/** Reads and validates one config file; a missing file is not a problem. */
export function readConfigFile(file: string): { found: boolean; config: EventIndexConfigFile; problems: string[] } {
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
export function resolveConfig(
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
			catchUp: { enabled: merged.catchUp?.enabled ?? true, threads: merged.catchUp?.threads ?? BACKGROUND_THREADS },
		},
		problems,
	};
}

/** Loads global then project config, merges, applies the environment; never throws. */
export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
	const paths = configFilePaths(options.cwd, options.agentDir);
	const global = readConfigFile(paths.global);
	// When cwd is the home folder and the agent dir is ~/.pi, the two paths could coincide: read once.
	const project = paths.project === paths.global ? undefined : readConfigFile(paths.project);
	const merged = mergeConfigFiles(global.config, project?.config ?? {});
	const resolved = resolveConfig(merged, options);
	const loadedFiles = [global.found ? paths.global : undefined, project?.found ? paths.project : undefined].filter(
		(file): file is string => file !== undefined,
	);
	return {
		config: { ...resolved.config, loadedFiles },
		problems: [...global.problems, ...(project?.problems ?? [])].concat(resolved.problems),
	};
}
