/**
 * The natural-question set (bench/natural) is well-formed: enough questions in every class, valid Pi sessions that
 * Pi's own SessionManager opens, every answer written, and every question missing at least one content word of its
 * answer (the set tests relaxed recall, not exact AND). Writes the sessions only; no index.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WrittenSet, writeNaturalSessions } from "../../bench/natural/corpus.js";
import { QUESTION_CLASSES } from "../../bench/natural/set.js";
import { allQuestionWords, checkNaturalSet } from "../../bench/natural/set-check.js";
import { contentWords } from "../../bench/natural/words.js";
import { isStopword } from "../../src/text/stopwords.js";

let dir: string;
let set: WrittenSet;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "natural-set-"));
	set = writeNaturalSessions(join(dir, "a"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("natural-question set", () => {
	it("has at least 200 questions, at least 20 in every class", () => {
		expect(set.questions.length).toBeGreaterThanOrEqual(200);
		for (const cls of QUESTION_CLASSES)
			expect(set.questions.filter((q) => q.cls === cls).length, cls).toBeGreaterThanOrEqual(20);
	});

	it("follows its own rules (answers written, a word always missing, shared words contested)", () => {
		expect(set.unknownKeys).toEqual([]);
		expect(checkNaturalSet(set)).toEqual([]);
	});

	it("never has every content word of a question in an answer, even by the project's own stopwords", () => {
		const written = new Set(set.events.map((e) => e.key));
		const words = allQuestionWords(set);
		set.questions.forEach((q, i) => {
			for (const k of q.answers) expect(written.has(k), `${q.text}: answer ${k}`).toBe(true);
			// A missing word the project treats as optional would let plain AND over the rest find the answer.
			expect(
				words[i].missing.filter((w) => !isStopword(w)),
				q.text,
			).not.toEqual([]);
			expect(words[i].shared.length, q.text).toBeGreaterThan(0);
		});
	});

	it("spans coding and general conversations over several workspaces", () => {
		const sessions = new Set(set.questions.map((q) => q.session));
		expect(sessions.size).toBeGreaterThanOrEqual(20);
		const cwds = new Set(
			set.files.map((f) => (JSON.parse(readFileSync(f, "utf8").split("\n")[0]) as { cwd: string }).cwd),
		);
		expect(cwds.size).toBeGreaterThanOrEqual(8);
	});

	it("writes Pi v3 sessions that Pi's SessionManager opens with every answer entry in place", () => {
		const answerIds = new Map<string, Set<string>>();
		for (const q of set.questions)
			for (const k of q.answers) {
				const [sessionId, entryId] = k.split("/");
				answerIds.set(sessionId, (answerIds.get(sessionId) ?? new Set()).add(entryId));
			}
		let opened = 0;
		for (const file of set.files) {
			const lines = readFileSync(file, "utf8").trimEnd().split("\n");
			expect(JSON.parse(lines[0])).toMatchObject({ type: "session", version: 3 });
			const sm = SessionManager.open(file, dir);
			const entries = sm.getEntries();
			expect(entries.length).toBe(lines.length - 1);
			// One linear branch: every entry's parent is the one before it.
			entries.forEach((e, i) => {
				expect(e.parentId).toBe(i === 0 ? null : entries[i - 1].id);
			});
			const ids = new Set(entries.map((e) => e.id));
			for (const id of answerIds.get(sm.getSessionId()) ?? []) expect(ids.has(id)).toBe(true);
			opened += answerIds.get(sm.getSessionId())?.size ?? 0;
		}
		expect(opened).toBe(new Set(set.questions.flatMap((q) => q.answers)).size);
	});

	it("writes the same bytes every time", () => {
		const again = writeNaturalSessions(join(dir, "b"));
		expect(again.files.length).toBe(set.files.length);
		again.files.forEach((f, i) => {
			expect(readFileSync(f, "utf8")).toBe(readFileSync(set.files[i], "utf8"));
		});
	});
});

describe("the set's checker", () => {
	it("rejects questions whose answer holds every content word (the trivial set)", () => {
		const byKey = new Map(set.events.map((e) => [e.key, e.text]));
		const trivial: WrittenSet = {
			...set,
			questions: set.questions.map((q) => ({ ...q, text: contentWords(byKey.get(q.answers[0]) ?? "").join(" ") })),
		};
		const problems = checkNaturalSet(trivial);
		expect(problems.filter((p) => p.includes("contains every content word")).length).toBe(set.questions.length);
	});

	it("rejects an unwritten answer, a question sharing no word, and an identifier its answer lacks", () => {
		const [first] = set.questions;
		const broken: WrittenSet = {
			...set,
			questions: [
				{ ...first, answers: ["no-such-session/deadbeef"] },
				{ ...first, text: "zebra xylophone quantum" },
				{ ...first, cls: "identifier", text: "NOT_THERE_ID for the invoices" },
			],
		};
		const problems = checkNaturalSet(broken);
		const about = (text: string, rule: string) => problems.some((p) => p.includes(text) && p.includes(rule));
		expect(about(first.text, "no-such-session/deadbeef was not written")).toBe(true);
		expect(about("zebra xylophone quantum", "shares no word")).toBe(true);
		expect(about("NOT_THERE_ID", "no answer holds its identifier")).toBe(true);
	});
});
