/** An existing agent dir (e.g. ../shared/bench/bigcorpus.py's) as the large corpus of the bench. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CorpusManifest } from "./generate.js";
import { emptyMarkerCounts } from "./markers.js";
import { ShapeCollector } from "./stats.js";

/** An existing agent dir as a corpus (read-only): its files and sizes; no markers or shape (not generated here). */
export function externalCorpus(agentDir: string): CorpusManifest {
	const sessionsDir = join(agentDir, "sessions");
	const files = readdirSync(sessionsDir, { recursive: true, encoding: "utf8" })
		.filter((f) => f.endsWith(".jsonl"))
		.map((f) => join(sessionsDir, f));
	const workspaces = readdirSync(sessionsDir).length;
	return {
		generatorVersion: 0,
		seed: "external",
		agentDir,
		sessionsDir,
		sessions: files.length,
		workspaces,
		forks: 0,
		files,
		totalBytes: files.reduce((sum, f) => sum + statSync(f).size, 0),
		markers: emptyMarkerCounts(),
		cwds: [],
		shape: new ShapeCollector().finish(),
		elapsedMs: 0,
	};
}
