// The cold first call, `runs` times in a row, through the compiled package (dist/) as Pi loads it: each run a fresh
// agent dir holding one session whose last entry says "zebrafish", a fresh IndexRuntime (its catch-up in the index
// worker, as in Pi) and its first search (waiting up to 30 s, so a loaded machine never cuts the wait short). Prints one JSON line per run: {"run", "hits", "partial", "note"}.
//   node cold-first-calls.mjs <repo root> <runs>
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [root, runsArg] = process.argv.slice(2);
const { IndexRuntime } = await import(join(root, "dist", "extension", "index-runtime.js"));
const { searchEvents } = await import(join(root, "dist", "query", "index.js"));

/** One session of 200 filler questions, then the event searched for (so its commit writes a few pages). */
function writeSession(dir) {
	const at = "2026-01-01T00:00:00.000Z";
	const lines = [{ type: "session", version: 3, id: "s-cold", timestamp: at, cwd: "/home/dev/project" }];
	for (let i = 0; i <= 200; i++) {
		const text = i === 200 ? "the zebrafish assay finished" : `filler question ${i} about the build pipeline`;
		const message = { role: "user", content: [{ type: "text", text }], timestamp: i };
		lines.push({ type: "message", id: `e${i}`, parentId: i ? `e${i - 1}` : null, timestamp: at, message });
	}
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "one.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

for (let run = 0; run < Number(runsArg); run++) {
	const tmp = realpathSync(mkdtempSync(join(tmpdir(), "pei-cold-")));
	const agentDir = join(tmp, "agent");
	const cwd = join(tmp, "project");
	writeSession(join(agentDir, "sessions", "--home-dev-project--"));
	mkdirSync(cwd);
	writeFileSync(
		join(agentDir, "event-index.json"),
		JSON.stringify({ authorization: { allRoots: true }, budgets: { coldWaitMs: 30_000 } }),
	);
	const rt = IndexRuntime.start({ cwd, env: { PI_CODING_AGENT_DIR: agentDir } });
	const result = await rt.query({ cwd }, (s) =>
		searchEvents(s.index.manager.store.db, { query: "zebrafish" }, s.caller, s.options),
	);
	await rt.close();
	rmSync(tmp, { recursive: true, force: true });
	const { partial, note } = result.coverage;
	console.log(JSON.stringify({ run, hits: result.hits.length, partial, note }));
}
