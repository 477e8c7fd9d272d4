/** An existing agent dir (e.g. ../shared/bench/bigcorpus.py's) as the large corpus of the bench. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CorpusManifest } from "./generate.js";
import { emptyMarkerCounts } from "./markers.js";
import { ShapeCollector } from "./stats.js";

const TYPE = /^\{"type":"([A-Za-z_]+)"/;
const ROLE = /"message":\{"role":"([A-Za-z]+)"/;
/** How far into a line its type and a message's role are looked for (Pi writes them first). */
const HEAD_BYTES = 512;

/** The shape of existing session files: each line's length and kind (`message/<role>` for messages), as written. */
export function shapeOfFiles(files: readonly string[]): ShapeCollector {
	const shape = new ShapeCollector();
	for (const file of files) {
		const bytes = readFileSync(file);
		for (let start = 0; start < bytes.length; ) {
			const nl = bytes.indexOf(10, start);
			const end = nl < 0 ? bytes.length : nl + 1;
			const head = bytes.toString("latin1", start, Math.min(end, start + HEAD_BYTES));
			const type = TYPE.exec(head)?.[1] ?? "unparsed";
			const role = type === "message" ? ROLE.exec(head)?.[1] : undefined;
			shape.add(role ? `message/${role}` : type, end - start);
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
