/**
 * Writes the natural-question set's sessions as Pi v3 JSONL (header, model and thinking-level changes, then user,
 * assistant and toolResult messages chained by id/parentId), deterministically: ids and timestamps come from a PRNG
 * seeded by the session label, background tool output from real files of node_modules. `buildNaturalCorpus` then
 * indexes the files through the project's real ingest path into a fresh SQLite store.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SqliteDb } from "../../src/store/driver.js";
import { encodeCwd, PROJECT_ROOT, uuidV7 } from "../corpus/generate.js";
import { createRng, type Rng } from "../corpus/prng.js";
import { lineWindow, loadTextPool, type TextPool } from "../corpus/text-pool.js";
import { indexInTempDir } from "../lib/temp-index.js";
import { fillerExchange } from "./filler.js";
import { NATURAL_SESSIONS } from "./sessions.js";
import type { NaturalSession, Question, QuestionClass, ToolTurn, Turn } from "./set.js";

/** One written event: its key (`${sessionId}/${entryId}`), the text search sees, and where it came from. */
export interface WrittenEvent {
	key: string;
	session: string;
	role: "user" | "assistant" | "toolResult";
	text: string;
}

/** A question with the keys of the events that answer it. */
export interface ResolvedQuestion {
	text: string;
	cls: QuestionClass;
	answers: string[];
	session: string;
}

/** What writing the set produced. */
export interface WrittenSet {
	events: WrittenEvent[];
	questions: ResolvedQuestion[];
	files: string[];
	/** Answer keys named in `also` that no turn declared (should be empty). */
	unknownKeys: string[];
}

/** The indexed corpus. */
export interface NaturalCorpus extends WrittenSet {
	root: string;
	db: SqliteDb;
	close(): void;
}

let cachedPool: TextPool | undefined;
function pool(): TextPool {
	cachedPool ??= loadTextPool({ root: PROJECT_ROOT });
	return cachedPool;
}

/** Writes one session's lines; returns its events and its questions (with `also` keys still unresolved). */
class SessionFile {
	readonly lines: string[] = [];
	readonly events: WrittenEvent[] = [];
	readonly pending: Array<{ question: Question; key: string }> = [];
	readonly keys = new Map<string, string>();
	private leaf: string | null = null;
	private clock: number;
	readonly id: string;
	private ids = new Set<string>();

