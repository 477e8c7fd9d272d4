/**
 * Task evidence (task-evidence.ts): a question names past work by its request's topic ("the change we made for
 * duplicate tasks"), while the events it asks for (the edit, the failing run) do not repeat the topic's words. The
 * task — the request and its work up to the next request — that the question matches brings them forward.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../../src/config/budgets.js";
import type { EventSearchHit, EventSearchRequest } from "../../../src/contract.js";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import { matchExpression } from "../../../src/query/search/ranked-window.js";
import { planSearch } from "../../../src/query/search/request.js";
import { searchEvents } from "../../../src/query/search.js";
import { renderSearchText } from "../../../src/tools/render-text.js";
import { counted } from "../../helpers/counted-db.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { type TempStore, tempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const WORKSPACE = "/work/dev/tracker";
const caller = { cwd: WORKSPACE, authorization: { extraRoots: [], allRoots: false }, budgets: DEFAULT_BUDGETS };
const search = (query: string, extra: Partial<EventSearchRequest> = {}): EventSearchHit[] =>
	searchEvents(store.db, { query, ...extra }, caller).hits;

/** An assistant message with one tool call. */
function call(line: string, id: string, name: string, args: Record<string, unknown>): string {
	const entry = JSON.parse(line);
	entry.message.content = [{ type: "toolCall", id, name, arguments: args }];
	return `${JSON.stringify(entry)}\n`;
}

const idOf = (line: string): string => JSON.parse(line).id;

/** Entry ids of the fixture's requests and work, by name. */
const ids: Record<string, string> = {};

async function write(dir: string, name: string, lines: string[]): Promise<void> {
	writeFileSync(join(dir, `${name}.jsonl`), lines.join(""));
	const r = await new SourceSyncer(store.db).sync(join(dir, `${name}.jsonl`));
	expect(r.status).toBe("indexed");
}

beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir);
	const w = lineFactory({ cwd: WORKSPACE, prefix: "dedupe" });
	// Written in file order (each line's parent is the one before), named where a test needs its id.
	const named: Array<[string | undefined, string]> = [
		[undefined, w.header()],
		["dedupeRequest", w.user("Tasks get duplicated when the nightly sync runs twice; make sync skip duplicate tasks.")],
		[undefined, w.assistant("I will look at how the nightly sync saves duplicate tasks first.")],
		[undefined, call(w.assistant("running"), "c1", "bash", { command: "pytest tests/test_sync.py" })],
		["failing", w.toolResult("c1", "bash", "AssertionError: expected 1 row, got 2\n1 failed in 0.12s", true)],
		[
			"dedupeEdit",
			call(w.assistant("editing"), "c2", "edit", {
				path: "importer/sync.py",
				oldText: "for row in rows:\n    save(row)",
				newText:
					"seen = set()\nfor row in rows:\n    if row.key in seen: continue\n    seen.add(row.key)\n    save(row)",
			}),
		],
		[undefined, w.toolResult("c2", "edit", "Successfully replaced text in importer/sync.py.")],
		["labelRequest", w.user("Now rename the export button label to Download CSV.")],
		[
			"labelEdit",
			call(w.assistant("editing"), "c4", "edit", {
				path: "web/toolbar.tsx",
				oldText: "<Button>Export</Button>",
				newText: "<Button>Download CSV</Button>",
			}),
		],
		[undefined, w.toolResult("c4", "edit", "Successfully replaced text in web/toolbar.tsx.")],
		[undefined, call(w.assistant("running"), "c5", "bash", { command: "npm run build" })],
		[
			"labelFailing",
			w.toolResult("c5", "bash", "TypeError: cannot read properties of undefined (reading 'csv')", true),
		],
		[undefined, w.assistant("The export button label now says Download CSV.")],
	];
	await write(
		dir,
		"dedupe",
		named.map(([, line]) => line),
	);
	for (const [name, line] of named) if (name) ids[name] = idOf(line);
	// A session whose work changes course, and runs the test runner among other bash calls.
	const r = lineFactory({ cwd: WORKSPACE, prefix: "retry" });
	const work: Array<[string | undefined, string]> = [
		[undefined, r.header()],
		["retryRequest", r.user("Webhook deliveries time out under load; make the webhook sender retry with backoff.")],
		[undefined, r.assistant("I will wrap the webhook sender in a retry loop that sleeps between webhook retries.")],
		[undefined, call(r.assistant("editing"), "r1", "edit", { path: "hooks/send.py", oldText: "a", newText: "b" })],
		[undefined, r.toolResult("r1", "edit", "Successfully replaced text in hooks/send.py.")],
		["gaveUp", r.assistant("That didn't work: the sleeping loop blocks the worker. A job queue will do it.")],
		[undefined, r.assistant("The webhook sender now queues each retry with exponential backoff.")],
		["csvRequest", r.user("Make the CSV importer skip blank lines.")],
		["lsCall", call(r.assistant("looking"), "r2", "bash", { command: "ls fixtures" })],
		[undefined, r.toolResult("r2", "bash", "blank.csv\nrows.csv")],
		["catCall", call(r.assistant("looking"), "r3", "bash", { command: "head -n 3 fixtures/sample.txt" })],
		[undefined, r.toolResult("r3", "bash", "id,name\n\n1,ann")],
		[undefined, call(r.assistant("editing"), "r4", "edit", { path: "importer/csv.py", oldText: "a", newText: "b" })],
		[undefined, r.toolResult("r4", "edit", "Successfully replaced text in importer/csv.py.")],
		["runnerCall", call(r.assistant("checking"), "r5", "bash", { command: "python -m pytest -q" })],
		[undefined, r.toolResult("r5", "bash", "...\n3 ok in 0.05s")],
		[undefined, r.assistant("The CSV importer skips blank lines now.")],
	];
	await write(
		dir,
		"retry",
		work.map(([, line]) => line),
	);
	for (const [name, line] of work) if (name) ids[name] = idOf(line);
	// A task whose test run says nothing of its topic, and another task's long CI log that holds every word of a
	// question about it.
	const x = lineFactory({ cwd: WORKSPACE, prefix: "exporter" });
	const exporter: Array<[string | undefined, string]> = [
		[undefined, x.header()],
		["exporterRequest", x.user("The invoice exporter writes totals like 10.004; make it round totals to cents.")],
		[undefined, x.assistant("I will round the invoice exporter's totals to cents before writing them.")],
		[undefined, call(x.assistant("editing"), "x1", "edit", { path: "billing/export.py", oldText: "a", newText: "b" })],
		[undefined, x.toolResult("x1", "edit", "Successfully replaced text in billing/export.py.")],
		["exporterRun", call(x.assistant("checking"), "x2", "bash", { command: "python -m pytest tests/billing -q" })],
		[undefined, x.toolResult("x2", "bash", "....\n4 passed in 0.21s")],
		["ciRequest", x.user("Set up the nightly CI job for the billing service.")],
		[undefined, call(x.assistant("checking"), "x3", "bash", { command: "cat ci/last-nightly.log" })],
		[
			"ciLog",
			x.toolResult(
				"x3",
				"bash",
				[
					"nightly: run 1182 on main, change 4f2a9c",
					"collecting tests for billing, invoice, exporter, rounding, ledger",
					...Array.from({ length: 30 }, (_, i) => `tests/billing/test_case_${i}.py ... pass`),
					"summary: 30 tests pass",
				].join("\n"),
			),
		],
		[undefined, x.assistant("The nightly CI job runs the billing tests now.")],
	];
	await write(
		dir,
		"exporter",
		exporter.map(([, line]) => line),
	);
	for (const [name, line] of exporter) if (name) ids[name] = idOf(line);
	// A task whose outputs are mostly a tool's acknowledgements and a file read back, and one command's output.
	const p = lineFactory({ cwd: WORKSPACE, prefix: "report" });
	const report: Array<[string | undefined, string]> = [
		[undefined, p.header()],
		["reportRequest", p.user("The monthly report builder writes empty sections; make it skip them.")],
		[undefined, call(p.assistant("reading"), "p1", "read", { path: "report/build.py" })],
		[undefined, p.toolResult("p1", "read", "def build(sections):\n    for s in sections:\n        write(s)")],
		[undefined, call(p.assistant("editing"), "p2", "edit", { path: "report/build.py", oldText: "a", newText: "b" })],
		["reportAck", p.toolResult("p2", "edit", "Successfully replaced text in report/build.py.")],
		[undefined, call(p.assistant("checking"), "p3", "bash", { command: "python report/build.py --month 2025-03" })],
		["reportPrinted", p.toolResult("p3", "bash", "wrote 4 sections to out/2025-03.pdf (2 skipped)")],
	];
	await write(
		dir,
		"report",
		report.map(([, line]) => line),
	);
	for (const [name, line] of report) if (name) ids[name] = idOf(line);
	// A request that pastes the error it is about, its work failing no more; and another task's failing output that
	// shares some of a question's words.
	const j = lineFactory({ cwd: WORKSPACE, prefix: "jobs" });
	const jobs: Array<[string | undefined, string]> = [
		[undefined, j.header()],
		[
			"pastedError",
			j.user("The thumbnail job runner will not start:\nError: Cannot find module 'sharp-lite'\nPlease sort it out."),
		],
		[undefined, call(j.assistant("editing"), "j1", "edit", { path: "jobs/thumbs.js", oldText: "a", newText: "b" })],
		[undefined, j.toolResult("j1", "edit", "Successfully replaced text in jobs/thumbs.js.")],
		[undefined, call(j.assistant("checking"), "j2", "bash", { command: "node jobs/thumbs.js --once" })],
		[undefined, j.toolResult("j2", "bash", "made 12 previews")],
		["queueRequest", j.user("Add a retry count column to the jobs table.")],
		[undefined, call(j.assistant("checking"), "j3", "bash", { command: "npm run migrate" })],
		["otherFailure", j.toolResult("j3", "bash", "Error: job runner lock held, migration of jobs table aborted", true)],
	];
	await write(
		dir,
		"jobs",
		jobs.map(([, line]) => line),
	);
	for (const [name, line] of jobs) if (name) ids[name] = idOf(line);
	// Three tasks that only discuss the invoice pdf footer, and one that changed it (its edit names none of the words).
	for (const i of [1, 2, 3]) {
		const d = lineFactory({ cwd: WORKSPACE, prefix: `footer-talk${i}` });
		await write(dir, `footer-talk${i}`, [
			d.header(),
			d.user(`Which file would we change for the invoice pdf footer? Just explain the footer, no edit (${i}).`),
			d.assistant("The invoice pdf footer is drawn by the page template; its file sets the footer's margins."),
		]);
	}
	const e = lineFactory({ cwd: WORKSPACE, prefix: "footer-move" });
	const footer: Array<[string | undefined, string]> = [
		[undefined, e.header()],
		["footerRequest", e.user("Move the invoice pdf footer below the totals.")],
		[
			"footerEdit",
			call(e.assistant("editing"), "e1", "edit", { path: "src/layout.py", oldText: "y=40", newText: "y=12" }),
		],
		[undefined, e.toolResult("e1", "edit", "Successfully replaced text in src/layout.py.")],
	];
	await write(
		dir,
		"footer-move",
		footer.map(([, line]) => line),
	);
	for (const [name, line] of footer) if (name) ids[name] = idOf(line);
	// Work on a numbered task: its test run says nothing of the task.
	const m = lineFactory({ cwd: WORKSPACE, prefix: "task27" });
	const task27: Array<[string | undefined, string]> = [
		[undefined, m.header()],
		["task27Request", m.user("Merge main into the task 27 branch and resolve the conflicts.")],
		[undefined, call(m.assistant("merging"), "m1", "bash", { command: "git merge main" })],
		[
			undefined,
			m.toolResult("m1", "bash", "Auto-merging src/queue.ts\nCONFLICT (content): Merge conflict in src/queue.ts"),
		],
		[undefined, call(m.assistant("editing"), "m2", "edit", { path: "src/queue.ts", oldText: "a", newText: "b" })],
		[undefined, m.toolResult("m2", "edit", "Successfully replaced text in src/queue.ts.")],
		["task27Run", call(m.assistant("checking"), "m3", "bash", { command: "npx vitest run" })],
		[undefined, m.toolResult("m3", "bash", "12 ok")],
	];
	await write(
		dir,
		"task27",
		task27.map(([, line]) => line),
	);
	for (const [name, line] of task27) if (name) ids[name] = idOf(line);
	// Other work of the same workspace, some of it talking about tasks and the sync, as a real history does.
	const topics = ["login page css", "orders migration", "cache warmup", "email templates", "admin filters"];
	for (const [i, topic] of [...topics, ...topics].entries()) {
		const f = lineFactory({ cwd: WORKSPACE, prefix: `other${i}` });
		await write(dir, `other${i}`, [
			f.header(),
			f.user(`please fix the ${topic} ${i}`),
			f.assistant(`the ${topic} change is done; the sync of tasks was not touched`),
			call(f.assistant("editing"), `o${i}`, "edit", { path: `src/other${i}.ts`, oldText: "a", newText: "b" }),
			f.toolResult(`o${i}`, "edit", `Successfully replaced text in src/other${i}.ts.`),
		]);
	}
});
afterAll(() => store.cleanup());

