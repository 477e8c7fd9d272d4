/**
 * Pi is the oracle for tree states. For every fixture and for generated sessions (branches, compactions, branch
 * summaries, labels; for Pi 1.x also system messages, context edits and usage entries), the production sync
 * (SourceSyncer, fed in appends so both the whole-source computation and the leaf-extension fast path run) must mark
 * `selected` exactly the entries of Pi's own SessionManager.getBranch(), and `direct` exactly the message entries
 * whose message Pi's buildSessionContext sends the model unedited. Real Pi packages: 0.73.1 and 1.6.
 */

import { appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import * as pi073 from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// Pi 1.x's session manager by its file: the package's index needs Node 22 (it imports node:fs globSync at load),
// this module does not, so Pi's own code runs here on Node 20 as it is.
import * as pi16 from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { SourceSyncer } from "../../src/ingest/sync-source.js";
import { decodedSql } from "../../src/store/column-codes.js";
import { type TempStore, tempStore } from "../helpers/temp-store.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures");
let store: TempStore;

beforeEach(async () => {
	store = await tempStore();
});
afterEach(() => store.cleanup());

/** Pi 1.x's leading system message: the prompt sections and tools (what matters here: its role). */
const SYSTEM_MESSAGE = { role: "system", content: "", sections: { preamble: "You are Pi." }, toolsAdded: [] };

/**
 * A deterministic generated session: random parents (branches), compactions, branch summaries, labels; with `pi1`
 * also Pi 1.x's system messages (leading, and patches later), context edits of user, assistant and custom messages
 * (omissions and replacements, as Pi's appendContextEdit allows) and usage entries.
 */
