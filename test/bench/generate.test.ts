import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendLine, type CorpusManifest, generateCorpus, generateOne } from "../../bench/corpus/generate.js";
import { MARKERS, type MarkerName } from "../../bench/corpus/markers.js";
import { loadTextPool, type TextPool } from "../../bench/corpus/text-pool.js";

const ROOT = resolve(import.meta.dirname, "../..");
let tmp: string;
let pool: TextPool;
let a: CorpusManifest;

function listJsonl(dir: string): string[] {
	const out: string[] = [];
	for (const name of readdirSync(dir, { withFileTypes: true })) {
		const full = join(dir, name.name);
		if (name.isDirectory()) out.push(...listJsonl(full));
		else if (name.name.endsWith(".jsonl")) out.push(full);
	}
	return out.sort();
}

function corpusHash(sessionsDir: string): string {
	const h = createHash("sha256");
	for (const f of listJsonl(sessionsDir)) {
		h.update(relative(sessionsDir, f));
		h.update(readFileSync(f));
	}
	return h.digest("hex");
}

beforeAll(() => {
	tmp = mkdtempSync(join(tmpdir(), "pei-gen-"));
	pool = loadTextPool({ root: ROOT });
	a = generateCorpus({ agentDir: join(tmp, "a"), sessions: 12, bytes: 1.5 * 1024 * 1024, seed: 11, pool });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("corpus generator", () => {
	it("is deterministic: same seed gives the same bytes, another seed does not", () => {
		// Regenerate into the same agent dir: fork headers hold absolute parent paths, as Pi writes them.
		const first = corpusHash(a.sessionsDir);
		const b = generateCorpus({ agentDir: a.agentDir, sessions: 12, bytes: 1.5 * 1024 * 1024, seed: 11, pool });
		expect(corpusHash(b.sessionsDir)).toBe(first);
		expect(b.markers).toEqual(a.markers);
		expect(b.shape).toEqual(a.shape);
		const c = generateCorpus({ agentDir: a.agentDir, sessions: 12, bytes: 1.5 * 1024 * 1024, seed: 12, pool });
		expect(corpusHash(c.sessionsDir)).not.toBe(first);
		a = generateCorpus({ agentDir: a.agentDir, sessions: 12, bytes: 1.5 * 1024 * 1024, seed: 11, pool });
		expect(corpusHash(a.sessionsDir)).toBe(first);
	});

	it("writes the requested number of sessions near the byte target, in Pi's folder layout", () => {
		const files = listJsonl(a.sessionsDir);
		expect(files).toHaveLength(12);
		expect(a.totalBytes).toBeGreaterThan(1.3 * 1024 * 1024);
		expect(a.totalBytes).toBeLessThan(2.2 * 1024 * 1024);
		for (const f of files) {
			const header = JSON.parse(readFileSync(f, "utf8").split("\n", 1)[0]);
			const folder = `--${header.cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
			expect(relative(a.sessionsDir, dirname(f))).toBe(folder);
			expect(f.endsWith(`_${header.id}.jsonl`)).toBe(true);
		}
	});

	it("writes valid v3 lines whose parentIds resolve within their file, forks naming existing parents", () => {
		let forks = 0;
		const seen = new Set<string>();
		for (const f of listJsonl(a.sessionsDir)) {
			const text = readFileSync(f, "utf8");
			expect(text.endsWith("\n")).toBe(true);
			const lines = text.slice(0, -1).split("\n");
			const header = JSON.parse(lines[0]);
			expect(header).toMatchObject({ type: "session", version: 3 });
			expect(header.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
			if (header.parentSession) {
				forks++;
				expect(existsSync(header.parentSession)).toBe(true);
				// --fork copies every entry verbatim: the parent's entry lines are a prefix of the child's.
				const parentLines = readFileSync(header.parentSession, "utf8").slice(0, -1).split("\n").slice(1);
				expect(lines.slice(1, 1 + parentLines.length)).toEqual(parentLines);
			}
			const ids = new Set<string>();
			for (const line of lines.slice(1)) {
				const e = JSON.parse(line);
				expect(e.id).toMatch(/^[0-9a-f]{8}$/);
				expect(ids.has(e.id)).toBe(false);
				if (e.parentId !== null) expect(ids.has(e.parentId)).toBe(true);
				if (e.type === "compaction") expect(ids.has(e.firstKeptEntryId)).toBe(true);
				if (e.type === "branch_summary") expect(ids.has(e.fromId)).toBe(true);
				if (e.type === "label") expect(ids.has(e.targetId)).toBe(true);
				expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
				ids.add(e.id);
				seen.add(e.type === "message" ? `message/${e.message.role}` : e.type);
			}
		}
		expect(forks).toBe(a.forks);
		expect(forks).toBeGreaterThanOrEqual(1);
		for (const kind of ["message/user", "message/assistant", "message/toolResult", "compaction", "session_info"])
			expect(seen).toContain(kind);
	});

	it("counts marker lines exactly, and the thinking-only marker sits only in thinking blocks", () => {
		const counts: Record<string, number> = {};
		let outsideThinking = 0;
		for (const f of listJsonl(a.sessionsDir)) {
			for (const line of readFileSync(f, "utf8").slice(0, -1).split("\n")) {
				for (const [name, term] of Object.entries(MARKERS))
					if (line.includes(term)) counts[name] = (counts[name] ?? 0) + 1;
				if (line.includes(MARKERS.thinkingOnly)) {
					const e = JSON.parse(line);
					const visible = JSON.stringify(e.message.content.filter((b: { type: string }) => b.type !== "thinking"));
					if (visible.includes(MARKERS.thinkingOnly)) outsideThinking++;
				}
			}
		}
		for (const name of Object.keys(MARKERS) as MarkerName[]) {
			expect(counts[name] ?? 0).toBe(a.markers[name]);
			expect(a.markers[name]).toBeGreaterThanOrEqual(1);
		}
		expect(outsideThinking).toBe(0);
	});

	it("reports shape statistics that add up", () => {
		expect(a.shape.bytes).toBe(a.totalBytes);
		expect(a.shape.byKind.reduce((s, k) => s + k.lines, 0)).toBe(a.shape.lines);
		expect(a.shape.lineLength.max).toBeGreaterThanOrEqual(a.shape.lineLength.p99);
		// The planted very large line (scaled to the corpus: 150–256 KiB here, several MiB at 1 GB).
		expect(a.shape.lineLength.max).toBeGreaterThan(150 * 1024);
	});

	it("produces files Pi itself loads: SessionManager.open and buildSessionContext", () => {
		const files = listJsonl(a.sessionsDir);
		for (const f of files) {
			const sm = SessionManager.open(f, dirname(f));
			const header = JSON.parse(readFileSync(f, "utf8").split("\n", 1)[0]);
			expect(sm.getSessionId()).toBe(header.id);
			const entries = sm.getEntries();
			const lines = readFileSync(f, "utf8").slice(0, -1).split("\n");
			expect(entries).toHaveLength(lines.length - 1);
			const lastId = JSON.parse(lines[lines.length - 1]).id;
			expect(sm.getLeafId()).toBe(lastId);
			const ctx = sm.buildSessionContext();
			expect(ctx.messages.length).toBeGreaterThan(0);
			// Pi opened the file without rewriting it (a v3 file needs no migration).
			expect(readFileSync(f, "utf8").split("\n").length).toBe(lines.length + 1);
		}
	});

	it("generateOne writes one big-enough session and appendLine extends its leaf", () => {
		const file = join(tmp, "one", "big.jsonl");
		const r = generateOne(file, { bytes: 300 * 1024, seed: 3, pool });
		expect(r.bytes).toBeGreaterThanOrEqual(300 * 1024);
		expect(readFileSync(file).length).toBe(r.bytes);
		const { line, id } = appendLine(r.leafId, 1, r.lastMs + 1000);
		const e = JSON.parse(line);
		expect(e.parentId).toBe(r.leafId);
		expect(e.id).toBe(id);
		expect(appendLine(r.leafId, 2, r.lastMs).id).not.toBe(id);
	});
});
