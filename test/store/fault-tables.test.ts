/**
 * The fault tables of docs/lifecycle.md and docs/store.md name, on every row, the test that proves it: a test file
 * that exists and test names that are in it. A renamed or deleted test makes the docs lie; this catches it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** The rows of the table under "## Faults" in `doc`: their last cell. */
function faultRows(doc: string): string[] {
	const text = readFileSync(join(ROOT, "docs", doc), "utf8");
	const section = text.slice(text.indexOf("## Faults\n")).split(/\n## /)[0] ?? "";
	return section
		.split("\n")
		.filter((l) => l.startsWith("| ") && !l.startsWith("| fault ") && !l.startsWith("| ---"))
		.map((l) => l.split(" | ").at(-1)?.replace(/ \|$/, "") ?? "");
}

/** Each `test/…` file the cell names, with the quoted test names right after it. */
function citations(cell: string): Array<{ file: string; names: string[] }> {
	return [...cell.matchAll(/`(test\/[^`]+)`((?:,?\s*"[^"]+")*)/g)].map((m) => ({
		file: m[1] as string,
		names: [...(m[2] ?? "").matchAll(/"([^"]+)"/g)].map((n) => n[1] as string),
	}));
}

describe.each(["lifecycle.md", "store.md"])("docs/%s fault table", (doc) => {
	it("names, on every row, a test file that exists and test names that are in it", () => {
		const rows = faultRows(doc);
		expect(rows.length).toBeGreaterThan(5);
		for (const cell of rows) {
			if (cell.trim() === "—") continue; // a row that points to the other document's table
			const cited = citations(cell);
			expect(cited.length, `row without a test: ${cell}`).toBeGreaterThan(0);
			for (const { file, names } of cited) {
				expect(existsSync(join(ROOT, file)), `${file} does not exist`).toBe(true);
				expect(names.length, `${file} cited without a test name`).toBeGreaterThan(0);
				const source = readFileSync(join(ROOT, file), "utf8");
				for (const name of names) expect(source, `${file} has no test "${name}"`).toContain(name);
			}
		}
	});
});