describe("the task a question names brings its work forward", () => {
	it("pull up the change we made for duplicate tasks: the edit of that request, named by it", () => {
		const hits = search("pull up the change we made for duplicate tasks in the nightly sync");
		expect(hits[0]?.entryId).toBe(ids.dedupeEdit);
		expect(hits[0]?.toolName).toBe("edit");
		expect(hits[0]?.taskRequestId).toBe(ids.dedupeRequest);
		// A relaxed hit like any other: it says which terms it lacks.
		expect(hits[0]?.missingTerms).toEqual(expect.arrayContaining(["duplicate", "nightly"]));
		// The next request's edit is another task's work.
		expect(hits.slice(0, 3).map((h) => h.entryId)).not.toContain(ids.labelEdit);
	});

	it("the model's text names the request, and the closest-match count skips a hit its task brought", () => {
		const query = "pull up the change we made for duplicate tasks in the nightly sync";
		const result = searchEvents(store.db, { query }, caller);
		const text = renderSearchText(result, query, { cwd: WORKSPACE });
		expect(text).toContain(`taskRequest=${ids.dedupeRequest}`);
		// The closest match is the first hit that matched on its own, not the edit its task brought (it holds fewer).
		const own = result.hits.find((h) => h.missingTerms !== undefined && h.taskRequestId === undefined);
		const lifted = result.hits[0];
		expect(lifted?.matchedTerms?.length).toBeLessThan(own?.matchedTerms?.length ?? 0);
		expect(text).toContain(`the closest match ${own?.matchedTerms?.length} of`);
	});

	it("what error did we hit: the failing output of that task, not of the next one", () => {
		const hits = search("what error did we hit when the nightly sync made duplicate tasks?");
		expect(hits[0]?.entryId).toBe(ids.failing);
		expect(hits[0]?.isError).toBe(true);
		const labelAt = hits.findIndex((h) => h.entryId === ids.labelFailing);
		expect(labelAt === -1 || labelAt > 0).toBe(true);
	});

	it("what error did we hit: the error the user pasted into the request, before another task's failing output", () => {
		const hits = search("what error did we hit with the thumbnail job runner?");
		expect(hits[0]?.entryId).toBe(ids.pastedError);
		expect(hits.findIndex((h) => h.entryId === ids.otherFailure)).toBeGreaterThan(0);
	});

	it("a task with nothing of the wanted kind gives its place to the next: the edit of the task that made one", () => {
		const hits = search("which file did we change for the invoice pdf footer?");
		const at = hits.findIndex((h) => h.entryId === ids.footerEdit);
		expect(at).toBeGreaterThanOrEqual(0);
		expect(at).toBeLessThan(3);
		expect(hits[at]?.taskRequestId).toBe(ids.footerRequest);
	});

	it("a task ends at the next request: the label question gets the label edit", () => {
		const hit = search("how did we fix the export button label?")[0];
		expect(hit?.entryId).toBe(ids.labelEdit);
	});

	it("the filters still decide: with kinds of text only, no edit is brought forward", () => {
		const hits = search("pull up the change we made for duplicate tasks in the nightly sync", {
			kinds: ["user_text", "assistant_text"],
		});
		expect(hits.length).toBeGreaterThan(0);
		for (const hit of hits) expect(["user_text", "assistant_text"]).toContain(hit.semanticKind);
		for (const hit of hits) expect(hit.taskRequestId).toBeUndefined();
	});

	it("a list of keywords states no intent: nothing is brought forward", () => {
		for (const hit of search("duplicate tasks nightly sync")) expect(hit.taskRequestId).toBeUndefined();
	});
});

