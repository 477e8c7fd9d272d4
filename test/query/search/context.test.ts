/**
 * Relaxed hits ranked with their conversation: a term the event lacks counts for part of its weight when the turn
 * before or after it, the session's opening request or name, or the event's month has it (context.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import { searchEvents } from "../../../src/query/search.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { ALL_ROOTS_CALLER, type TempStore, tempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const caller = ALL_ROOTS_CALLER;
const search = (query: string) => searchEvents(store.db, { query }, caller).hits.map((h) => h.snippet ?? "");

beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir);
	const sessions: Record<string, string[]> = {
		// The answer says "batches" only; the turn it replies to names the backfill.
		backfill: [
			"we need to backfill the invoices table tonight",
			"How many rows per transaction should the backfill write?",
			"Batches of 10k rows please, the table has four million invoices",
		],
		// Distractors: shorter, so plain bm25 ranks their single term above the answer's.
		cookies: ["a batch of cookies", "lunch was good"],
		bread: ["one batch of bread", "dinner was fine"],
		// Written in November (below); no text says "November". The January distractor is shorter.
		november: ["The agency called with a possible match for us, a four year old girl"],
		january: ["The agency called."],
		// More than the 40 events whose context is read, each ranked above the answer by its own words; the
		// answer's workspace path names "caroline" (its session facts are on the row, so it is not cut first).
		fences: Array.from({ length: 48 }, (_, i) => `paint fence ${i}`),
		caroline: ["Oh and I started to paint again, a small landscape of the lake at sunset with acrylics"],
		neighbour: ["Caroline's cat is sleeping"],
		// A measure question: the answer states a number, the shorter distractors do not.
		ruby: ["Ruby's kids are excited about the lake, they are 6 and 9 this year"],
		rubyNotes: ["Ruby's kids said hi", "Ruby's kids made cookies"],
		// More than 40 shorter events with the question's words and no number: the answer is found before the cut.
		pat: ["Pat's kids are excited about the summer, they turn 7 and 10 this year"],
		patNotes: Array.from(
			{ length: 48 },
			(_, i) => `Pat's kids said ${String.fromCharCode(97 + (i % 26))}${"x".repeat(i)}`,
		),
		// A "which" question: the answer names the file as code does; the shorter distractors do not name one.
		flaky: ["the flaky one is test/due-date.test.ts, it fails on CI about once a day"],
		flakyNotes: ["that test is a good test", "the test passes, test done"],
	};
	// A tool output whose call (the event before it) names the file it shows; the distractors are conversation,
	// which outweighs tool output, with the same word.
	const w = lineFactory({ cwd: "/work/repo", prefix: "repo" });
	const call = JSON.parse(w.assistant("reading"));
	call.message.content = [
		{ type: "toolCall", id: "c1", name: "read", arguments: { path: "/work/repo/pnpm-workspace.yaml" } },
	];
	const repo = [w.header(), w.user("set up the monorepo"), `${JSON.stringify(call)}\n`];
	repo.push(w.toolResult("c1", "read", 'packages:\n  - "apps/*"\n  - "packages/*"\n'));
	writeFileSync(join(dir, "repo.jsonl"), repo.join(""));
	await new SourceSyncer(store.db).sync(join(dir, "repo.jsonl"));
	const chat = lineFactory({ cwd: "/work/chat", prefix: "chat" });
	const talk = [chat.header(), chat.user("the packages look fine"), chat.assistant("packages are updated")];
	writeFileSync(join(dir, "chat.jsonl"), talk.join(""));
	await new SourceSyncer(store.db).sync(join(dir, "chat.jsonl"));
	for (const [name, turns] of Object.entries(sessions)) {
		const f = lineFactory({ cwd: `/work/${name}`, prefix: name });
		const lines = [f.header(), ...turns.map((t, i) => (i % 2 === 0 ? f.user(t) : f.assistant(t)))];
		const text = lines.join("");
		writeFileSync(join(dir, `${name}.jsonl`), name === "november" ? text.replaceAll("2026-01-", "2026-11-") : text);
		await new SourceSyncer(store.db).sync(join(dir, `${name}.jsonl`));
	}
});
afterAll(() => store.cleanup());

describe("conversation context in the relaxed tier", () => {
	it("regression: the reply that answers ranks above shorter events with the same term and no context", () => {
		const hits = search("what batch size did we pick for backfilling");
		const answer = hits.findIndex((s) => s.includes("Batches of 10k rows"));
		const cookies = hits.findIndex((s) => s.includes("batch of cookies"));
		const bread = hits.findIndex((s) => s.includes("batch of bread"));
		expect(answer).toBeGreaterThanOrEqual(0);
		expect(answer).toBeLessThan(cookies);
		expect(answer).toBeLessThan(bread);
	});

	it("a term found only in the context still counts as missing from the hit", () => {
		const r = searchEvents(store.db, { query: "batch backfilling" }, caller);
		const hit = r.hits.find((h) => h.snippet?.includes("Batches of 10k rows"));
		expect(hit?.matchedTerms).toEqual(["batch"]);
		expect(hit?.missingTerms).toEqual(["backfilling"]);
	});

	it("a month no text names still counts for the events written in it", () => {
		const hits = search("what did the agency call about in November");
		expect(hits[0]).toContain("possible match");
	});

	it("an event beyond the first 40 by its own words is ranked with its session facts", () => {
		const hits = search("what did Caroline paint");
		const answer = hits.findIndex((h) => h.includes("landscape of the lake"));
		expect(answer).toBeGreaterThanOrEqual(0);
		expect(answer).toBeLessThan(hits.findIndex((h) => h.startsWith("paint fence")));
	});

	it("a question asking a measure ranks the event that states a number first", () => {
		const hits = search("how old are Ruby's kids at school");
		expect(hits[0]).toContain("they are 6 and 9");
	});

	it("a tool output counts the call that produced it as context", () => {
		const hits = search("pnpm-workspace.yaml packages globs");
		const output = hits.findIndex((h) => h.startsWith("packages:"));
		expect(output).toBeGreaterThanOrEqual(0);
		expect(output).toBeLessThan(hits.findIndex((h) => h.includes("packages look fine")));
	});

	it("a measure question counts a number before choosing the events whose context is read", () => {
		const hits = search("how old are Pat's kids at camp");
		expect(hits[0]).toContain("they turn 7 and 10");
	});

	it("a which-question ranks the event that names something as code above ones that do not", () => {
		const hits = search("which test was unreliable");
		expect(hits[0]).toContain("test/due-date.test.ts");
	});
});
