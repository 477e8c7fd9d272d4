/**
 * `verify`: compare the index with the session files (a fresh parse of every indexed file's committed bytes, every
 * line's xxHash64, every header field and the session name) and list every difference; exit 1 when there is one. Read-only. A file Pi is appending to right now may show as "behind" until the next sync.
 */
import { type IndexDirVerifyReport, IndexUnavailableError, type VerifyReport, verifyIndexDir } from "../index-admin.js";
import { escapeValue } from "../text/safe-text.js";
import type { CliContext } from "./context.js";
import { CliError } from "./errors.js";
import { noIndexError } from "./status.js";

/** What `verify` reports (`--json` prints exactly this). */
export interface VerifyCommandReport extends VerifyReport {
	indexDir: string;
	generation: string;
	/** True when there is no difference. */
	ok: boolean;
	/** The difference list reached its bound; there may be more. */
	limited: boolean;
}

export async function verifyCommand(ctx: CliContext): Promise<VerifyCommandReport> {
	let report: IndexDirVerifyReport | undefined;
	try {
		report = await verifyIndexDir(ctx.indexDir, ctx.roots, ctx.extraFiles, ctx.config.excludeWorkspaces);
	} catch (err) {
		if (err instanceof IndexUnavailableError) throw new CliError(err.message, "index_unavailable");
		throw err;
	}
	if (report === undefined) throw noIndexError(ctx.indexDir);
	return { indexDir: ctx.indexDir, ...report, ok: report.differences.length === 0 };
}

/** Human view: a summary line, then one line per difference. */
export function formatVerify(r: VerifyCommandReport): string {
	const head = `verified ${r.sources} indexed sources against ${r.files} session files on disk (generation ${r.generation})`;
	if (r.ok) return `${head}\nno differences`;
	const n = r.differences.length;
	const out = [head, `${n}${r.limited ? "+" : ""} difference${n === 1 ? "" : "s"}:`];
	// Details quote entry ids and names from the files: escaped, they stay on their difference's line.
	for (const d of r.differences) out.push(escapeValue(`  ${d.kind.padEnd(16)} ${d.path || "(index)"}: ${d.detail}`));
	out.push(repairHint(r.differences));
	return out.join("\n");
}

/** Differences an incremental `reindex` repairs: files grown, new or gone. Every other kind needs a rebuild. */
const CATCH_UP_REPAIRS: ReadonlySet<string> = new Set(["behind", "not-indexed", "file-gone"]);

/** What to run: plain `reindex` when it repairs every difference, else `reindex --full`. */
function repairHint(differences: ReadonlyArray<{ kind: string }>): string {
	return differences.every((d) => CATCH_UP_REPAIRS.has(d.kind))
		? "the index is behind the files: run pi-event-index reindex (an incremental catch-up repairs this)"
		: "repair: pi-event-index reindex --full (rebuilds the index from the files)";
}