describe("within the best tasks, the events the question means", () => {
	const gaveUpAt = (query: string): { at: number; hit?: EventSearchHit } => {
		const hits = search(query);
		const at = hits.findIndex((h) => h.entryId === ids.gaveUp);
		return { at, hit: hits[at] };
	};

	it("what did we try first and abandon: the assistant's turn that gives the approach up, named by its task", () => {
		const { at, hit } = gaveUpAt("what did we try first for the webhook retries before we changed approach?");
		expect(at).toBeGreaterThanOrEqual(0);
		expect(at).toBeLessThan(3);
		expect(hit?.taskRequestId).toBe(ids.retryRequest);
	});

	it("what didn't work for …: asks the same, though it names no cue word", () => {
		const { at, hit } = gaveUpAt("remind me what didn't work for the webhook retries");
		expect(at).toBeGreaterThanOrEqual(0);
		expect(at).toBeLessThan(3);
		expect(hit?.taskRequestId).toBe(ids.retryRequest);
	});

	it("which tests did we run: the bash call of a test runner, not the task's other bash calls", () => {
		const hits = search("which tests did we run after the csv importer blank lines change, and did they pass?");
		const runner = hits.findIndex((h) => h.entryId === ids.runnerCall);
		expect(runner).toBeGreaterThanOrEqual(0);
		expect(runner).toBeLessThan(3);
		expect(hits[runner]?.taskRequestId).toBe(ids.csvRequest);
		const others = hits.filter((h) => h.entryId === ids.lsCall || h.entryId === ids.catCall);
		expect(others).toEqual([]);
	});

	it("what did it print: the command's output, not the edit's acknowledgement or the file read back", () => {
		const hits = search("what did the monthly report builder print once it skipped empty sections?");
		expect(hits[0]?.entryId).toBe(ids.reportPrinted);
		expect(hits[0]?.taskRequestId).toBe(ids.reportRequest);
		const outputs = hits.filter((h) => h.semanticKind === "tool_result" && h.taskRequestId !== undefined);
		expect(outputs.map((h) => h.toolName)).toEqual(["bash"]);
	});

	it("a numbered task names the work: after the conflicts in task 27, did the tests pass? asks for the test run", () => {
		const hits = search("after we merged the conflicts in task 27, did the tests pass?");
		const at = hits.findIndex((h) => h.entryId === ids.task27Run);
		expect(at).toBeGreaterThanOrEqual(0);
		expect(at).toBeLessThan(3);
		expect(hits[at]?.taskRequestId).toBe(ids.task27Request);
	});

	it("what did the tests say: a test run too, not the edit of the change it names", () => {
		const hits = search("what did the tests say after the csv importer blank lines change?");
		const runner = hits.findIndex((h) => h.entryId === ids.runnerCall);
		expect(runner).toBeGreaterThanOrEqual(0);
		expect(runner).toBeLessThan(3);
	});
});

