/**
 * A Pi runtime closed while its catch-up runs: the worker is ended (at once while it loads or plans), and the
 * catch-up that ends then reports no progress to Pi, whose context is stale by then (Pi 1.x's getters throw on a
 * stale context: in Pi's compiled binary that was an unhandled error at exit). A real index over real session files,
 * the real worker thread.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IndexRuntime } from "../../src/extension/index-runtime.js";
import { waitFor } from "../helpers/children.js";
import { lineFactory } from "../helpers/session-lines.js";
import { tempDir } from "../helpers/temp-store.js";

let root: string;

beforeEach(async () => {
	root = await tempDir("pei-runtime-close-");
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

describe("a runtime closed while its catch-up runs", () => {
	it("regression: the catch-up that ends at close reports nothing after it (Pi's context is stale by then)", async () => {
		const agentDir = join(root, "agent");
		const project = join(root, "project");
		const sessions = join(agentDir, "sessions", "--home-dev-project--");
		mkdirSync(sessions, { recursive: true });
		mkdirSync(project);
		// Enough files that the worker is still loading, planning or indexing when close comes right after opening.
		for (let i = 0; i < 400; i++) {
			const f = lineFactory({ prefix: `c${i}` });
			writeFileSync(join(sessions, `s${i}.jsonl`), f.header() + f.user(`question ${i}`) + f.assistant(`answer ${i}`));
		}
		let closing = false;
		const afterClose: unknown[] = [];
		const runtime = IndexRuntime.start({
			cwd: project,
			env: { PI_CODING_AGENT_DIR: agentDir },
			onProgress: (p) => {
				if (closing) afterClose.push(p);
			},
		});
		await runtime.ready();
		closing = true;
		await runtime.close();
		// The catch-up's end is logged after its last report would have been made.
		const log = join(agentDir, "event-index", "event-index.log");
		await waitFor(() => existsSync(log) && readFileSync(log, "utf8").includes('"event":"catch_up"'), 30_000);
		expect(afterClose).toEqual([]);
	});
});
