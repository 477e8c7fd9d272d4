/**
 * Entries that share an id in one session file (D, E, D): Pi's SessionManager keeps the last entry of an id (for the
 * tree, a parent link, navigation), the file keeps both. Every one must stay addressable: a hit names which entry it
 * is, and reading or tracing the hit shows that entry's text. Real files, a real index through the extension's
 * runtime, and Pi's own SessionManager as the oracle of which entry the plain id is.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventReadRequest } from "../../src/contract.js";
import { type CallIdentity, IndexRuntime } from "../../src/extension/index-runtime.js";
import { readEvent, searchEvents, traceEvent } from "../../src/query/index.js";

let tmp: string;
let file: string;
let rt: IndexRuntime;
const SESSION = "dup-ids-0001";

/** One line per entry; `D` twice: first under X with "zebra", then, after E, again under X with "quokka". */
function writeSession(path: string): void {
	const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
	const user = (id: string, parentId: string | null, text: string, s: number) => ({
		type: "message",
		id,
		parentId,
		timestamp: at(s),
		message: { role: "user", content: [{ type: "text", text }], timestamp: s },
	});
	const lines = [
		{ type: "session", version: 3, id: SESSION, timestamp: at(0), cwd: "/home/dev/project" },
		user("X", null, "start of the session", 1),
		user("D", "X", "the zebra enclosure first", 2),
		user("E", "D", "the ostrich paddock between", 3),
		user("D", "X", "the quokka habitat second", 4),
	];
	writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

beforeEach(() => {
	tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-dup-")));
	const agentDir = join(tmp, "agent");
	const sessions = join(agentDir, "sessions", "--home-dev-project--");
	mkdirSync(sessions, { recursive: true });
	mkdirSync(join(tmp, "project"));
	file = join(sessions, "dup.jsonl");
	writeSession(file);
	writeFileSync(
		join(agentDir, "event-index.json"),
		JSON.stringify({ authorization: { allRoots: true }, budgets: { coldWaitMs: 30_000 } }),
	);
	// The first call waits for the first catch-up however loaded the machine is.
	rt = IndexRuntime.start({ cwd: join(tmp, "project"), env: { PI_CODING_AGENT_DIR: agentDir } });
});

afterEach(async () => {
	await rt.close();
	rmSync(tmp, { recursive: true, force: true });
});

const who = (): CallIdentity => ({ cwd: join(tmp, "project") });
const search = (query: string) =>
	rt.query(who(), (s) => searchEvents(s.index.manager.store.db, { query }, s.caller, s.options));
const read = (req: EventReadRequest) =>
	rt.query(who(), (s) => readEvent(s.index.manager.store.db, req, s.caller, s.options));
const trace = (entryId: string) =>
	rt.query(who(), (s) => traceEvent(s.index.manager.store.db, { sessionId: SESSION, entryId }, s.caller, s.options));

/** The text of every fragment a read shows, joined. */
async function readText(req: EventReadRequest): Promise<string> {
	const r = await read(req);
	return [r.window?.text ?? "", ...r.fragments.map((f) => f.text.text)].join("\n");
}

describe("regression: entries that share an id in one file are each readable from their hit", () => {
	it("a hit names its entry, and read (with and without its fragment id) and trace show that entry's text", async () => {
		for (const [word, other] of [
			["quokka", "zebra"],
			["zebra", "quokka"],
		]) {
			const { hits } = await search(word);
			expect(hits, word).toHaveLength(1);
			const hit = hits[0];
			const ids = { sessionId: hit.sessionId, entryId: hit.entryId };
			const whole = await readText(ids);
			expect(whole, `read ${hit.entryId}`).toContain(word);
			expect(whole).not.toContain(other);
			const windowed = await readText({ ...ids, matchingFragmentId: hit.matchingFragmentId });
			expect(windowed, `read ${hit.matchingFragmentId}`).toContain(word);
			expect((await read(ids)).event.entryId).toBe(hit.entryId);
			const traced = await trace(hit.entryId);
			expect(traced.target.entryId).toBe(hit.entryId);
			expect(traced.target.preview?.text).toContain(word);
		}
	});

	it("the plain id is the entry Pi resolves (the last of its id); the earlier one is named by its occurrence", async () => {
		const pi = SessionManager.open(file);
		const piD = pi.getEntry("D");
		expect(JSON.stringify(piD)).toContain("quokka");
		expect((await search("quokka")).hits[0].entryId).toBe("D");
		expect((await search("zebra")).hits[0]).toMatchObject({ entryId: "D~1", matchingFragmentId: "D~1#0" });
		// E's parent, as Pi links it, is the last D; the shadowed D has no children in Pi's tree.
		const e = await trace("E");
		expect(e.parent?.node?.entryId).toBe("D");
		expect(e.parent?.node?.preview?.text).toContain("quokka");
		expect((await trace("D~1")).children).toEqual([]);
		expect((await trace("D")).children.map((c) => c.node?.entryId)).toEqual(["E"]);
		// A name that is no entry is not found (no occurrence past the last).
		await expect(read({ sessionId: SESSION, entryId: "D~3" })).rejects.toThrow(/No such event/);
	});
});
