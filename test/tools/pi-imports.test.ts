/**
 * The compiled extension names no Pi package at run time, so one build loads under Pi 1.x (`@earendil-works/*`)
 * without the legacy-name aliases Pi may remove: the only Pi module its compiled modules name is pi-tui's width
 * helpers, by Pi 1.x's name (tui-width.ts), and the extension's one file carries those (scripts/bundle-cli.mjs).
 * Types are erased by the build.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/pi-cli.js";

/** Every `from "…"`, `import "…"` and `import("…")` specifier of a compiled file. */
function specifiers(source: string): string[] {
	const out: string[] = [];
	for (const m of source.matchAll(/\bfrom\s+"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)|\bimport\s+"([^"]+)"/g)) {
		out.push(m[1] ?? m[2] ?? m[3]);
	}
	return out;
}

describe("the compiled extension's imports of Pi", () => {
	it("loads only Pi's TUI width helpers, by Pi 1.x's name", () => {
		const dist = join(REPO_ROOT, "dist");
		const found: string[] = [];
		for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
			if (!entry.isFile() || !entry.name.endsWith(".js")) continue;
			const file = join(entry.parentPath, entry.name);
			for (const s of specifiers(readFileSync(file, "utf8"))) {
				if (/^@(earendil-works|mariozechner)\//.test(s)) found.push(`${relative(dist, file)} ${s}`);
			}
		}
		// The extension's file carries the helpers (scripts/bundle-cli.mjs); the compiled module names them.
		expect(found.sort()).toEqual(["tools/tui-width.js @earendil-works/pi-tui"]);
	});

	it("imports no package but a migration's reader: Pi's TUI helpers, TypeBox, proper-lockfile and xxhash-wasm are carried", () => {
		// Pi 1.x imports the file natively, where its aliases do not apply: an imported `typebox` was a second TypeBox
		// of ~370 modules at every start, and in Pi's own installs (peers left out) an imported pi-tui failed to resolve
		// and sent Pi to jiti's slower fallback (docs/extension.md).
		const source = readFileSync(join(REPO_ROOT, "dist", "extension.js"), "utf8");
		// Import statements (a line of their own in esbuild's output) and dynamic imports, not text that reads alike.
		const bare = [...source.matchAll(/^import\s[^;]*?\sfrom\s+"([^"]+)";$|\bimport\(\s*"([^"]+)"\s*\)/gm)]
			.map((m) => m[1] ?? m[2])
			.filter((s) => !s.startsWith(".") && !s.startsWith("node:"));
		expect([...new Set(bare)].sort()).toEqual(["drizzle-orm/migrator"]);
	});
});