describe("a question asking for the work ranks in one order", () => {
	it("the test run of the task it names comes before another task's log that holds every word", () => {
		const query = "which tests did we run after the invoice exporter rounding change, and did they pass?";
		const result = searchEvents(store.db, { query }, caller);
		const at = (id: string) => result.hits.findIndex((h) => h.entryId === id);
		expect(at(ids.exporterRun)).toBe(0);
		expect(result.hits[0]?.taskRequestId).toBe(ids.exporterRequest);
		// The log still holds every term and is shown as such, after it.
		expect(at(ids.ciLog)).toBeGreaterThan(0);
		expect(result.hits[at(ids.ciLog)]?.missingTerms ?? []).toEqual([]);
		expect(result.tiers?.allTerms).toBeGreaterThanOrEqual(1);
		expect(result.weakMatches).toBeUndefined();
		// The model's text counts it among the events holding every term, and the closest match among the others.
		const text = renderSearchText(result, query, { cwd: WORKSPACE });
		expect(text).toMatch(/contains? all of/);
		expect(text).not.toMatch(/the closest match (\d+) of \1 terms/);
	});

	// Regression: the page came from the relaxed tier, yet tier 1 walked and ranked the conjunction of every term first
	// (about 40 of 70 ms a question on 1 GB, docs/benchmarks.md "Session 31").
	it("walks no conjunction of every term when its one order finds the page", () => {
		const query = "which tests did we run after the invoice exporter rounding change, and did they pass?";
		const plan = planSearch(store.db, { query }, caller);
		const everyTerm = matchExpression(
			{ tagMatches: [], tagExclusions: [] },
			plan.terms.map((t) => t.match),
		);
		const { wrapped, calls } = counted(store.db);
		const result = searchEvents(wrapped, { query }, caller);
		expect(result.hits[0]?.entryId).toBe(ids.exporterRun);
		const conjunction = calls.filter((c) => c.params.some((p) => typeof p === "string" && p.includes(everyTerm)));
		expect(conjunction).toEqual([]);
	});

	it("a question stating no work intent keeps the events holding every term first", () => {
		const hits = search("invoice exporter rounding tests run change pass");
		expect(hits[0]?.entryId).toBe(ids.ciLog);
		expect(hits[0]?.missingTerms).toBeUndefined();
	});
});
