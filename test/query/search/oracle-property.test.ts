/**
 * Property: on a generated corpus, filtered search returns exactly what an unbounded brute-force oracle returns
 * (events containing every word and passing every filter), for many random filter combinations.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRng } from "../../../bench/corpus/prng.js";
import { DEFAULT_BUDGETS } from "../../../src/config/budgets.js";
import type { EventSearchRequest } from "../../../src/contract.js";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import { searchEvents } from "../../../src/query/search.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { type TempStore, tempStore } from "../../helpers/temp-store.js";
import { oracleSearch } from "./oracle.js";

const WORDS = ["amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet"];
const CWDS = ["/w/a", "/w/a/sub", "/w/b"];
const TOOLS = ["read", "bash", "edit", "event_search"];
// Files the calls and commands name (relative, absolute, outside the cwd) and the paths searched for.
const FILES = ["src/a.ts", "./src/b/a.ts", "/w/a/src/a.ts", "lib/c.py", "../up.md", "/tmp/x/c.py"];
const PATH_PICKS = ["a.ts", "src/a.ts", "b/a.ts", "/w/a/src/a.ts", "c.py", "lib/c.py", "up.md", "/w/up.md", "x/c.py"];
let store: TempStore;
const sessionIds: string[] = [];
const LIMIT = 50;
const caller = {
	cwd: "/",
	authorization: { extraRoots: [], allRoots: true },
	budgets: { ...DEFAULT_BUDGETS, searchLimit: LIMIT },
};

beforeAll(async () => {
	store = await tempStore();
	const dir = join(store.dir, "sessions");
	mkdirSync(dir);
	const rng = createRng("oracle-property");
	const syncer = new SourceSyncer(store.db);
	for (let s = 0; s < 12; s++) {
		const f = lineFactory({ cwd: CWDS[s % CWDS.length], prefix: `s${s}` });
		const lines = [f.header()];
		const text = () => Array.from({ length: rng.range(2, 6) }, () => rng.pick(WORDS)).join(" ");
		let branchPoint: string | null = null;
		let kept: string | null = null;
		for (let e = 0; e < 30; e++) {
			if (e === 10) branchPoint = f.leafId;
			if (e === 20) f.branchFrom(branchPoint);
			if (e === 24) kept = f.nextId;
			// A compaction late in the session: the entries before the kept one become summarized.
			if (e === 27)
				lines.push(f.other({ type: "compaction", summary: text(), firstKeptEntryId: kept, tokensBefore: 9 }));
			const kind = rng.int(6);
			if (kind === 0) lines.push(f.user(text()));
			else if (kind === 1) lines.push(f.assistant(text()));
			else if (kind === 2) lines.push(f.toolResult(`c${e}`, rng.pick(TOOLS), text(), rng.chance(0.3)));
			else if (kind === 3) lines.push(f.other(toolCall(`c${e}`, rng.pick(TOOLS), text(), rng.pick(FILES))));
			else if (kind === 4) lines.push(f.other(bash(`${text()} ${rng.pick(FILES)}`, text(), rng.chance(0.3) ? 1 : 0)));
			else lines.push(f.other({ type: "custom_message", customType: "note", content: text(), display: true }));
		}
		const body = lines.join("");
		const file = join(dir, `s${s}.jsonl`);
		writeFileSync(file, s % 2 === 1 ? body.replaceAll('"timestamp":"2026-', '"timestamp":"2025-') : body);
		await syncer.sync(file);
		sessionIds.push(JSON.parse(lines[0]).id);
	}
});
afterAll(() => store.cleanup());

function toolCall(id: string, name: string, words: string, file: string): Record<string, unknown> {
	const args = name === "bash" ? { command: `${words} ${file}` } : { path: file, note: words };
	const content = [{ type: "toolCall", id, name, arguments: args }];
	return {
		type: "message",
		message: { role: "assistant", content, provider: "faux", model: "f", stopReason: "toolUse" },
	};
}

function bash(command: string, output: string, exitCode: number): Record<string, unknown> {
	return { type: "message", message: { role: "bashExecution", command, output, exitCode, cancelled: false } };
}

// Kind values that are entry types too, and roles whose kinds differ: the FTS tags carry only the kind (KIND_ORIGINS).
const KIND_PICKS = ["user_text", "assistant_text", "tool_result", "tool_call", "bash_output", "message", "compaction"];
const KIND_PICKS_ALSO = ["custom_message", "compaction_summary", "bash_command"];
const ROLE_PICKS = ["user", "assistant", "toolResult", "bashExecution", "custom"];

describe("filtered search equals the brute-force oracle", () => {
	it("for 300 random requests", () => {
		const rng = createRng("requests");
		let compared = 0;
		let spread = 0;
		let byFile = 0;
		for (let i = 0; i < 300; i++) {
			const req: EventSearchRequest = {
				query: Array.from({ length: rng.range(1, 2) }, () => rng.pick(WORDS)).join(" "),
			};
			if (rng.chance(0.3)) req.sessionId = rng.pick(sessionIds);
			if (rng.chance(0.3)) req.cwd = rng.pick(CWDS);
			if (rng.chance(0.3)) req.kinds = [rng.pick(rng.chance(0.7) ? KIND_PICKS : KIND_PICKS_ALSO)];
			if (rng.chance(0.3)) req.roles = [rng.pick(ROLE_PICKS)];
			if (rng.chance(0.3)) req.toolNames = [rng.pick(TOOLS)];
			if (rng.chance(0.3)) req.errorOnly = true;
			if (rng.chance(0.3)) req.time = rng.chance(0.5) ? { to: "2025-12-31" } : { from: "2026-01-01T00:00:10Z" };
			if (rng.chance(0.3)) req.branchStates = [rng.pick(["selected", "alternate"] as const)];
			if (rng.chance(0.2)) req.selectionStates = [rng.pick(["direct", "summarized", "not-selected"] as const)];
			if (rng.chance(0.3)) {
				req.paths = [rng.pick(PATH_PICKS)];
				// A look-up by file alone: no terms.
				if (rng.chance(0.3)) req.query = "";
			}
			const expected = oracleSearch(store.db, req);
			const r = searchEvents(store.db, req, caller);
			const full = new Set(
				r.hits.filter((h) => h.missingTerms === undefined).map((h) => `${h.sessionId}/${h.entryId}`),
			);
			if (expected.size <= LIMIT) {
				expect(full, JSON.stringify(req)).toEqual(expected);
				compared++;
				if (req.paths && expected.size > 0) byFile++;
			} else {
				expect(full.size).toBe(LIMIT);
				for (const key of full) expect(expected.has(key), JSON.stringify(req)).toBe(true);
			}
			// Relaxed hits never hold every term in one fragment. An event whose fragments hold them between them (a
			// bash command and its output) is found by the relaxed tier with nothing missing, and is no all-terms hit.
			for (const h of r.hits) {
				if (!h.missingTerms || h.missingTerms.length > 0) continue;
				expect(h.otherFragmentIds?.length ?? 0, JSON.stringify({ req, h })).toBeGreaterThan(0);
				expect(expected.has(`${h.sessionId}/${h.entryId}`), JSON.stringify({ req, h })).toBe(false);
				spread++;
			}
		}
		expect(compared).toBeGreaterThan(200);
		expect(spread).toBeGreaterThan(0);
		expect(byFile).toBeGreaterThan(20);
	});
});
