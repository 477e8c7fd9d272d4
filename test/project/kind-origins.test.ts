/**
 * The FTS tags carry a fragment's kind but not its entry type or role: filters on those match the kinds KIND_ORIGINS
 * lists. If the projector ever put a kind on an entry type or role the table does not list, those filters would miss
 * the fragment inside the FTS match, before the SQL check could see it. Every fixture and every branch of the
 * projector must stay inside the table.
 */
import { describe, expect, it } from "vitest";
import { KIND_ORIGINS, MESSAGE_ROLES } from "../../src/contract.js";
import type { ParsedEntry } from "../../src/parse/types.js";
import { projectEntry } from "../../src/project/project-entry.js";
import type { ProjectedEvent } from "../../src/project/types.js";
import { fixtureBytes, listFixtures, parseWhole } from "../parse/helpers.js";

function mk(raw: Record<string, unknown>): ParsedEntry {
	return {
		seq: 0,
		lineNo: 2,
		byteStart: 10,
		byteEnd: 20,
		id: "e1",
		parentId: null,
		type: String(raw.type),
		timestamp: "2026-01-01T00:00:00.000Z",
		raw,
	};
}

const message = (m: Record<string, unknown>) => mk({ type: "message", message: m });

/** One entry for every branch of project-entry.ts that yields a fragment. */
const EVERY_BRANCH: ParsedEntry[] = [
	message({ role: "user", content: "hello" }),
	message({
		role: "assistant",
		content: [
			{ type: "text", text: "hi" },
			{ type: "toolCall", id: "c1", name: "bash" },
		],
	}),
	message({ role: "assistant", content: "plain", errorMessage: "boom", stopReason: "error" }),
	message({ role: "toolResult", toolCallId: "c1", toolName: "bash", content: "out" }),
	message({ role: "bashExecution", command: "ls", output: "a b", exitCode: 0 }),
	message({ role: "custom", customType: "x", content: "note" }),
	message({ role: "hookMessage", customType: "x", content: "old note" }),
	message({ role: "narrator", content: "unknown role" }),
	message({ role: "system", content: "Pi 1.x prompt patch" }),
	message({ content: "no role" }),
	mk({ type: "compaction", summary: "sum", firstKeptEntryId: "e0", tokensBefore: 10 }),
	mk({ type: "branch_summary", summary: "bsum", fromId: "e0" }),
	mk({ type: "custom_message", customType: "x", content: "shown" }),
	mk({ type: "label", targetId: "e0", label: "mark" }),
	mk({ type: "session_info", name: "my session" }),
];

function outsideTheTable(events: ProjectedEvent[]): string[] {
	const out: string[] = [];
	for (const e of events) {
		for (const f of e.fragments) {
			const origin = KIND_ORIGINS[f.kind];
			const knownRole = (MESSAGE_ROLES as readonly string[]).includes(e.role ?? "");
			const typeOk = (origin.entryTypes as readonly string[]).includes(e.entryType);
			const roleOk = !knownRole || (origin.roles as readonly string[]).includes(e.role as string);
			if (!typeOk || !roleOk) out.push(`${f.kind} from ${e.entryType}${e.role ? `:${e.role}` : ""}`);
		}
	}
	return out;
}

describe("KIND_ORIGINS", () => {
	it("lists the entry type and role of every fragment of every projector branch", () => {
		const events = EVERY_BRANCH.map(projectEntry);
		// The sample must reach every kind the table says is produced, or it proves nothing about that kind.
		const kinds = new Set(events.flatMap((e) => e.fragments.map((f) => f.kind)));
		const produced = Object.entries(KIND_ORIGINS).filter(([, o]) => o.entryTypes.length > 0);
		expect([...kinds].sort()).toEqual(produced.map(([k]) => k).sort());
		expect(outsideTheTable(events)).toEqual([]);
	});

	it("lists the entry type and role of every fragment of every fixture", () => {
		for (const name of listFixtures()) {
			const events = parseWhole(fixtureBytes(name)).entries.map(projectEntry);
			expect(outsideTheTable(events), name).toEqual([]);
		}
	});
});
