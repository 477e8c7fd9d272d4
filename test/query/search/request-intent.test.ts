/**
 * Questions about past coding work, asked as people ask them: request words ("remind me", "pull up that task",
 * "find the session where") and the caller's workspace name are not terms (request-words.ts, workspace-name.ts),
 * and the question's intent favours its kind of event (intent.ts): a failing output for "what error", an edit for
 * "how did we fix", a test run for "which tests did we run", the user's request for "pull up the task".
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../../src/config/budgets.js";
import type { EventSearchHit } from "../../../src/contract.js";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import { searchEvents } from "../../../src/query/search.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { type TempStore, tempStore } from "../../helpers/temp-store.js";

let store: TempStore;
const WORKSPACE = "/work/dev/django";
const caller = { cwd: WORKSPACE, authorization: { extraRoots: [], allRoots: false }, budgets: DEFAULT_BUDGETS };
const search = (query: string): EventSearchHit[] => searchEvents(store.db, { query }, caller).hits;

/** An assistant message with one tool call. */
function call(line: string, id: string, name: string, args: Record<string, unknown>): string {
	const entry = JSON.parse(line);
	entry.message.content = [{ type: "toolCall", id, name, arguments: args }];
	return `${JSON.stringify(entry)}\n`;
}

beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir);
	const w = lineFactory({ cwd: WORKSPACE, prefix: "upload" });
	const lines = [
		w.header(),
		w.user("The upload widget drops big attachments without a word, can you look into it?"),
		w.assistant("I will reproduce the problem with the upload widget and big attachments first."),
		call(w.assistant("running"), "c1", "bash", { command: "python repro_upload.py" }),
		w.toolResult(
			"c1",
			"bash",
			'Traceback (most recent call last):\n  File "widgets/upload.py", line 12, in save\nUploadError: attachments over 10 MB rejected by the upload widget',
			true,
		),
		w.assistant("The upload widget rejects attachments over 10 MB, so we stream attachments in chunks."),
		call(w.assistant("editing"), "c2", "edit", {
			path: "widgets/upload.py",
			oldText: "data = attachments.read()",
			newText: "for chunk in attachments.chunks(): sink.write(chunk)",
		}),
		w.toolResult("c2", "edit", "Successfully replaced text in widgets/upload.py."),
		w.assistant("Now the attachments tests for the upload widget, they should pass."),
		call(w.assistant("testing"), "c3", "bash", { command: "pytest tests/test_attachments.py" }),
		w.toolResult("c3", "bash", "tests/test_attachments.py ....  4 passed in 0.31s"),
		w.assistant("All four attachments tests passed after the upload widget change."),
	];
	writeFileSync(join(dir, "upload.jsonl"), lines.join(""));
	await new SourceSyncer(store.db).sync(join(dir, "upload.jsonl"));
	// Other work in the same workspace, so the question's words are rare, as in a real history.
	const topics = ["login page css", "orders migration", "cache warmup", "email templates", "admin filters"];
	for (const [i, topic] of [...topics, ...topics, ...topics].entries()) {
		const f = lineFactory({ cwd: WORKSPACE, prefix: `other${i}` });
		const turns = [f.header(), f.user(`please fix the ${topic} ${i}`), f.assistant(`the ${topic} change is done`)];
		writeFileSync(join(dir, `other${i}.jsonl`), turns.join(""));
		await new SourceSyncer(store.db).sync(join(dir, `other${i}.jsonl`));
	}
});
afterAll(() => store.cleanup());

const first = (query: string) => search(query)[0];

describe("request words are intent, not terms", () => {
	it("a question with request words finds the request, and its missing list names none of them", () => {
		const hits = search("remind me, can you pull up the task about the upload widget attachments");
		expect(hits[0]?.role).toBe("user");
		// "task" stays a term (users write it in their requests); it also makes the request the wanted kind.
		for (const hit of hits) expect(hit.missingTerms ?? []).not.toEqual(expect.arrayContaining(["remind"]));
		for (const hit of hits) expect(hit.missingTerms ?? []).not.toContain("pull");
	});

	it("find the session where I asked about …: the hit holds every term the question means", () => {
		const hit = first("find the session where I asked about big attachments");
		expect(hit?.role).toBe("user");
		expect(hit?.missingTerms ?? []).toEqual([]);
	});

	it("the caller's workspace name is context: not listed as missing", () => {
		const hits = search("django upload widget attachments");
		expect(hits.length).toBeGreaterThan(0);
		for (const hit of hits) expect(hit.missingTerms ?? []).not.toContain("django");
	});

	it("the workspace name alone is still searched", () => {
		expect(searchEvents(store.db, { query: "django" }, caller).hits).toEqual([]);
	});
});

describe("the question's intent favours its kind of event", () => {
	it("what error did we hit: the failing output", () => {
		const hit = first("what was the error with the upload widget attachments?");
		expect(hit?.role).toBe("toolResult");
		expect(hit?.isError).toBe(true);
	});

	it("how did we fix: the edit", () => {
		const hit = first("how did we fix the upload widget attachments?");
		expect(hit?.toolName).toBe("edit");
	});

	it("a list of keywords states no intent: the statement ranks first", () => {
		expect(first("upload widget attachments error")?.role).toBe("assistant");
	});
});
