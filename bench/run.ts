/**
 * `npm run bench` — generates (or reuses) the corpora, runs every figure against its baseline in the same run,
 * prints one table and writes docs/benchmarks.md. `--quick` is a smoke run (< 3 min) that never fails on timing.
 *
 * Flags: --quick, --fresh (regenerate corpora), --only a,b (figure names, plus ranking, natural and coding), --work <dir>,
 * --doc <path> (default docs/benchmarks.md for full runs, <work>/benchmarks-quick.md for quick runs),
 * --large-agent <dir> (an existing agent dir, read-only, as the large corpus instead of generating one).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { codingFigureRows, runCodingEval } from "./coding-eval/eval.js";
import { corpusDir } from "./coding-eval/sources.js";
import { externalCorpus } from "./corpus/external.js";
import {
	type CorpusManifest,
	DEFAULT_SEED,
	GENERATOR_VERSION,
	generateCorpus,
	PROJECT_ROOT,
} from "./corpus/generate.js";
import { formatBytes, renderShape } from "./corpus/stats.js";
import { append } from "./figures/append.js";
import { coldBuild } from "./figures/cold-build.js";
import { contention } from "./figures/contention.js";
import { search } from "./figures/search.js";
import { startup } from "./figures/startup.js";
import { type BenchContext, type Figure, type FigureRow, skippedRow } from "./figures/types.js";
import { warmStart } from "./figures/warm-start.js";
import { withLoad } from "./lib/load.js";
import { loadProjectApi } from "./lib/project-api.js";
import { consoleTable, describeMachine, keptAnalysis, renderDoc } from "./lib/report.js";
import { naturalFigureRows, runNaturalEval } from "./natural/eval.js";
import { rankingFigureRows, runRankingEval } from "./ranking/eval.js";

/** In run order: cold build first (it builds the indexes the others reuse). */
export const FIGURES: Figure[] = [coldBuild, warmStart, append, search, contention, startup];

/** The row of a figure whose evaluation threw: the first line of its error, never a stack. */
function errorRow(figure: string, err: unknown): FigureRow {
	const note = (err instanceof Error ? err.message : String(err)).split("\n")[0];
	return { figure, measured: "error", baseline: "—", ratio: "—", goal: "—", met: null, note };
}

function flag(argv: string[], name: string): string | undefined {
	const i = argv.indexOf(name);
	return i === -1 ? undefined : argv[i + 1];
}

const log = (msg: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

/** Generate a corpus, or reuse the cached one with the same parameters and generator version. */
export function corpus(workDir: string, sessions: number, bytes: number, fresh: boolean): CorpusManifest {
	const dir = join(workDir, `corpus-${sessions}-${bytes}-s${DEFAULT_SEED}-g${GENERATOR_VERSION}`);
	const manifestPath = join(dir, "manifest.json");
	if (!fresh && existsSync(manifestPath)) {
		log(`reusing corpus ${dir}`);
		return JSON.parse(readFileSync(manifestPath, "utf8")) as CorpusManifest;
	}
	log(`generating ${sessions} sessions / ${formatBytes(bytes)} into ${dir}`);
	const m = generateCorpus({
		agentDir: join(dir, "agent"),
		sessions,
		bytes,
		onProgress: (done, written) => {
			if (done % 2000 === 0 || done === sessions) log(`  ${done}/${sessions} sessions, ${formatBytes(written)}`);
		},
	});
	mkdirSync(dir, { recursive: true });
	writeFileSync(manifestPath, JSON.stringify(m));
	return m;
}

/** Figure 10, the coding eval's held-back half: runs when the converted corpus exists, else one row saying why not. */
async function codingRows(): Promise<FigureRow[]> {
	const dir = corpusDir();
	const report = await runCodingEval(dir);
	if (report === null)
		return [
			skippedRow("10 Coding questions", "report", `no converted corpus at ${dir}; docs/coding-eval.md makes one`),
		];
	return codingFigureRows(report);
}

async function main(argv: string[]): Promise<number> {
	const started = performance.now();
	const quick = argv.includes("--quick");
	const workDir = flag(argv, "--work") ?? join(tmpdir(), "pi-event-index-bench");
	mkdirSync(workDir, { recursive: true });
	const only = flag(argv, "--only")?.split(",");
	const fresh = argv.includes("--fresh");
	const small = corpus(workDir, 10, 2 * 1024 * 1024, fresh);
	const largeAgent = flag(argv, "--large-agent");
	const large = largeAgent
		? externalCorpus(largeAgent)
		: quick
			? corpus(workDir, 300, 24 * 1024 * 1024, fresh)
			: corpus(workDir, 10_000, 1024 ** 3, fresh);
	const api = await loadProjectApi();
	if (!api.ok) log(`project ingestion/search: ${api.reason}; those figures are skipped`);
	const ctx: BenchContext = {
		quick,
		workDir,
		small,
		large,
		project: api.ok ? { ok: true } : { ok: false, reason: api.reason },
		indexDirs: {},
		log,
	};
	const rows: FigureRow[] = [];
	let failed = false;
	for (const fig of FIGURES) {
		if (only && !only.includes(fig.name)) continue;
		log(`figure ${fig.name}`);
		try {
			rows.push(...(await withLoad(() => fig.run(ctx))));
		} catch (err) {
			failed = true;
			const msg = (err instanceof Error ? err.message : String(err)).split("\n").slice(0, 4).join(" ");
			rows.push({ figure: fig.name, measured: "error", baseline: "—", ratio: "—", goal: "—", met: null, note: msg });
		}
	}
	if (!only || only.includes("ranking")) {
		log("figure ranking");
		try {
			rows.push(...rankingFigureRows(await runRankingEval()));
		} catch (err) {
			failed = true;
			rows.push(errorRow("9 Ranking", err));
		}
	}
	if (!only || only.includes("natural")) {
		log("figure natural questions");
		try {
			rows.push(...naturalFigureRows(await runNaturalEval()));
		} catch (err) {
			failed = true;
			rows.push(errorRow("9 Natural questions", err));
		}
	}
	if (!only || only.includes("coding")) {
		log("figure coding questions");
		try {
			rows.push(...(await codingRows()));
		} catch (err) {
			failed = true;
			rows.push(errorRow("10 Coding questions", err));
		}
	}
	const sqlite = (new Database(":memory:").prepare("select sqlite_version() as v").get() as { v: string }).v;
	const machine = describeMachine(sqlite);
	const elapsedMs = performance.now() - started;
	console.log(
		`\n${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, SQLite ${sqlite}`,
	);
	console.log(
		`large corpus: ${large.sessions} sessions, ${formatBytes(large.totalBytes)}; ${(elapsedMs / 60000).toFixed(1)} min\n`,
	);
	console.log(consoleTable(rows));
	for (const r of rows) if (r.note) console.log(`  · ${r.figure}: ${r.note}`);
	console.log(`\nShape of the large corpus:\n${renderShape(large.shape)}`);
	const docPath =
		flag(argv, "--doc") ?? (quick ? join(workDir, "benchmarks-quick.md") : join(PROJECT_ROOT, "docs", "benchmarks.md"));
	writeFileSync(docPath, renderDoc({ machine, rows, small, large, quick, elapsedMs, analysis: keptAnalysis(docPath) }));
	log(`wrote ${docPath}`);
	// Timing never fails a run; a figure that crashed does.
	return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(err) => {
		console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
		process.exitCode = 1;
	},
);
