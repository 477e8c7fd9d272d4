import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { tempDir } from "./temp-store.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let cleanup = () => {};
afterEach(() => cleanup());

it("src/store/schema.ts and migrations/ agree (drizzle-kit generate finds no changes)", () => {
	const t = tempDir("pei-drift-");
	cleanup = t.cleanup;
	const out = join(t.dir, "migrations");
	cpSync(join(ROOT, "migrations"), out, { recursive: true });
	const config = join(t.dir, "drizzle.config.json");
	writeFileSync(
		config, // drizzle-kit only accepts a relative `out`: run it inside the temp dir.
		JSON.stringify({ dialect: "sqlite", schema: join(ROOT, "src/store/schema.ts"), out: "./migrations" }),
	);
	const before = readdirSync(out).sort();
	const stdout = execFileSync(
		process.execPath,
		[join(ROOT, "node_modules/drizzle-kit/bin.cjs"), "generate", "--config", config],
		{
			cwd: t.dir,
			encoding: "utf8",
			stdio: ["ignore", "pipe", "pipe"],
		},
	);
	expect(stdout).toMatch(/No schema changes/);
	expect(readdirSync(out).sort()).toEqual(before);
});