	constructor(
		readonly spec: NaturalSession,
		readonly rng: Rng,
	) {
		this.clock = Date.parse(spec.start);
		if (Number.isNaN(this.clock)) throw new Error(`session ${spec.label}: bad start ${spec.start}`);
		this.id = uuidV7(this.clock, rng);
		this.lines.push(JSON.stringify({ type: "session", version: 3, id: this.id, timestamp: spec.start, cwd: spec.cwd }));
		this.entry({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
		this.entry({ type: "thinking_level_change", thinkingLevel: "medium" });
	}

	private entry(fields: Record<string, unknown>, gapMs: [number, number] = [0, 40]): string {
		let id = this.rng.hex(8);
		while (this.ids.has(id)) id = this.rng.hex(8);
		this.ids.add(id);
		this.clock += this.rng.range(gapMs[0], gapMs[1]);
		const { type, ...rest } = fields;
		this.lines.push(
			JSON.stringify({ type, id, parentId: this.leaf, timestamp: new Date(this.clock).toISOString(), ...rest }),
		);
		this.leaf = id;
		return id;
	}

	/** A message entry; records the event and the questions it answers. */
	private message(message: Record<string, unknown>, text: string, questions: Question[] = [], key?: string): string {
		const gap: [number, number] = message.role === "user" ? [20_000, 300_000] : [2_000, 40_000];
		const id = this.entry({ type: "message", message: { ...message, timestamp: this.clock } }, gap);
		const eventKey = `${this.id}/${id}`;
		this.events.push({ key: eventKey, session: this.spec.label, role: message.role as WrittenEvent["role"], text });
		for (const question of questions) this.pending.push({ question, key: eventKey });
		if (key !== undefined) {
			if (this.keys.has(key)) throw new Error(`session ${this.spec.label}: key ${key} declared twice`);
			this.keys.set(key, eventKey);
		}
		return eventKey;
	}

	private assistant(content: Record<string, unknown>[], stopReason: string) {
		return {
			role: "assistant",
			content,
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-sonnet-4-5",
			usage: { input: 900, output: 120, cacheRead: 0, cacheWrite: 0, totalTokens: 1020, cost: zeroCost },
			stopReason,
		};
	}

	say(role: "user" | "assistant", text: string, questions?: Question[], key?: string): void {
		const content = [{ type: "text", text }];
		const message = role === "user" ? { role, content } : this.assistant(content, "stop");
		this.message(message, text, questions, key);
	}

	tool(turn: ToolTurn): void {
		const callId = `toolu_01${this.rng.hex(22)}`;
		const args = turn.tool === "bash" ? { command: turn.arg } : { path: turn.arg };
		this.message(
			this.assistant([{ type: "toolCall", id: callId, name: turn.tool, arguments: args }], "toolUse"),
			turn.arg,
			turn.callQuestions,
		);
		this.message(
			{
				role: "toolResult",
				toolCallId: callId,
				toolName: turn.tool,
				content: [{ type: "text", text: turn.output }],
				isError: turn.isError ?? false,
			},
			turn.output,
			turn.questions,
			turn.key,
		);
	}

	/** Background output: a window of a real file, read or grepped. */
	noise(): void {
		const files = pool().files;
		const file = files[this.rng.int(files.length)];
		const from = this.rng.chance(0.5) ? 0 : this.rng.int(file.lineStarts.length);
		const text = lineWindow(file, from, this.rng.range(40, 600)).slice(0, 50_000);
		const path = `${this.spec.cwd}/${file.path}`;
		if (this.rng.chance(0.5)) this.tool({ tool: "read", arg: path, output: text });
		else this.tool({ tool: "bash", arg: `cat ${file.path} | head -n 600`, output: text });
	}
}

const zeroCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

function writeTurn(f: SessionFile, turn: Turn): void {
	if ("filler" in turn)
		for (let i = 0; i < turn.filler; i++) {
			const [user, assistant] = fillerExchange(f.rng, turn.domain);
			f.say("user", user);
			f.say("assistant", assistant);
		}
	else if ("noise" in turn) for (let i = 0; i < turn.noise; i++) f.noise();
	else if ("tool" in turn) f.tool(turn);
	else f.say(turn.role, turn.text, turn.questions, turn.key);
}

/** Writes every session of the set under `<agentDir>/sessions` (Pi's layout); same bytes on every run. */
export function writeNaturalSessions(agentDir: string, sessions: readonly NaturalSession[] = NATURAL_SESSIONS) {
	const written: SessionFile[] = [];
	const files: string[] = [];
	for (const spec of sessions) {
		const f = new SessionFile(spec, createRng(`natural:${spec.label}`));
		for (const turn of spec.turns) writeTurn(f, turn);
		const dir = join(agentDir, "sessions", encodeCwd(spec.cwd));
		mkdirSync(dir, { recursive: true });
		const file = join(dir, `${spec.start.replace(/[:.]/g, "-")}_${f.id}.jsonl`);
		writeFileSync(file, `${f.lines.join("\n")}\n`);
		files.push(file);
		written.push(f);
	}
	const keys = new Map<string, string>();
	for (const f of written) for (const [k, v] of f.keys) keys.set(k, v);
	const unknownKeys: string[] = [];
	const questions: ResolvedQuestion[] = written.flatMap((f) =>
		f.pending.map(({ question, key }) => {
			const also = (question.also ?? []).map((k) => {
				const resolved = keys.get(k);
				if (resolved === undefined) unknownKeys.push(k);
				return resolved ?? `unknown:${k}`;
			});
			return { text: question.text, cls: question.cls, answers: [key, ...also], session: f.spec.label };
		}),
	);
	return { events: written.flatMap((f) => f.events), questions, files, unknownKeys } satisfies WrittenSet;
}

/** Writes the set into a temp dir and indexes it with the project's ingest path (a few seconds). */
export async function buildNaturalCorpus(): Promise<NaturalCorpus> {
	let set: WrittenSet | undefined;
	const index = await indexInTempDir("pi-natural-eval-", (root) => {
		set = writeNaturalSessions(join(root, "agent"));
		return set.files;
	});
	return { ...(set as WrittenSet), ...index };
}
