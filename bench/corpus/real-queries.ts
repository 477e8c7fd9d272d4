/**
 * The query classes of issue #12 over a corpus of real sessions (../shared/bench/bigcorpus.py): real words at
 * their real frequencies instead of planted markers. The session and cwd filters take a real session of the corpus.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { EventSearchRequest } from "../../src/contract.js";
import type { CorpusManifest } from "./generate.js";
import type { BenchQuery } from "./markers.js";

/** The header of the first session file: its id and cwd. */
function firstHeader(files: readonly string[]): { id: string; cwd: string } {
	const fd = openSync(files[0], "r");
	try {
		const buf = Buffer.alloc(4096);
		const n = readSync(fd, buf, 0, buf.length, 0);
		const header = JSON.parse(buf.subarray(0, n).toString("utf8").split("\n")[0]) as { id: string; cwd: string };
		return { id: header.id, cwd: header.cwd };
	} catch {
		return { id: "00000000-0000-7000-8000-000000000000", cwd: "/" };
	} finally {
		closeSync(fd);
	}
}

/** Rare word, common word, two common words, a phrase, a relaxed question, and the common word under each filter. */
export function realWordQueries(m: CorpusManifest): BenchQuery[] {
	const session = firstHeader(m.files);
	const common = "error";
	const q = (name: string, shape: BenchQuery["shape"], request: EventSearchRequest, rgPattern: string): BenchQuery => ({
		name,
		shape,
		request,
		rgPattern,
	});
	return [
		q("rare term", "term", { query: "unicornmarker" }, "unicornmarker"),
		q("common term (error)", "term", { query: common }, common),
		q("two common terms", "two-terms", { query: "queued messages" }, "queued"),
		q("phrase", "phrase", { query: '"no such file"' }, "no such file"),
		q(
			"relaxed natural question",
			"relaxed",
			{ query: "how did we fix the queued messages error in the footer widget" },
			"queued",
		),
		// A question asking for the work that some event answers with every term: ranked in one order with the relaxed
		// tier's (docs/ranking.md, "One order for the work"), so both tiers run.
		q("work question, every term held", "relaxed", { query: "how did we fix the queued messages error" }, "queued"),
		...(
			[
				["sessionId", { sessionId: session.id }],
				["cwd", { cwd: session.cwd }],
				["kinds tool_result", { kinds: ["tool_result"] }],
				["roles user", { roles: ["user"] }],
				["toolNames bash", { toolNames: ["bash"] }],
				["errorOnly", { errorOnly: true }],
				["time.to 2025-06-30", { time: { to: "2025-06-30" } }],
				["branch alternate", { branchStates: ["alternate"] }],
				["selection summarized", { selectionStates: ["summarized"] }],
			] as const
		).map(([name, filter]) =>
			q(`common term + ${name}`, "filter", { query: common, ...filter } as EventSearchRequest, common),
		),
	];
}
