/** Shared test helpers: fixture access, whole/chunked parsing, a seeded PRNG. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { initialParseState, parseChunk } from "../../src/parse/parse-chunk.js";
import type { ParsedEntry, ParseOptions, ParseState, SessionHeader, SkipReceipt } from "../../src/parse/types.js";

export const FIXTURE_DIR = fileURLToPath(new URL("../../fixtures/", import.meta.url));

/** Every fixture file, as "dir/name.jsonl". */
export function listFixtures(): string[] {
	const out: string[] = [];
	for (const dir of readdirSync(FIXTURE_DIR, { withFileTypes: true })) {
		if (!dir.isDirectory()) continue;
		for (const f of readdirSync(join(FIXTURE_DIR, dir.name))) if (f.endsWith(".jsonl")) out.push(`${dir.name}/${f}`);
	}
	return out.sort();
}

export function fixtureBytes(rel: string): Uint8Array {
	return new Uint8Array(readFileSync(join(FIXTURE_DIR, rel)));
}

export interface Parsed {
	entries: ParsedEntry[];
	receipts: SkipReceipt[];
	header?: SessionHeader;
	state: ParseState;
}

export function parseWhole(bytes: Uint8Array, options?: ParseOptions): Parsed {
	const r = parseChunk(bytes, initialParseState(), options);
	return { entries: r.entries, receipts: r.receipts, header: r.header, state: r.state };
}

/**
 * Parse as an appending file would be read: at each cut point, hand the parser the bytes from its checkpoint up
 * to the cut. The state goes through JSON between calls, without `header` (as the store keeps it).
 */
export function parseAtCuts(bytes: Uint8Array, cuts: number[], options?: ParseOptions): Parsed {
	let state = initialParseState();
	const entries: ParsedEntry[] = [];
	const receipts: SkipReceipt[] = [];
	let header: SessionHeader | undefined;
	for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
		if (cut < state.byteOffset) continue;
		const r = parseChunk(bytes.subarray(state.byteOffset, cut), state, options);
		entries.push(...r.entries);
		receipts.push(...r.receipts);
		header ??= r.header;
		const { header: _dropped, ...rest } = r.state;
		state = JSON.parse(JSON.stringify(rest)) as ParseState;
	}
	return { entries, receipts, header, state };
}

/** mulberry32: small, fast, seeded. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A file from lines: objects are JSON-encoded, strings written as is; every line ends in "\n". */
export function jsonl(...lines: Array<string | object>): Uint8Array {
	const text = lines.map((l) => `${typeof l === "string" ? l : JSON.stringify(l)}\n`).join("");
	return new TextEncoder().encode(text);
}

export const V3_HEADER = {
	type: "session",
	version: 3,
	id: "sess-1",
	timestamp: "2026-01-01T00:00:00.000Z",
	cwd: "/w",
};
export const V1_HEADER = { type: "session", id: "legacy", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" };

/** A minimal v3 entry. */
export function entry(id: string, parentId: string | null, type = "message", extra: object = {}): object {
	const base: Record<string, unknown> = { type, id, parentId, timestamp: "2026-01-01T00:00:01.000Z" };
	if (type === "message" && !("message" in extra)) base.message = { role: "user", content: id, timestamp: 1 };
	return { ...base, ...extra };
}
