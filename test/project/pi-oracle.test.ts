/**
 * Pi is the oracle for tree states. For every fixture and for generated sessions (branches, compactions, branch
 * summaries, labels), the production sync (SourceSyncer, fed in appends so both the whole-source computation and
 * the leaf-extension fast path run) must mark `selected` exactly the entries of Pi's own SessionManager.getBranch(),
 * and `direct` exactly the message entries whose message Pi's buildSessionContext sends the model. Real Pi package.
 */

import { appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSessionContext, SessionManager } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { decodedSql } from "../../src/store/column-codes.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures");
let store: TempStore;

beforeEach(async () => {
	store = await tempStore();
});
afterEach(() => store.cleanup());

/** A deterministic generated session: random parents (branches), compactions, branch summaries, labels. */
function generated(seed: number): string {
	let s = seed >>> 0;
	const rand = () => {
		s = (s * 1664525 + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
	const ids: string[] = [];
	const id = (n: number) => `g${seed.toString(16)}-${n}`;
	const ts = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
	const lines = [
		JSON.stringify({ type: "session", version: 3, id: `sess-${seed}`, timestamp: ts(0), cwd: "/home/dev/gen" }),
	];
	let leaf: string | null = null;
	const n = 8 + Math.floor(rand() * 30);
	for (let i = 0; i < n; i++) {
		const r = rand();
		// Sometimes branch from an earlier entry (a /tree navigation).
		const parent = ids.length > 2 && rand() < 0.2 ? (ids[Math.floor(rand() * ids.length)] as string) : leaf;
		const base = { id: id(i), parentId: parent, timestamp: ts(i + 1) };
		let entry: Record<string, unknown>;
		if (r < 0.08 && ids.length > 1) {
			const firstKept = ids[Math.floor(rand() * ids.length)];
			entry = { type: "compaction", ...base, summary: `summary ${i}`, firstKeptEntryId: firstKept, tokensBefore: 100 };
		} else if (r < 0.14 && ids.length > 1) {
			entry = { type: "branch_summary", ...base, fromId: ids[Math.floor(rand() * ids.length)], summary: `bs ${i}` };
		} else if (r < 0.18 && ids.length > 0) {
			entry = { type: "label", ...base, targetId: ids[Math.floor(rand() * ids.length)], label: `l${i}` };
		} else if (r < 0.22) {
			entry = { type: "custom_message", ...base, customType: "note", content: `note ${i}`, display: true };
		} else {
			const role = rand() < 0.5 ? "user" : "assistant";
			const message =
				role === "user"
					? { role, content: [{ type: "text", text: `u${i}` }], timestamp: i }
					: {
							role,
							content: [{ type: "text", text: `a${i}` }],
							provider: "faux",
							model: "faux-1",
							stopReason: "stop",
							timestamp: i,
						};
			entry = { type: "message", ...base, message };
		}
		lines.push(JSON.stringify(entry));
		ids.push(id(i));
		leaf = id(i);
	}
	return `${lines.join("\n")}\n`;
}

/** Indexes `text` as `path` through the production sync, in several appends. */
async function indexInAppends(path: string, text: string, cuts: number): Promise<void> {
	const lines = text.split(/(?<=\n)/);
	const syncer = new SourceSyncer(store.db);
	writeFileSync(path, "");
	const step = Math.max(1, Math.ceil(lines.length / cuts));
	for (let i = 0; i < lines.length; i += step) {
		appendFileSync(path, lines.slice(i, i + step).join(""));
		const r = await syncer.sync(path);
		expect(r.status, r.error).not.toBe("failed");
	}
}

/** Pi's view: positions (entry order, header excluded) on the branch, and of the message entries sent directly. */
function piStates(path: string): { selected: number[]; direct: number[] } {
	const sm = SessionManager.open(path);
	const entries = sm.getEntries();
	const position = new Map(entries.map((e, i) => [e, i]));
	const selected = sm
		.getBranch()
		.map((e) => position.get(e) as number)
		.sort((a, b) => a - b);
	const ctx = buildSessionContext(entries);
	const sent = new Set(ctx.messages);
	const direct = entries.flatMap((e, i) => (e.type === "message" && sent.has(e.message) ? [i] : []));
	return { selected, direct };
}

function ourStates(path: string): { selected: number[]; direct: number[] } {
	const rows = store.db
		.prepare(
			`SELECT e.seq, ${decodedSql("entryType", "e.entry_type")} AS type, ${decodedSql("branchState", "e.branch_state")} AS b,
				${decodedSql("selectionState", "e.selection_state")} AS s
			FROM events e JOIN sources src ON src.id = e.source_id WHERE src.path = ? ORDER BY e.seq`,
		)
		.all(path) as Array<{ seq: number; type: string; b: string; s: string }>;
	return {
		selected: rows.filter((r) => r.b === "selected").map((r) => r.seq),
		direct: rows.filter((r) => r.type === "message" && r.s === "direct").map((r) => r.seq),
	};
}

const fixtures = ["pi-0.73.1", "pi-mono-v1"].flatMap((dir) =>
	readdirSync(join(FIXTURES, dir))
		.filter((n) => n.endsWith(".jsonl"))
		.map((n) => join(FIXTURES, dir, n)),
);

describe("Pi is the oracle for tree states", () => {
	it.each(fixtures)("fixture %s: selected = getBranch(), direct = buildSessionContext", async (fixture) => {
		const dir = join(store.dir, "s");
		mkdirSync(dir, { recursive: true });
		const ours = join(dir, "ours.jsonl");
		const theirs = join(dir, "pi.jsonl");
		copyFileSync(fixture, theirs); // Pi may migrate (rewrite) the file it opens: it gets its own copy
		await indexInAppends(ours, readFileSync(fixture, "utf8"), 3);
		expect(ourStates(ours)).toEqual(piStates(theirs));
	});

	it("generated sessions: selected = getBranch(), direct = buildSessionContext", async () => {
		const dir = join(store.dir, "g");
		mkdirSync(dir, { recursive: true });
		for (let seed = 1; seed <= 60; seed++) {
			const text = generated(seed);
			const ours = join(dir, `ours-${seed}.jsonl`);
			const theirs = join(dir, `pi-${seed}.jsonl`);
			writeFileSync(theirs, text);
			await indexInAppends(ours, text, 1 + (seed % 5));
			expect(ourStates(ours), `seed ${seed}`).toEqual(piStates(theirs));
		}
	});
});
