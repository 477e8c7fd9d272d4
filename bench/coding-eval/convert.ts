/**
 * Converts the raw SpecStory exports (extract.ts) into Pi v3 sessions:
 * `npx tsx bench/coding-eval/convert.ts [--raw <dir>] [--out <dir>]` (defaults under /work/.cache/coding-eval).
 * Writes `<out>/agent/sessions/<encoded cwd>/<start>_<id>.jsonl` (Pi's layout) and `<out>/corpus.json`, the list of
 * sessions with their labels, ids and entries, which the evaluation resolves the questions' gold entries against.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd } from "../corpus/generate.js";
import { type PiSession, type SessionSpec, toPiSession, type WrittenEntry } from "./pi-session.js";
import { CACHE_DIR, corpusDir, labelOf, loadManifest, rawPathOf, type SourceFile } from "./sources.js";
import { parseSpecStory } from "./specstory.js";

/** One converted session as corpus.json lists it. */
export interface CorpusSession {
	label: string;
	project: string;
	id: string;
	cwd: string;
	title: string;
	/** The session file, relative to the corpus directory. */
	file: string;
	entries: WrittenEntry[];
}

/** corpus.json. */
export interface CorpusIndex {
	sessions: CorpusSession[];
}

/** A date and time written in an export's heading (`2025-04-26 16:30:55`, `25/02/2025, 03:54:18`, `8/22/2024, 2:05:19 PM`). */
export function headingDate(markdown: string): string | undefined {
	const head = markdown.slice(0, 2000);
	const iso = head.match(/(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/);
	if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}T${iso[4]}:${iso[5]}:00.000Z`;
	const m = head.match(/(\d{1,2})\/(\d{1,2})\/(\d{4}),?\s+(?:at\s+)?(\d{1,2}):(\d{2})(?::\d{2})?\s*(AM|PM)?/);
	if (!m) return undefined;
	let [a, b] = [Number(m[1]), Number(m[2])];
	// Day first unless the first number cannot be a day of a month it precedes, or a 12-hour clock says US order.
	const monthFirst = b > 12 || (a <= 12 && m[6] !== undefined);
	if (monthFirst) [a, b] = [b, a];
	let hour = Number(m[4]) % 12;
	if (m[6] === "PM") hour += 12;
	else if (m[6] === undefined) hour = Number(m[4]);
	const two = (n: number) => String(n).padStart(2, "0");
	return `${m[3]}-${two(b)}-${two(a)}T${two(hour)}:${m[5]}:00.000Z`;
}

/** The session's start: the date and time of the file name (`2025-04-26_20-30-…`), else of the heading. */
export function startOf(file: SourceFile, markdown: string): string {
	const base = file.path.split("/").pop() ?? "";
	const m = base.match(/^(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})(?=[-Z_])/);
	if (m) return `${m[1]}T${m[2]}:${m[3]}:00.000Z`;
	const heading = headingDate(markdown);
	if (heading) return heading;
	const day = base.match(/^(\d{4}-\d{2}-\d{2})/);
	if (day) return `${day[1]}T12:00:00.000Z`;
	throw new Error(`${file.path}: no date in its name or heading`);
}

/** Converts one export and writes its session under `outDir`; null when it holds no message. */
export function convertExport(markdown: string, spec: SessionSpec & { project: string }, outDir: string) {
	const chat = parseSpecStory(markdown);
	const pi: PiSession = toPiSession(chat, spec);
	if (pi.entries.length === 0) return null;
	const dir = join("agent", "sessions", encodeCwd(spec.cwd));
	const file = join(dir, `${spec.start.replace(/[:.]/g, "-")}_${pi.id}.jsonl`);
	mkdirSync(join(outDir, dir), { recursive: true });
	writeFileSync(join(outDir, file), `${pi.lines.join("\n")}\n`);
	return {
		label: spec.label,
		project: spec.project,
		id: pi.id,
		cwd: spec.cwd,
		title: chat.title,
		file,
		entries: pi.entries,
	};
}

/** Converts every export of the manifest; returns the index it wrote. */
export function convertAll(rawDir: string, outDir: string): CorpusIndex {
	rmSync(join(outDir, "agent"), { recursive: true, force: true });
	const sessions: CorpusSession[] = [];
	for (const project of loadManifest().projects) {
		for (const file of project.files) {
			const markdown = readFileSync(rawPathOf(rawDir, project, file), "utf8");
			const spec = {
				label: labelOf(project, file),
				project: project.name,
				cwd: project.cwd,
				start: startOf(file, markdown),
			};
			const session = convertExport(markdown, spec, outDir);
			if (session) sessions.push(session);
		}
	}
	const index = { sessions } satisfies CorpusIndex;
	writeFileSync(join(outDir, "corpus.json"), JSON.stringify(index));
	return index;
}

if (process.argv[1]?.endsWith("convert.ts")) {
	const argv = process.argv.slice(2);
	const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
	const rawDir = option("--raw") ?? join(CACHE_DIR, "raw");
	const outDir = option("--out") ?? corpusDir();
	const index = convertAll(rawDir, outDir);
	const entries = index.sessions.reduce((n, s) => n + s.entries.length, 0);
	const projects = new Set(index.sessions.map((s) => s.project)).size;
	console.log(`${index.sessions.length} sessions of ${projects} projects, ${entries} entries, under ${outDir}`);
}
