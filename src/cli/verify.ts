/**
 * `verify`: compare the index with the session files (a fresh parse of every indexed file's committed bytes, every
 * line's xxHash64, every header field and the session name) and list every difference; exit 1 when there is one. Read-only. A file Pi is appending to right now may show as "behind" until the next sync.
 */
import type { VerifyReport } from "../index-admin.js";
import type { CliContext } from "./context.js";
import { existingIndex } from "./status.js";

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
	const snapshot = await existingIndex(ctx.indexDir);
	try {
		const report = await snapshot.verify(ctx.roots, ctx.extraFiles, ctx.config.excludeWorkspaces);
		return { indexDir: ctx.indexDir, generation: snapshot.generation, ...report, ok: report.differences.length === 0 };
	} finally {
		snapshot.close();
	}
}

/** Human view: a summary line, then one line per difference. */
export function formatVerify(r: VerifyCommandReport): string {
	const head = `verified ${r.sources} indexed sources against ${r.files} session files on disk (generation ${r.generation})`;
	if (r.ok) return `${head}\nno differences`;
	const n = r.differences.length;
	const out = [head, `${n}${r.limited ? "+" : ""} difference${n === 1 ? "" : "s"}:`];
	for (const d of r.differences) out.push(`  ${d.kind.padEnd(16)} ${d.path || "(index)"}: ${d.detail}`);
	out.push(repairHint(r.differences));
	return out.join("\n");
}

/** Differences an incremental `reindex` repairs: files grown, new or gone. Every other kind needs a rebuild. */
export const CATCH_UP_REPAIRS: ReadonlySet<string> = new Set(["behind", "not-indexed", "file-gone"]);

/** What to run: plain `reindex` when it repairs every difference, else `reindex --full`. */
export function repairHint(differences: ReadonlyArray<{ kind: string }>): string {
	return differences.every((d) => CATCH_UP_REPAIRS.has(d.kind))
		? "the index is behind the files: run pi-event-index reindex (an incremental catch-up repairs this)"
		: "repair: pi-event-index reindex --full (rebuilds the index from the files)";
}
