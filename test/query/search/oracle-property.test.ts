/**
 * Property: on a generated corpus, filtered search returns exactly what an unbounded brute-force oracle returns
 * (events containing every word and passing every filter), for many random filter combinations.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRng } from "../../../bench/corpus/prng.js";
import type { EventSearchRequest } from "../../../src/contract.js";
import { SourceSyncer } from "../../../src/ingest/sync-source.js";
import { DEFAULT_BUDGETS } from "../../../src/query/budgets.js";
import { searchEvents } from "../../../src/query/search.js";
import { lineFactory } from "../../helpers/session-lines.js";
import { type TempStore, tempStore } from "../../helpers/temp-store.js";
import { oracleSearch } from "./oracle.js";

const WORDS = ["amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet"];
const CWDS = ["/w/a", "/w/a/sub", "/w/b"];
const TOOLS = ["read", "bash", "edit", "event_search"];
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
		for (let e = 0; e < 30; e++) {
			if (e === 10) branchPoint = f.leafId;
			if (e === 20) f.branchFrom(branchPoint);
			const kind = rng.int(3);
			if (kind === 0) lines.push(f.user(text()));
			else if (kind === 1) lines.push(f.assistant(text()));
			else lines.push(f.toolResult(`c${e}`, rng.pick(TOOLS), text(), rng.chance(0.3)));
		}
		const body = lines.join("");
		const file = join(dir, `s${s}.jsonl`);
		writeFileSync(file, s % 2 === 1 ? body.replaceAll('"timestamp":"2026-', '"timestamp":"2025-') : body);
		await syncer.sync(file);
		sessionIds.push(JSON.parse(lines[0]).id);
	}
});
afterAll(() => store.cleanup());

describe("filtered search equals the brute-force oracle", () => {
	it("for 150 random requests", () => {
		const rng = createRng("requests");
		let compared = 0;
		for (let i = 0; i < 150; i++) {
			const req: EventSearchRequest = {
				query: Array.from({ length: rng.range(1, 2) }, () => rng.pick(WORDS)).join(" "),
			};
			if (rng.chance(0.3)) req.sessionId = rng.pick(sessionIds);
			if (rng.chance(0.3)) req.cwd = rng.pick(CWDS);
			if (rng.chance(0.3)) req.kinds = [rng.pick(["user_text", "assistant_text", "tool_result"])];
			if (rng.chance(0.3)) req.roles = [rng.pick(["user", "assistant", "toolResult"])];
			if (rng.chance(0.3)) req.toolNames = [rng.pick(TOOLS)];
			if (rng.chance(0.3)) req.errorOnly = true;
			if (rng.chance(0.3)) req.time = rng.chance(0.5) ? { to: "2025-12-31" } : { from: "2026-01-01T00:00:10Z" };
			if (rng.chance(0.3)) req.branchStates = [rng.pick(["selected", "alternate"] as const)];
			const expected = oracleSearch(store.db, req);
			const r = searchEvents(store.db, req, caller);
			const full = new Set(
				r.hits.filter((h) => h.missingTerms === undefined).map((h) => `${h.sessionId}/${h.entryId}`),
			);
			if (expected.size <= LIMIT) {
				expect(full, JSON.stringify(req)).toEqual(expected);
				compared++;
			} else {
				expect(full.size).toBe(LIMIT);
				for (const key of full) expect(expected.has(key), JSON.stringify(req)).toBe(true);
			}
			// Relaxed hits never contain every term.
			for (const h of r.hits) if (h.missingTerms) expect(h.missingTerms.length).toBeGreaterThan(0);
		}
		expect(compared).toBeGreaterThan(100);
	});
});
