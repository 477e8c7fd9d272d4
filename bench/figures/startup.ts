/**
 * Figure 10: what people wait for. Pi's start-up with and without the extension (paired, interleaved runs of the
 * real pi CLI in print mode with the faux provider, --no-session) and the whole-process time of the compiled
 * `pi-event-index` program (`--version`, `status`, `search`) at both corpus scales. Runs the built package (dist/).
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../corpus/generate.js";
import { fmtMs, median } from "../lib/measure.js";
import { type BenchContext, type Figure, type FigureRow, ratioText, scaleLabel } from "./types.js";

const PI_CLI = join(PROJECT_ROOT, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");
const FAUX = join(PROJECT_ROOT, "test", "fixtures", "faux-provider.ts");
const EXTENSION = join(PROJECT_ROOT, "dist", "extension.js");
const BIN = join(PROJECT_ROOT, "bin", "pi-event-index.js");

/** Goals of issue #14. */
const PI_GOAL = "≤ 1.1×";
const VERSION_GOAL_MS = 150;
const SEARCH_GOAL_MS = 300;

/** One process run: wall time and exit code. */
interface Timed {
	ms: number;
	code: number | null;
	stderr: string;
}

/** Runs `argv` to completion and times it as a whole process. */
function timed(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Timed> {
	return new Promise((done, fail) => {
		const started = performance.now();
		const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
		let stderr = "";
		child.stderr.setEncoding("utf8").on("data", (c: string) => {
			stderr += c;
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
		child.on("error", fail);
		child.on("close", (code) => {
			clearTimeout(timer);
			done({ ms: performance.now() - started, code, stderr });
		});
	});
}

/** Environment without the caller's PI_* variables, Pi offline, with its own agent dir and jiti cache. */
function piEnv(agentDir: string, tmp: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("PI_")) env[k] = v;
	return { ...env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", TMPDIR: tmp, NO_COLOR: "1" };
}

/** Pi in print mode: one prompt, the faux model answers "done", no session file written. */
function piArgs(withExtension: boolean): string[] {
	const extensions = withExtension ? [FAUX, EXTENSION] : [FAUX];
	return [
		process.execPath,
		PI_CLI,
		"-p",
		"--no-session",
		"--no-extensions",
		...extensions.flatMap((e) => ["-e", e]),
		"--provider",
		"faux",
		"--model",
		"faux-1",
		"hello",
	];
}

async function piStartup(ctx: BenchContext): Promise<FigureRow> {
	const figure = "10a Pi start-up: with / without the extension";
	const pairs = ctx.quick ? 3 : 20;
	const dir = join(ctx.workDir, "startup");
	const agentDir = join(dir, "agent");
	const tmp = join(dir, "tmp");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(tmp, { recursive: true });
	const env = piEnv(agentDir, tmp);
	// Warm-up (not counted): fills jiti's transpile cache and builds the (empty) index once.
	for (const ext of [false, true]) {
		const w = await timed(piArgs(ext), env, dir);
		if (w.code !== 0) throw new Error(`pi warm-up failed: ${w.stderr.trim().split("\n").slice(-3).join(" ")}`);
	}
	const t = { with: [] as number[], without: [] as number[] };
	for (let i = 0; i < pairs; i++) {
		// Interleaved, the order alternating, so drift in machine load hits both sides alike.
		for (const ext of i % 2 === 0 ? [true, false] : [false, true]) {
			const r = await timed(piArgs(ext), env, dir);
			if (r.code !== 0) throw new Error(`pi run failed: ${r.stderr.trim().split("\n").slice(-3).join(" ")}`);
			(ext ? t.with : t.without).push(r.ms);
		}
	}
	const ratio = median(t.with) / median(t.without);
	return {
		figure,
		measured: fmtMs(median(t.with)),
		baseline: fmtMs(median(t.without)),
		ratio: ratioText(ratio),
		goal: PI_GOAL,
		met: ratio <= 1.1,
		note: `median of ${pairs} paired, interleaved \`pi -p --no-session\` runs (faux provider) each side`,
	};
}

/** The cwd recorded in the first session file found under `agentDir/sessions` (the workspace to search in). */
function someWorkspace(agentDir: string): string {
	const sessions = join(agentDir, "sessions");
	for (const d of readdirSync(sessions, { withFileTypes: true })) {
		if (!d.isDirectory()) continue;
		const file = readdirSync(join(sessions, d.name)).find((f) => f.endsWith(".jsonl"));
		if (!file) continue;
		const fd = openSync(join(sessions, d.name, file), "r");
		const buf = Buffer.alloc(4096);
		const n = readSync(fd, buf, 0, buf.length, 0);
		closeSync(fd);
		const header = JSON.parse(buf.subarray(0, n).toString("utf8").split("\n")[0]) as { cwd?: string };
		if (header.cwd) return header.cwd;
	}
	throw new Error(`no session file under ${sessions}`);
}

/** An index of the corpus: the cold-build figure's, or one built here with the program itself. */
async function indexFor(ctx: BenchContext, tag: "small" | "large"): Promise<string> {
	const built = ctx.indexDirs[tag];
	if (built) return built;
	const m = tag === "small" ? ctx.small : ctx.large;
	const dir = join(ctx.workDir, `startup-index-${tag}-${m.sessions}`);
	ctx.log(`startup: indexing ${scaleLabel(m)} into ${dir}`);
	const r = await timed(
		[process.execPath, BIN, "reindex", "--agent-dir", m.agentDir, "--index-dir", dir],
		process.env,
		ctx.workDir,
	);
	if (r.code !== 0) throw new Error(`reindex failed: ${r.stderr.trim().split("\n").slice(-2).join(" ")}`);
	return dir;
}

async function cliRows(ctx: BenchContext): Promise<FigureRow[]> {
	const reps = ctx.quick ? 3 : 7;
	const env = piEnv(join(ctx.workDir, "startup", "no-agent"), join(ctx.workDir, "startup", "tmp"));
	const version: number[] = [];
	const bare: number[] = [];
	// Interleaved with a bare Node process, the floor any Node program pays on this machine at this moment.
	for (let i = 0; i < reps; i++) {
		version.push((await timed([process.execPath, BIN, "--version"], env, ctx.workDir)).ms);
		bare.push((await timed([process.execPath, "-e", "0"], env, ctx.workDir)).ms);
	}
	const rows: FigureRow[] = [
		{
			figure: "10b CLI --version (whole process)",
			measured: fmtMs(median(version)),
			baseline: `${fmtMs(median(bare))} bare \`node -e 0\``,
			ratio: ratioText(median(version) / median(bare)),
			goal: `≤ ${VERSION_GOAL_MS} ms`,
			met: median(version) <= VERSION_GOAL_MS,
			note: `median of ${reps}, interleaved with a bare Node start (the machine's floor)`,
		},
	];
	const per: Record<string, Record<"small" | "large", number>> = {
		status: { small: 0, large: 0 },
		search: { small: 0, large: 0 },
	};
	for (const tag of ["small", "large"] as const) {
		const m = tag === "small" ? ctx.small : ctx.large;
		const indexDir = await indexFor(ctx, tag);
		const common = ["--agent-dir", m.agentDir, "--index-dir", indexDir];
		const workspace = someWorkspace(m.agentDir);
		for (const [name, args] of [
			["status", ["status"]],
			["search", ["search", "error", "--no-sync", "--workspace", workspace]],
		] as const) {
			const ms: number[] = [];
			for (let i = 0; i < reps; i++) {
				const r = await timed([process.execPath, BIN, ...args, ...common], env, ctx.workDir);
				if (r.code !== 0) throw new Error(`${name} failed: ${r.stderr.trim().split("\n").slice(-2).join(" ")}`);
				ms.push(r.ms);
			}
			per[name][tag] = median(ms);
		}
	}
	for (const name of ["status", "search"] as const) {
		const goal = name === "search" ? SEARCH_GOAL_MS : undefined;
		rows.push({
			figure: `10c CLI ${name} (whole process)`,
			measured: `${fmtMs(per[name].large)} at ${scaleLabel(ctx.large)}`,
			baseline: `${fmtMs(per[name].small)} at ${scaleLabel(ctx.small)}`,
			ratio: ratioText(per[name].large / per[name].small),
			goal: goal ? `≤ ${goal} ms` : "—",
			met: goal ? per[name].large <= goal : null,
			note: `median of ${reps}; ${name === "search" ? "`search error --no-sync` in one workspace" : "counts, coverage, size"}`,
		});
	}
	return rows;
}

export const startup: Figure = {
	name: "startup",
	async run(ctx) {
		if (!existsSync(EXTENSION) || !existsSync(PI_CLI)) throw new Error("dist/ is not built: run npm run build");
		return [await piStartup(ctx), ...(await cliRows(ctx))];
	},
};
