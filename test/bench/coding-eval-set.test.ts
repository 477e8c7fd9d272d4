/**
 * The coding eval's questions and harness: the committed questions keep the set's rules (enough of every kind in
 * both halves, well-formed gold), the harness skips plainly without a converted corpus, and on a corpus it indexes
 * through the real ingest path and ranks the gold under both searches. Against the real converted corpus (when it is
 * on this machine) every gold event exists in its question's workspace and no question without an answer is answered.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkAgainstCorpus, checkQuestions } from "../../bench/coding-eval/check-set.js";
import { convertExport } from "../../bench/coding-eval/convert.js";
import { codingFigureRows, runCodingEval } from "../../bench/coding-eval/eval.js";
import { type CodingQuestion, halfOf, loadQuestions } from "../../bench/coding-eval/questions.js";
import { corpusDir } from "../../bench/coding-eval/sources.js";
import { loadCorpusIndex, openCodingStore } from "../../bench/coding-eval/store.js";
import { SAMPLE_EXPORT } from "../helpers/specstory-sample.js";

const dirs: string[] = [];
afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("coding eval set", () => {
	it("keeps its rules: at least 400 answerable and 30 unanswerable questions, every kind in both halves", () => {
		const questions = loadQuestions();
		expect(checkQuestions(questions)).toEqual([]);
		// The split is by session: no session lends questions to both halves.
		const halves = new Map<string, Set<string>>();
		for (const q of questions)
			for (const g of q.gold) {
				const label = g.slice(0, g.lastIndexOf("#"));
				halves.set(label, (halves.get(label) ?? new Set()).add(halfOf(q)));
			}
		expect([...halves.values()].every((h) => h.size === 1)).toBe(true);
	});

	it("names every rule a broken question breaks", () => {
		const bad: CodingQuestion[] = [
			{ id: "x", kind: "task", text: "pull up the task about rounding", cwd: "/w", gold: [] },
			{ id: "x", kind: "absent", text: "short", cwd: "/w", gold: ["p/s#0123abcd"] },
		];
		const problems = checkQuestions(bad).join("\n");
		expect(problems).toContain("x: id used twice");
		expect(problems).toContain("gold must be empty exactly for absent");
		expect(problems).toContain("text too short");
		expect(problems).toContain("fewer than 400");
	});

	it("skips plainly when there is no converted corpus", async () => {
		const empty = mkdtempSync(join(tmpdir(), "coding-none-"));
		dirs.push(empty);
		expect(await runCodingEval(empty, [])).toBeNull();
	});

	it("indexes a converted corpus and ranks the gold under both searches, in the caller's workspace only", async () => {
		const dir = mkdtempSync(join(tmpdir(), "coding-eval-"));
		dirs.push(dir);
		const start = "2025-03-04T10:15:00.000Z";
		const mine = convertExport(
			SAMPLE_EXPORT,
			{ label: "billing/s1", project: "billing", cwd: "/home/dev/billing", start },
			dir,
		);
		const other = convertExport(
			SAMPLE_EXPORT,
			{ label: "shop/s1", project: "shop", cwd: "/home/dev/shop", start },
			dir,
		);
		if (!mine || !other) throw new Error("no session written");
		writeFileSync(join(dir, "corpus.json"), JSON.stringify({ sessions: [mine, other] }));
		const failing = mine.entries.find((e) => e.role === "toolResult" && e.isError);
		const questions: CodingQuestion[] = [
			{
				id: "q1",
				kind: "error",
				text: "what did the invoice total test print when it failed",
				cwd: mine.cwd,
				gold: [`billing/s1#${failing?.id}`],
			},
			{ id: "q2", kind: "task", text: "pull up the task about rounding", cwd: mine.cwd, gold: ["billing/s1#00000000"] },
			{ id: "n1", kind: "absent", text: "how did we fix the kafka consumer lag", cwd: mine.cwd, gold: [] },
		];
		const report = await runCodingEval(dir, questions);
		if (!report) throw new Error("corpus not found");
		const [q1, , n1] = report.outcomes;
		expect(q1.project.rank).not.toBeNull();
		expect(q1.bm25.rank).not.toBeNull();
		expect(q1.project.sessionAt5 && q1.bm25.sessionAt5).toBe(true);
		// Both searches stay in the caller's workspace: the same events under /home/dev/shop never come back.
		for (const key of [...q1.project.keys, ...q1.bm25.keys]) expect(key.startsWith(mine.id)).toBe(true);
		expect(n1.project.fullHits + n1.bm25.fullHits).toBe(0);
		// Work no session did: event_search says its matches are weak (bm25 never does), and figure 10 reports how often.
		expect(n1.project.hits).toBeGreaterThan(0);
		expect(n1.project.weak).toBe(true);
		expect(q1.project.weak || n1.bm25.weak).toBe(false);
		const weakRows = codingFigureRows(report).filter((r) => r.figure.includes('says "weak matches"'));
		expect(weakRows.map((r) => r.figure.replace(/, \d+ held-back coding questions$/, ""))).toEqual([
			'10 Coding questions says "weak matches": absent',
			'10 Coding questions says "weak matches": answerable, gold in the top 5',
			'10 Coding questions says "weak matches": answerable, gold not in the top 5',
		]);
		expect(report.problems).toContain("q2: gold billing/s1#00000000 is not in the corpus");
	});

	const real = corpusDir();
	it.skipIf(!existsSync(join(real, "corpus.json")))(
		"every gold event is in the real converted corpus, in its question's workspace",
		async () => {
			const index = loadCorpusIndex(real);
			if (!index) throw new Error("no corpus");
			const store = await openCodingStore(real, index);
			try {
				expect(checkAgainstCorpus(loadQuestions(), store)).toEqual([]);
			} finally {
				store.close();
			}
		},
		600_000,
	);
});
