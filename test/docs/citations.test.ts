/**
 * Comments and docs that cite a doc, a section or a file: every citation names something that exists. A renamed
 * doc, section or module makes a comment lie; this catches it (the fault tables are checked the same way:
 * test/store/fault-tables.test.ts).
 *
 * Checked: in every comment of src/, `docs/<name>.md` (and its section, when one is quoted after it: a heading, a
 * bold lead or a line start of that doc) and every `<path>.ts|.mjs|.md|.sql` name; in every doc and the README,
 * each `src/…`, `test/…`, `bench/…` or `migrations/…` path in backticks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** File names comments use as illustrations, not as citations (what a path or a name in a session looks like). */
const EXAMPLES = new Set([
	"retry.ts",
	"billing/retry.ts",
	"src/billing/retry.ts",
	"src/other/retry.ts",
	"a.ts",
	"src/a.ts",
	"src/charts/useChartData.ts",
]);
/** Files of other projects that comments name. */
const ELSEWHERE = new Set(["session-manager.ts"]);

function walk(dir: string, out: string[] = []): string[] {
	for (const name of readdirSync(join(ROOT, dir))) {
		if (name === "node_modules" || name === "node22") continue;
		const path = join(dir, name);
		if (statSync(join(ROOT, path)).isDirectory()) walk(path, out);
		else out.push(path);
	}
	return out;
}

const FILES = ["src", "test", "bench", "scripts", "migrations", "docs"].flatMap((d) => walk(d));
const NAMES = new Set(FILES.map((f) => basename(f)));

/** A file name cited bare (`event-line.ts`) or with part of its path (`store/db.ts`) exists in the project. */
function fileExists(cited: string): boolean {
	return cited.includes("/") ? FILES.some((f) => f === cited || f.endsWith(`/${cited}`)) : NAMES.has(cited);
}

/** True when `doc` has a heading, a bold lead or a line that starts with `section`. */
function hasSection(doc: string, section: string): boolean {
	const text = readFileSync(join(ROOT, doc), "utf8");
	return text.split("\n").some((line) => {
		const l = line.replace(/^#+ /, "").replace(/^\*\*/, "");
		return l.startsWith(section);
	});
}

/** Every comment of a source file, its lines joined, with the line it starts on. */
function comments(file: string): Array<{ text: string; line: number }> {
	const source = readFileSync(join(ROOT, file), "utf8");
	return [...source.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)].map((m) => ({
		text: m[0].replace(/\n\s*\*\s?/g, " "),
		line: source.slice(0, m.index).split("\n").length,
	}));
}

/** What the comments of src/ cite that does not exist, one line each. */
function brokenSourceCitations(): string[] {
	const broken: string[] = [];
	for (const file of FILES.filter((f) => f.startsWith("src/") && /\.(ts|mjs)$/.test(f))) {
		for (const { text, line } of comments(file)) {
			const at = `${file}:${line}`;
			for (const m of text.matchAll(/docs\/([\w.-]+\.md)(?:,? "([^"]+)")?/g)) {
				const doc = `docs/${m[1]}`;
				if (!existsSync(join(ROOT, doc))) broken.push(`${at} cites ${doc}, which does not exist`);
				else if (m[2] && !hasSection(doc, m[2])) broken.push(`${at} cites ${doc} "${m[2]}", no such section`);
			}
			for (const m of text.matchAll(/(?<![\w/.@-])((?:[\w-]+\/)*[\w-]+\.(?:ts|mjs|md|sql))\b/g)) {
				const cited = m[1] as string;
				if (cited.startsWith("docs/") || EXAMPLES.has(cited) || ELSEWHERE.has(cited)) continue;
				if (!fileExists(cited)) broken.push(`${at} cites ${cited}, which does not exist`);
			}
		}
	}
	return broken;
}

/** A path the bench builds (`bench/.build/child.mjs`, not in a clean clone) stands for its source (`bench/child.ts`). */
function sourceOf(path: string): string {
	const built = /^bench\/\.build\/(.+)\.mjs$/.exec(path);
	return built ? `bench/${built[1]}.ts` : path;
}

/** What the docs and the README cite in backticks under src/, test/, bench/ or migrations/ that does not exist. */
function brokenDocCitations(): string[] {
	const broken: string[] = [];
	for (const doc of [...FILES.filter((f) => f.startsWith("docs/") && f.endsWith(".md")), "README.md"]) {
		const text = readFileSync(join(ROOT, doc), "utf8");
		for (const m of text.matchAll(/`((?:src|test|bench|migrations)\/[\w./-]+\.(?:ts|mjs|sql|json))`/g)) {
			if (!EXAMPLES.has(m[1] as string) && !existsSync(join(ROOT, sourceOf(m[1] as string))))
				broken.push(`${relative(ROOT, join(ROOT, doc))} cites ${m[1]}`);
		}
	}
	return broken;
}

describe("citations", () => {
	it("every doc, section and file a comment of src/ names exists", () => {
		expect(brokenSourceCitations()).toEqual([]);
	});

	it("every path the docs and the README name exists", () => {
		expect(brokenDocCitations()).toEqual([]);
	});
});