function generated(seed: number, pi1 = false): string {
	let s = seed >>> 0;
	const rand = () => {
		s = (s * 1664525 + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
	const pick = (list: string[]) => list[Math.floor(rand() * list.length)] as string;
	const ids: string[] = [];
	const editable: string[] = [];
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
		const parent = ids.length > 2 && rand() < 0.2 ? pick(ids) : leaf;
		const base = { id: id(i), parentId: parent, timestamp: ts(i + 1) };
		let entry: Record<string, unknown>;
		if (pi1 && i === 0) {
			entry = { type: "message", ...base, message: { ...SYSTEM_MESSAGE, timestamp: i } };
		} else if (r < 0.08 && ids.length > 1) {
			entry = { type: "compaction", ...base, summary: `summary ${i}`, firstKeptEntryId: pick(ids), tokensBefore: 100 };
			if (pi1) entry.systemMessage = { ...SYSTEM_MESSAGE, timestamp: i };
		} else if (r < 0.14 && ids.length > 1) {
			entry = { type: "branch_summary", ...base, fromId: pick(ids), summary: `bs ${i}` };
		} else if (r < 0.18 && ids.length > 0) {
			entry = { type: "label", ...base, targetId: pick(ids), label: `l${i}` };
		} else if (r < 0.22) {
			entry = { type: "custom_message", ...base, customType: "note", content: `note ${i}`, display: true };
			editable.push(id(i));
		} else if (pi1 && r < 0.25) {
			entry = { type: "message", ...base, message: { ...SYSTEM_MESSAGE, sections: { extra: `${i}` }, timestamp: i } };
		} else if (pi1 && r < 0.35 && editable.length > 0) {
			const replacement = rand() < 0.7 ? null : { content: [{ type: "text", text: `edited ${i}` }] };
			entry = { type: "context_edit", ...base, targetId: pick(editable), replacement };
		} else if (pi1 && r < 0.38) {
			const usage = { input: 0, output: 0, cacheRead: 9, cacheWrite: 0, totalTokens: 9 };
			entry = { type: "usage", ...base, kind: "cache_warm", provider: "faux", model: "faux-1", usage };
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
			editable.push(id(i));
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

/** The part of a Pi version's session-manager module the oracle calls (the same in 0.73.1 and 1.6). */
interface PiSessions {
	SessionManager: { open(path: string): { getEntries(): object[]; getBranch(): object[] } };
	buildSessionContext(entries: never[]): { messages: unknown[] };
	/** Pi 1.x: the context with each message's source entry, and an entry's messages before any context edit. */
	buildSessionProjection?(entries: never[]): { entries: Array<{ sourceEntry: object; messages: unknown[] }> };
	sessionEntryToContextMessages?(entry: never): unknown[];
}

/** Which entries are on the branch and which are sent unedited, by position (entry order, header excluded). */
interface States {
	selected: number[];
	/** Message entries. */
	direct: number[];
	/** Pi 1.x: entries of every type (summaries, custom messages, the compaction) sent as they are. */
	sent?: number[];
}

/** Pi's view. */
function piStates(pi: PiSessions, path: string): States {
	const sm = pi.SessionManager.open(path);
	const entries = sm.getEntries() as Array<{ type: string; message?: unknown }>;
	const position = new Map<object, number>(entries.map((e, i) => [e, i]));
	const selected = sm
		.getBranch()
		.map((e) => position.get(e) as number)
		.sort((a, b) => a - b);
	const ctx = pi.buildSessionContext(entries as never[]);
	// Identity: an edited (or omitted) entry's message is a copy with other content, or is not sent at all.
	const sent = new Set(ctx.messages);
	const direct = entries.flatMap((e, i) => (e.type === "message" && sent.has(e.message) ? [i] : []));
	if (!pi.buildSessionProjection || !pi.sessionEntryToContextMessages) return { selected, direct };
	const unedited = pi.sessionEntryToContextMessages.bind(pi);
	const asIs = pi
		.buildSessionProjection(entries as never[])
		.entries.filter((p) => p.messages.length > 0 && isDeepStrictEqual(p.messages, unedited(p.sourceEntry as never)))
		.map((p) => position.get(p.sourceEntry) as number)
		.sort((a, b) => a - b);
	return { selected, direct, sent: asIs };
}

/** Ours, in Pi's terms (`sent`: every `direct` event, when the Pi compared with reports it). */
function ourStates(path: string, withSent: boolean): States {
	const rows = store.db
		.prepare(
			`SELECT e.seq, ${decodedSql("entryType", "e.entry_type")} AS type, ${decodedSql("branchState", "e.branch_state")} AS b,
				${decodedSql("selectionState", "e.selection_state")} AS s
			FROM events e JOIN sources src ON src.id = e.source_id WHERE src.path = ? ORDER BY e.seq`,
		)
		.all(path) as Array<{ seq: number; type: string; b: string; s: string }>;
	const states: States = {
		selected: rows.filter((r) => r.b === "selected").map((r) => r.seq),
		direct: rows.filter((r) => r.type === "message" && r.s === "direct").map((r) => r.seq),
	};
	if (withSent) states.sent = rows.filter((r) => r.s === "direct").map((r) => r.seq);
	return states;
}

/** The fixtures of these directories of fixtures/. */
function fixturesOf(dirs: string[]): string[] {
	return dirs.flatMap((dir) =>
		readdirSync(join(FIXTURES, dir))
			.filter((n) => n.endsWith(".jsonl"))
			.map((n) => join(FIXTURES, dir, n)),
	);
}

/** Each supported Pi: its session manager, the fixtures it reads and whether it writes Pi 1.x's entries. */
const PIS: Array<{ name: string; pi: PiSessions; fixtures: string[]; pi1: boolean }> = [
	{
		name: "Pi 0.73.1",
		pi: pi073 as unknown as PiSessions,
		fixtures: fixturesOf(["pi-0.73.1", "pi-mono-v1"]),
		pi1: false,
	},
	{
		name: "Pi 1.6",
		pi: pi16 as unknown as PiSessions,
		fixtures: fixturesOf(["pi-1.6", "pi-0.73.1", "pi-mono-v1"]),
		pi1: true,
	},
];

describe.each(PIS)("$name is the oracle for tree states", ({ pi, fixtures, pi1 }) => {
	it.each(fixtures)("fixture %s: selected = getBranch(), direct = buildSessionContext", async (fixture) => {
		const dir = join(store.dir, "s");
		mkdirSync(dir, { recursive: true });
		const ours = join(dir, "ours.jsonl");
		const theirs = join(dir, "pi.jsonl");
		copyFileSync(fixture, theirs); // Pi may migrate (rewrite) the file it opens: it gets its own copy
		await indexInAppends(ours, readFileSync(fixture, "utf8"), 3);
		expect(ourStates(ours, pi1)).toEqual(piStates(pi, theirs));
	});

	it("generated sessions: selected = getBranch(), direct = buildSessionContext", async () => {
		const dir = join(store.dir, "g");
		mkdirSync(dir, { recursive: true });
		for (let seed = 1; seed <= 60; seed++) {
			const text = generated(seed, pi1);
			const ours = join(dir, `ours-${seed}.jsonl`);
			const theirs = join(dir, `pi-${seed}.jsonl`);
			writeFileSync(theirs, text);
			await indexInAppends(ours, text, 1 + (seed % 5));
			expect(ourStates(ours, pi1), `seed ${seed}`).toEqual(piStates(pi, theirs));
		}
	});
});
