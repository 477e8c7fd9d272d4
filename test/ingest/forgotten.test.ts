import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	excludingGlob,
	Forgotten,
	readTombstones,
	TOMBSTONE_FILE,
	type Tombstone,
} from "../../src/ingest/forgotten.js";

let dir: string;
const stone = (path: string, sessionId: string | null = null, extra: Partial<Tombstone> = {}): Tombstone => ({
	sessionId,
	path,
	cwd: null,
	forgottenAt: "2026-01-01T00:00:00.000Z",
	reason: "forget",
	...extra,
});

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pei-forgotten-"));
});

afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

describe("Forgotten: the tombstone file", () => {
	it("answers by path and by session id, across instances (another process's forget)", () => {
		const writer = new Forgotten(dir);
		const reader = new Forgotten(dir);
		expect(reader.has("/s/a.jsonl")).toBe(false);
		writer.record(stone("/s/a.jsonl", "id-a"));
		expect(reader.has("/s/a.jsonl")).toBe(true);
		expect(reader.has("/elsewhere/copy.jsonl", "id-a")).toBe(true);
		writer.drop(["/s/a.jsonl"]);
		expect(reader.has("/s/a.jsonl")).toBe(false);
	});

	it("regression: a damaged file is never read as an empty list, and a forget does not overwrite it", () => {
		const f = new Forgotten(dir);
		f.record(stone("/s/a.jsonl"));
		expect(f.has("/s/a.jsonl")).toBe(true);
		writeFileSync(join(dir, TOMBSTONE_FILE), "{ not json");
		expect(f.has("/s/a.jsonl")).toBe(true);
		expect(() => f.record(stone("/s/b.jsonl"))).toThrow();
		expect(readFileSync(join(dir, TOMBSTONE_FILE), "utf8")).toBe("{ not json");
	});

	it("an excluded tombstone lapses when the person's config no longer has its glob", () => {
		new Forgotten(dir, ["/w/client-*"]).record(stone("/s/c.jsonl", null, { reason: "excluded", glob: "/w/client-*" }));
		expect(new Forgotten(dir, ["/w/client-*"]).has("/s/c.jsonl")).toBe(true);
		expect(new Forgotten(dir, []).has("/s/c.jsonl")).toBe(false);
		expect(readTombstones(dir)).toHaveLength(1);
	});
});

describe("excludingGlob", () => {
	it("matches the workspace and folders inside it; * stays within one folder, ** does not", () => {
		expect(excludingGlob(["/home/me/client-*"], "/home/me/client-acme")).toBe("/home/me/client-*");
		expect(excludingGlob(["/home/me/client-*"], "/home/me/client-acme/app/src")).toBe("/home/me/client-*");
		expect(excludingGlob(["/home/me/client-*"], "/home/me/clients")).toBeUndefined();
		expect(excludingGlob(["/home/*/secret"], "/home/me/x/secret")).toBeUndefined();
		expect(excludingGlob(["/home/**/secret"], "/home/me/x/secret")).toBe("/home/**/secret");
		expect(excludingGlob(["/home/me/client-?"], "/home/me/client-a")).toBe("/home/me/client-?");
		expect(excludingGlob([], "/home/me")).toBeUndefined();
	});
});
