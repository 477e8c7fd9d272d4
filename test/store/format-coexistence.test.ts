/**
 * Two versions of pi-event-index with different index formats on one agent dir: each keeps its own pointer and
 * generation (the format is in both names), so neither rebuilds, moves or deletes the other's index, however often
 * they alternate.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generationFileName, INDEX_FORMAT, pointerFileName } from "../../src/store/format.js";
import { openStore } from "../../src/store/open-store.js";
import { tempDir } from "../helpers/temp-store.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

/** Files another version (format `f`) would have written: its pointer and its generation. */
function plantOtherVersion(f: number): string[] {
	const file = generationFileName(`other${f}`, f);
	writeFileSync(join(dir, file), `an index of format ${f}: opaque to this version`);
	writeFileSync(join(dir, pointerFileName(f)), `${JSON.stringify({ file, createdAt: "2026-01-01T00:00:00Z" })}\n`);
	return [join(dir, file), join(dir, pointerFileName(f))];
}

describe("index formats side by side", () => {
	it("an older and a newer version's index files are never touched, and ours is never rebuilt", async () => {
		dir = await tempDir();
		const others = [...plantOtherVersion(INDEX_FORMAT - 1), ...plantOtherVersion(INDEX_FORMAT + 1)];
		const before = others.map(sha);
		const generations = new Set<string>();
		for (let round = 0; round < 3; round++) {
			const r = await openStore({ dir });
			if (!r.ok) throw new Error(r.error);
			expect(r.store.fresh).toBe(round === 0 ? "new" : undefined);
			generations.add(r.store.file);
			r.store.close();
			// The other versions "run" in between: their files are exactly as they left them.
			expect(others.map(sha)).toEqual(before);
		}
		expect(generations.size).toBe(1);
		expect([...generations][0]).toMatch(new RegExp(`^index-f${INDEX_FORMAT}-`));
	});
});
