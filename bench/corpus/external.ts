/** An existing agent dir (e.g. ../shared/bench/bigcorpus.py's) as the large corpus of the bench. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CorpusManifest } from "./generate.js";
import { emptyMarkerCounts } from "./markers.js";
import { KIND_HEAD_BYTES, lineKind, ShapeCollector } from "./stats.js";

/** The shape of existing session files: each line's length and kind (`message/<role>` for messages), as written. */
function shapeOfFiles(files: readonly string[]): ShapeCollector {
	const shape = new ShapeCollector();
	for (const file of files) {
		const bytes = readFileSync(file);
		for (let start = 0; start < bytes.length; ) {
			const nl = bytes.indexOf(10, start);
			const end = nl < 0 ? bytes.length : nl + 1;
			shape.add(lineKind(bytes.toString("latin1", start, Math.min(end, start + KIND_HEAD_BYTES))), end - start);
			start = end;
		}
	}
	return shape;
}

/** An existing agent dir as a corpus (read-only): its files, sizes and shape; no markers (not generated here). */
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
		shape: shapeOfFiles(files).finish(),
		elapsedMs: 0,
	};
}
