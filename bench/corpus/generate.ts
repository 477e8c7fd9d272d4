/**
 * Deterministic generator of Pi-shaped v3 session corpora for the benchmarks.
 *
 * `generateCorpus` writes `<agentDir>/sessions/--<encoded cwd>--/<ts>_<uuid>.jsonl` for many workspaces, streaming
 * one line at a time; `generateOne` writes one big session file. Same seed + same node_modules → same bytes.
 *
 * CLI: `tsx bench/corpus/generate.ts --out <agentDir> --sessions 10 --bytes 2MB [--seed 7]`
 *      `tsx bench/corpus/generate.ts --one <file.jsonl> --bytes 100MB [--seed 7]`
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, utimesSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CORPUS_ROOT_CWD, emptyMarkerCounts, MARKERS, type MarkerCounts, type MarkerName } from "./markers.js";
import { createRng, type Rng } from "./prng.js";
import { assistantProse, cjkRequest, projectName, sessionName, summary, thought, userRequest } from "./prose.js";
import {
	formatBytes,
	KIND_HEAD_BYTES,
	lineKind,
	parseBytes,
	renderShape,
	ShapeCollector,
	type ShapeStats,
} from "./stats.js";
import { lineWindow, loadTextPool, type PoolFile, type TextPool } from "./text-pool.js";

/** Bump when the output for a given seed changes (cached corpora are regenerated). */
export const GENERATOR_VERSION = 2;
/** Default seed of every bench corpus. */
export const DEFAULT_SEED = 7;
/** The project root (for node_modules text). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Options of a whole corpus. */
export interface CorpusOptions {
	agentDir: string;
	sessions: number;
	/** Target total JSONL bytes (the result lands within a few percent). */
	bytes: number;
	seed?: number | string;
	/** Reuse an already loaded pool (tests, repeated runs). */
	pool?: TextPool;
	onProgress?: (sessionsDone: number, bytesWritten: number) => void;
}

/** What was generated, with shape statistics and planted marker counts. */
export interface CorpusManifest {
	generatorVersion: number;
	seed: number | string;
	agentDir: string;
	sessionsDir: string;
	sessions: number;
	workspaces: number;
	/** Sessions that are `--fork` copies of another session file. */
	forks: number;
	files: string[];
	totalBytes: number;
	/** Lines containing each marker (fork copies included). */
	markers: MarkerCounts;
	/** Workspace cwds, sorted. */
	cwds: string[];
	shape: ShapeStats;
	elapsedMs: number;
}

/** Pi's session folder name for a cwd (`getDefaultSessionDir`). */
export function encodeCwd(cwd: string): string {
	return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** A UUIDv7-shaped id for a time (as Pi's session ids are), random bits from the rng. */
export function uuidV7(ms: number, rng: Rng): string {
	const t = Math.floor(ms).toString(16).padStart(12, "0").slice(-12);
	const r = rng.hex(20);
	const variant = ((Number.parseInt(r[3], 16) & 0x3) | 0x8).toString(16);
	return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${r.slice(0, 3)}-${variant}${r.slice(4, 7)}-${r.slice(8, 20)}`;
}

/** Buffered synchronous line writer; flushes every ~1 MiB so no file is ever held whole in memory. */
class LineWriter {
	private pending: string[] = [];
	private pendingBytes = 0;
	bytes = 0;
	constructor(private fd: number) {}
	write(line: string, bytes: number): void {
		this.pending.push(line);
		this.pendingBytes += bytes;
		this.bytes += bytes;
		if (this.pendingBytes >= 1 << 20) this.flush();
	}
	flush(): void {
		if (this.pending.length === 0) return;
		writeSync(this.fd, this.pending.join(""));
		this.pending = [];
		this.pendingBytes = 0;
	}
	close(): void {
		this.flush();
		closeSync(this.fd);
	}
}

interface Model {
	api: string;
	provider: string;
	model: string;
}
const MODELS: Model[] = [
	{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
	{ api: "openai-responses", provider: "openai", model: "gpt-5" },
	{ api: "google-generative-ai", provider: "google", model: "gemini-2.5-pro" },
];
const THINKING_LEVELS = ["off", "low", "medium", "high"];
const BASH_FAIL_OUTPUT = [
	"npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nnpm ERR! Exit status 1",
	"error: pathspec 'feature' did not match any file(s) known to git",
	"FAIL  test/parser.test.ts > parses an empty file\nAssertionError: expected 1 to be 0",
	"bash: line 1: pnpm: command not found",
	"fatal: not a git repository (or any of the parent directories): .git",
];

const MARKER_NAMES = Object.keys(MARKERS) as MarkerName[];

/** A node on the current branch path (id and what kind of entry it is). */
interface PathNode {
	id: string;
	kind: string;
}

/** Everything a later `--fork` needs to continue a session that was already written. */
interface SessionRecord {
	file: string;
	cwd: string;
	ids: string[];
	path: PathNode[];
	clockMs: number;
	bytes: number;
	markers: MarkerCounts;
}

/** Writes one session file entry by entry, tracking the tree, bytes, shape and markers. */
class SessionWriter {
	readonly ids = new Set<string>();
	path: PathNode[] = [];
	clockMs: number;
	model: Model;
	markers = emptyMarkerCounts();
	private writer: LineWriter;

	constructor(
		readonly file: string,
		readonly cwd: string,
		readonly rng: Rng,
		readonly pool: TextPool,
		readonly shape: ShapeCollector,
		startMs: number,
	) {
		mkdirSync(dirname(file), { recursive: true });
		this.writer = new LineWriter(openSync(file, "w"));
		this.clockMs = startMs;
		this.model = rng.pick(MODELS);
	}

	get bytes(): number {
		return this.writer.bytes;
	}
	get leaf(): string | null {
		return this.path.length ? this.path[this.path.length - 1].id : null;
	}

	/** Plant a marker in text being built (every written line is scanned for markers, so counts are exact). */
	mark(name: MarkerName): string {
		return MARKERS[name];
	}

	private newId(): string {
		for (;;) {
			const id = this.rng.hex(8);
			if (!this.ids.has(id)) {
				this.ids.add(id);
				return id;
			}
		}
	}

	private tick(minMs: number, maxMs: number): string {
		this.clockMs += this.rng.range(minMs, maxMs);
		return new Date(this.clockMs).toISOString();
	}

	private emit(obj: unknown, kind: string): void {
		const line = `${JSON.stringify(obj)}\n`;
		const bytes = Buffer.byteLength(line);
		this.writer.write(line, bytes);
		this.shape.add(kind, bytes);
		for (const m of MARKER_NAMES) if (line.includes(MARKERS[m])) this.markers[m]++;
	}

	header(sessionId: string, parentSession?: string): void {
		const h: Record<string, unknown> = {
			type: "session",
			version: 3,
			id: sessionId,
			timestamp: new Date(this.clockMs).toISOString(),
			cwd: this.cwd,
		};
		if (parentSession) h.parentSession = parentSession;
		this.emit(h, "session");
	}

	/** Append an entry as a child of the current leaf; returns its id. */
	entry(type: string, fields: Record<string, unknown>, kind = type, gapMs: [number, number] = [200, 60_000]): string {
		const id = this.newId();
		const timestamp = this.tick(gapMs[0], gapMs[1]);
		const base = { id, parentId: this.leaf, timestamp };
		// Pi puts custom fields first for custom/custom_message entries, after the base fields otherwise.
		const obj =
			type === "custom" || type === "custom_message" ? { type, ...fields, ...base } : { type, ...base, ...fields };
		this.emit(obj, kind);
		this.path.push({ id, kind });
		return id;
	}

	message(message: Record<string, unknown>, gapMs?: [number, number]): string {
		const role = message.role as string;
		return this.entry("message", { message: { ...message, timestamp: this.clockMs } }, `message/${role}`, gapMs);
	}

	/** Copy every line after the header of a parent file verbatim (Pi's `--fork`). */
	copyFrom(parent: SessionRecord): void {
		this.writer.flush();
		const fd = openSync(parent.file, "r");
		const chunk = Buffer.allocUnsafe(1 << 20);
		let carry: Buffer = Buffer.alloc(0);
		let headerSkipped = false;
		for (;;) {
			const n = readSync(fd, chunk, 0, chunk.length, null);
			if (n === 0) break;
			let buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : Buffer.from(chunk.subarray(0, n));
			let start = 0;
			for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
				const line = buf.subarray(start, nl + 1);
				start = nl + 1;
				if (!headerSkipped) {
					headerSkipped = true;
					continue;
				}
				this.writer.write(line.toString("utf8"), line.length);
				this.shape.add(lineKind(line.subarray(0, KIND_HEAD_BYTES).toString("latin1")), line.length);
			}
			buf = buf.subarray(start);
			carry = buf;
		}
		closeSync(fd);
		for (const id of parent.ids) this.ids.add(id);
		this.path = parent.path.slice();
		this.clockMs = Math.max(this.clockMs, parent.clockMs);
		for (const k of Object.keys(this.markers) as MarkerName[]) this.markers[k] += parent.markers[k];
	}

	close(): void {
		this.writer.close();
	}

	callId(): string {
		return this.model.provider === "anthropic" ? `toolu_01${this.rng.hex(22)}` : `call_${this.rng.hex(24)}`;
	}
}

/** An assistant message of the session's model, the way Pi records one. */
function assistantMessage(
	w: { model: { api: string; provider: string; model: string } },
	rng: Rng,
	content: Record<string, unknown>[],
	stopReason: string,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		role: "assistant",
		content,
		api: w.model.api,
		provider: w.model.provider,
		model: w.model.model,
		usage: usage(rng),
		stopReason,
		...extra,
	};
}

function usage(rng: Rng): Record<string, unknown> {
	const input = rng.range(200, 40_000);
	const output = rng.range(5, 4000);
	const cacheRead = rng.range(0, 90_000);
	return {
		input,
		output,
		cacheRead,
		cacheWrite: 0,
		totalTokens: input + output + cacheRead,
		cost: { input: input * 3e-6, output: output * 15e-6, cacheRead: cacheRead * 3e-7, cacheWrite: 0, total: 0 },
	};
}

/** Text of a tool result, capped at Pi's 50 KB output limit unless `huge`. */
function readResult(rng: Rng, file: PoolFile): { text: string; from: number; count: number } {
	const total = file.lineStarts.length;
	const from = rng.chance(0.6) ? 0 : rng.int(total);
	const count = rng.chance(0.5) ? rng.range(20, 400) : 2000;
	let text = lineWindow(file, from, count);
	if (text.length > 50_000) text = text.slice(0, 50_000);
	const shown = text.split("\n").length;
	if (from + shown < total)
		text += `\n\n[Showing lines ${from + 1}-${from + shown} of ${total}. Use offset=${from + shown + 1} to continue.]`;
	return { text, from, count };
}

/** Output of a plausible shell command over pool files, and the command. */
function bashCommand(
	rng: Rng,
	pool: TextPool,
	w: SessionWriter,
): { command: string; output: string; exitCode: number } {
	const file = rng.pick(pool.files);
	const roll = rng.int(6);
	let command: string;
	let output: string;
	if (roll === 0) {
		command = `cat ${file.path}`;
		output = lineWindow(file, 0, rng.range(30, 1500));
	} else if (roll === 1) {
		const word = rng.pick(pool.words);
		command = `grep -rn "${word}" ${file.path.split("/").slice(0, 2).join("/")}`;
		const from = rng.int(file.lineStarts.length);
		const lines = lineWindow(file, from, rng.range(3, 120)).split("\n");
		output = lines.map((l, i) => `${file.path}:${from + i + 1}:${l}`).join("\n");
	} else if (roll === 2) {
		command = "npm test";
		const n = rng.range(3, 60);
		const lines = ["> vitest run", ""];
		for (let i = 0; i < n; i++)
			lines.push(` ✓ test/${rng.pick(pool.words)}.test.ts (${rng.range(1, 40)} tests) ${rng.range(3, 900)}ms`);
		lines.push("", ` Test Files  ${n} passed (${n})`);
		output = lines.join("\n");
	} else if (roll === 3) {
		command = `git log --oneline -n ${rng.range(5, 40)}`;
		const n = rng.range(5, 40);
		const lines: string[] = [];
		for (let i = 0; i < n; i++) lines.push(`${rng.hex(7)} ${assistantProse(rng, rng.pick(pool.words))}`);
		output = lines.join("\n");
	} else if (roll === 4) {
		command = `git diff ${file.path}`;
		const body = lineWindow(file, rng.int(file.lineStarts.length), rng.range(5, 80)).split("\n");
		output = [
			`diff --git a/${file.path} b/${file.path}`,
			"@@ -1,5 +1,6 @@",
			...body.map((l) => (rng.chance(0.2) ? `+${l}` : ` ${l}`)),
		].join("\n");
	} else {
		command = `ls -la ${file.path.split("/").slice(0, 2).join("/")}`;
		const n = rng.range(4, 60);
		const lines = [`total ${n * 8}`];
		for (let i = 0; i < n; i++)
			lines.push(
				`-rw-r--r-- 1 dev dev ${rng.range(100, 90000)} Mar  ${rng.range(1, 28)} 12:0${rng.int(10)} ${rng.pick(pool.words)}.ts`,
			);
		output = lines.join("\n");
	}
	if (output.length > 50_000) output = output.slice(output.length - 50_000);
	let exitCode = 0;
	if (rng.chance(0.12)) {
		exitCode = rng.pick([1, 1, 2, 127, 128]);
		output += `\n${rng.pick(BASH_FAIL_OUTPUT)}`;
	}
	if (rng.chance(0.01)) output += `\n${w.mark("phrase")} handshake completed`;
	return { command, output, exitCode };
}

/** Big payload (several MB) made of concatenated pool text. */
function hugeText(rng: Rng, pool: TextPool, bytes: number): string {
	const parts: string[] = [];
	let n = 0;
	while (n < bytes) {
		const f = rng.pick(pool.files);
		parts.push(f.text);
		n += f.text.length;
	}
	return parts.join("\n").slice(0, bytes);
}

/** One tool call with its result(s): returns the assistant content block and a function writing the result. */
function toolCall(w: SessionWriter, huge: number): { block: Record<string, unknown>; result: () => void } {
	const { rng, pool, cwd } = w;
	const id = w.callId();
	const file = rng.pick(pool.files);
	const path = `${cwd}/${file.path}`;
	const roll = huge > 0 ? (rng.chance(0.5) ? 9 : 10) : rng.int(100);
	const toolResult = (toolName: string, text: string, isError: boolean, details?: Record<string, unknown>) => () => {
		const msg: Record<string, unknown> = {
			role: "toolResult",
			toolCallId: id,
			toolName,
			content: [{ type: "text", text }],
		};
		if (details) msg.details = details;
		msg.isError = isError;
		w.message(msg, [50, 8000]);
	};
	const errorText = (base: string) => (rng.chance(0.15) ? `${base} (${w.mark("error")})` : base);
	if (roll === 9 && huge > 0) {
		const content = hugeText(rng, pool, huge);
		return {
			block: { type: "toolCall", id, name: "write", arguments: { path, content } },
			result: toolResult("write", `Successfully wrote ${content.length} bytes to ${path}`, false),
		};
	}
	if (roll === 10 && huge > 0) {
		return {
			block: { type: "toolCall", id, name: "fetch_url", arguments: { url: `https://example.test/${file.path}` } },
			result: toolResult("fetch_url", hugeText(rng, pool, huge), false, { status: 200 }),
		};
	}
	if (roll < 40) {
		const r = readResult(rng, file);
		const args: Record<string, unknown> = { path };
		if (r.from > 0) args.offset = r.from + 1;
		if (r.count !== 2000) args.limit = r.count;
		if (rng.chance(0.04))
			return {
				block: { type: "toolCall", id, name: "read", arguments: { path: `${path}.bak` } },
				result: toolResult("read", errorText(`ENOENT: no such file or directory, access '${path}.bak'`), true),
			};
		return {
			block: { type: "toolCall", id, name: "read", arguments: args },
			result: toolResult("read", r.text, false),
		};
	}
	if (roll < 70) {
		const b = bashCommand(rng, pool, w);
		const args: Record<string, unknown> = { command: b.command };
		if (rng.chance(0.2)) args.timeout = 120;
		const text = b.exitCode === 0 ? b.output : `${b.output}\n\nCommand exited with code ${b.exitCode}`;
		return {
			block: { type: "toolCall", id, name: "bash", arguments: args },
			result: toolResult("bash", b.exitCode === 0 ? text : errorText(text), b.exitCode !== 0),
		};
	}
	if (roll < 88) {
		const from = rng.int(file.lineStarts.length);
		const oldText = lineWindow(file, from, rng.range(1, 12));
		const newText = rng.chance(0.5) ? oldText.replace(/\b(\w+)\b/, "$1Next") : `${oldText}// ${rng.pick(pool.words)}\n`;
		const failed = rng.chance(0.08);
		return {
			block: { type: "toolCall", id, name: "edit", arguments: { path, edits: [{ oldText, newText }] } },
			result: failed
				? toolResult(
						"edit",
						errorText(
							`Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`,
						),
						true,
					)
				: toolResult("edit", `Successfully replaced 1 block(s) in ${path}.`, false, {
						diff: `-${oldText.split("\n")[0]}\n+${newText.split("\n")[0]}`,
						firstChangedLine: from + 1,
					}),
		};
	}
	if (roll < 95) {
		const content = lineWindow(file, 0, rng.range(10, 300));
		return {
			block: {
				type: "toolCall",
				id,
				name: "write",
				arguments: { path: `${cwd}/src/${rng.pick(pool.words)}.ts`, content },
			},
			result: toolResult("write", `Successfully wrote ${content.length} bytes to ${cwd}/src/generated.ts`, false),
		};
	}
	const pattern = rng.pick(pool.words);
	const lines: string[] = [];
	for (let i = 0, n = rng.range(0, 40); i < n; i++) {
		const f = rng.pick(pool.files);
		const ln = rng.int(f.lineStarts.length);
		lines.push(`${f.path}:${ln + 1}: ${lineWindow(f, ln, 1).trimEnd().slice(0, 200)}`);
	}
	return {
		block: { type: "toolCall", id, name: "grep", arguments: { pattern, path: cwd } },
		result: toolResult("grep", lines.length ? lines.join("\n") : "No matches found", false),
	};
}

/** One user turn: the request, 1–4 rounds of assistant tool calls and results, and a final answer. */
function turn(w: SessionWriter, hugeBytes: number): void {
	const { rng, pool } = w;
	const subject = rng.pick(pool.files).path;
	let userText: string;
	if (rng.chance(0.06)) userText = cjkRequest(rng, rng.chance(0.2) ? `，${w.mark("cjk")}` : "");
	else userText = userRequest(rng, subject);
	if (rng.chance(0.0015)) userText += ` ticket ${w.mark("rare")}`;
	const content: unknown = rng.chance(0.25)
		? userText
		: rng.chance(0.03)
			? [
					{ type: "text", text: userText },
					{
						type: "image",
						data: Buffer.from(rng.pick(pool.files).text.slice(0, rng.range(2000, 12000))).toString("base64"),
						mimeType: "image/png",
					},
				]
			: [{ type: "text", text: userText }];
	w.message({ role: "user", content }, [5_000, 600_000]);
	// A turn that must carry the huge line has at least one tool round.
	const rounds = hugeBytes > 0 ? rng.range(1, 4) : rng.range(0, 4);
	let huge = hugeBytes;
	for (let r = 0; r < rounds; r++) {
		const blocks: Record<string, unknown>[] = [];
		if (w.model.provider !== "openai" && rng.chance(0.5)) {
			const t: Record<string, unknown> = {
				type: "thinking",
				thinking: rng.chance(0.02) ? `${thought(rng)} ${w.mark("thinkingOnly")}` : thought(rng),
			};
			if (w.model.provider === "anthropic") t.thinkingSignature = rng.hex(rng.range(64, 400));
			blocks.push(t);
		}
		if (rng.chance(0.6)) blocks.push({ type: "text", text: assistantProse(rng, subject) });
		const calls = rng.chance(0.2) ? rng.range(2, 4) : 1;
		const results: Array<() => void> = [];
		for (let c = 0; c < calls; c++) {
			const call = toolCall(w, huge);
			huge = 0;
			blocks.push(call.block);
			results.push(call.result);
		}
		w.message(assistantMessage(w, rng, blocks, "toolUse"), [1000, 90_000]);
		for (const res of results) res();
	}
	const roll = rng.next();
	if (roll < 0.02) {
		// Aborted / failed assistant turns carry empty content.
		w.message(
			assistantMessage(w, rng, [], roll < 0.01 ? "aborted" : "error", {
				errorMessage: roll < 0.01 ? "Request was aborted" : "529 overloaded_error: Overloaded",
			}),
		);
		return;
	}
	let text = assistantProse(rng, subject);
	if (rng.chance(0.02)) text += ` The ${w.mark("common")} helper is gone now.`;
	const blocks: Record<string, unknown>[] = [];
	if (w.model.provider !== "openai" && rng.chance(0.3)) blocks.push({ type: "thinking", thinking: thought(rng) });
	blocks.push({ type: "text", text });
	w.message(assistantMessage(w, rng, blocks, "stop"), [1000, 90_000]);
}

/** A turn that plants every marker once, so even a 10-session corpus has a known hit for each query. */
function markerTurn(w: SessionWriter): void {
	const { rng } = w;
	w.entry("session_info", { name: `${sessionName(rng)} ${w.mark("sessionName")}` });
	w.message(
		{ role: "user", content: [{ type: "text", text: `请检查${w.mark("cjk")}的结果, ticket ${w.mark("rare")} 🚀` }] },
		[5_000, 60_000],
	);
	const bashId = w.callId();
	const readId = w.callId();
	const path = `${w.cwd}/src/missing-${rng.hex(4)}.ts`;
	w.message(
		{
			role: "assistant",
			content: [
				{ type: "thinking", thinking: `${thought(rng)} ${w.mark("thinkingOnly")}` },
				{ type: "text", text: `Checking the ${w.mark("common")} path first.` },
				{ type: "toolCall", id: bashId, name: "bash", arguments: { command: "./scripts/handshake.sh" } },
				{ type: "toolCall", id: readId, name: "read", arguments: { path } },
			],
			api: w.model.api,
			provider: w.model.provider,
			model: w.model.model,
			usage: usage(rng),
			stopReason: "toolUse",
		},
		[1000, 30_000],
	);
	w.message(
		{
			role: "toolResult",
			toolCallId: bashId,
			toolName: "bash",
			content: [{ type: "text", text: `${w.mark("phrase")} handshake completed\nok` }],
			isError: false,
		},
		[50, 5000],
	);
	w.message(
		{
			role: "toolResult",
			toolCallId: readId,
			toolName: "read",
			content: [{ type: "text", text: `ENOENT: no such file or directory, access '${path}' (${w.mark("error")})` }],
			isError: true,
		},
		[50, 5000],
	);
}

/** Between turns: names, labels, bash executions, model changes, branches, compactions, custom entries. */
function interlude(w: SessionWriter, turnNo: number, sinceCompaction: number): boolean {
	const { rng, pool } = w;
	let compacted = false;
	if (turnNo === 1 && rng.chance(0.6))
		w.entry("session_info", {
			name: rng.chance(0.03) ? `${sessionName(rng)} ${w.mark("sessionName")}` : sessionName(rng),
		});
	else if (turnNo > 3 && rng.chance(0.02)) w.entry("session_info", { name: rng.chance(0.1) ? "" : sessionName(rng) });
	if (rng.chance(0.08) && w.path.length > 3) {
		const target = w.path[rng.int(w.path.length)].id;
		w.entry(
			"label",
			rng.chance(0.1)
				? { targetId: target }
				: {
						targetId: target,
						label: rng.pick(["checkpoint", "good state", "bug here", "before refactor", "✅ works", "要点"]),
					},
		);
	}
	if (rng.chance(0.1)) {
		const b = bashCommand(rng, pool, w);
		const msg: Record<string, unknown> = {
			role: "bashExecution",
			command: b.command,
			output: b.output,
			exitCode: b.exitCode,
			cancelled: false,
			truncated: false,
		};
		if (rng.chance(0.1)) msg.excludeFromContext = true;
		w.message(msg);
	}
	if (rng.chance(0.03)) {
		w.model = rng.pick(MODELS);
		w.entry("model_change", { provider: w.model.provider, modelId: w.model.model });
	}
	if (rng.chance(0.03)) w.entry("thinking_level_change", { thinkingLevel: rng.pick(THINKING_LEVELS) });
	if (rng.chance(0.02))
		w.entry("custom", {
			customType: "todo-state",
			data: { items: [{ text: rng.pick(pool.words), done: rng.chance(0.5) }] },
		});
	if (rng.chance(0.02))
		w.entry("custom_message", {
			customType: "reminder",
			content: `Remember: ${assistantProse(rng, rng.pick(pool.words))}`,
			display: rng.chance(0.7),
		});
	// /tree navigation: go back to an earlier entry, with a branch summary most of the time.
	if (turnNo > 2 && rng.chance(0.06) && w.path.length > 6) {
		const k = rng.range(2, w.path.length - 3);
		w.path = w.path.slice(0, k + 1);
		const fromId = w.path[k].id;
		if (rng.chance(0.7)) {
			const files = [rng.pick(pool.files).path, rng.pick(pool.files).path];
			w.entry("branch_summary", {
				fromId,
				summary: `The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n${summary(rng, files)}`,
				details: { readFiles: files, modifiedFiles: files.slice(0, 1) },
				fromHook: false,
			});
		}
	}
	// Compaction once enough was said; firstKeptEntryId is a user message on the current path.
	if (sinceCompaction > 60_000 && rng.chance(0.35)) {
		const users = w.path.filter((n) => n.kind === "message/user");
		if (users.length >= 2) {
			const kept = users[Math.max(1, users.length - rng.range(1, 3))].id;
			const files = [rng.pick(pool.files).path, rng.pick(pool.files).path, rng.pick(pool.files).path];
			w.entry("compaction", {
				summary: summary(rng, files),
				firstKeptEntryId: kept,
				tokensBefore: rng.range(50_000, 190_000),
				details: { readFiles: files, modifiedFiles: files.slice(1) },
				fromHook: false,
			});
			compacted = true;
		}
	}
	return compacted;
}

/** Write turns into an open session until it reaches `budget` bytes. */
function fillSession(w: SessionWriter, budget: number, hugeBytes: number, firstTurn: number, markerAll = false): void {
	let turnNo = firstTurn;
	if (markerAll) markerTurn(w);
	let compactedAt = w.bytes;
	let huge = hugeBytes;
	do {
		// The huge line goes into the second turn so the file has ordinary lines on both sides.
		turn(w, turnNo === firstTurn + 1 ? huge : 0);
		if (turnNo === firstTurn + 1) huge = 0;
		turnNo++;
		if (interlude(w, turnNo, w.bytes - compactedAt)) compactedAt = w.bytes;
	} while (w.bytes < budget || huge > 0);
}

function startEntries(w: SessionWriter, rng: Rng): void {
	w.entry("model_change", { provider: w.model.provider, modelId: w.model.model }, "model_change", [0, 50]);
	w.entry("thinking_level_change", { thinkingLevel: rng.pick(THINKING_LEVELS) }, "thinking_level_change", [0, 5]);
}

const BASE_MS = Date.UTC(2026, 0, 5, 9, 0, 0);
const SPAN_MS = 180 * 24 * 3600 * 1000;

function workspaces(rng: Rng, count: number): string[] {
	const out = new Set<string>();
	const groups = ["src", "work", "projects", "src/github.com/acme", "src/gitlab.com/infra"];
	out.add(`${CORPUS_ROOT_CWD}/projects/数据-pipeline`);
	if (count > 2) out.add(`${CORPUS_ROOT_CWD}/work/my app`);
	while (out.size < count) out.add(`${CORPUS_ROOT_CWD}/${rng.pick(groups)}/${projectName(rng)}-${out.size}`);
	return [...out].slice(0, count);
}

/** Generate a whole corpus into `<agentDir>/sessions` (the directory is emptied first). */
export function generateCorpus(options: CorpusOptions): CorpusManifest {
	const started = performance.now();
	const seed = options.seed ?? DEFAULT_SEED;
	if (!Number.isInteger(options.sessions) || options.sessions < 1)
		throw new Error("sessions must be a positive integer");
	if (!(options.bytes > 0)) throw new Error("bytes must be positive");
	const pool = options.pool ?? loadTextPool({ root: PROJECT_ROOT });
	const master = createRng(seed);
	const sessionsDir = join(options.agentDir, "sessions");
	rmSync(sessionsDir, { recursive: true, force: true });
	mkdirSync(sessionsDir, { recursive: true });
	const shape = new ShapeCollector();
	const n = options.sessions;
	const wsRng = master.fork("workspaces");
	const cwds = workspaces(wsRng, Math.max(1, Math.min(n, Math.round(Math.sqrt(n) * 2))));
	// Session size weights: log-normal, so a few sessions are long and most are short.
	const weightRng = master.fork("weights");
	const weights = Array.from({ length: n }, () => Math.exp(weightRng.normal()));
	const suffix = new Float64Array(n + 1);
	for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + weights[i];
	// A few lines of several MB: one per ~200 MB (at least one), in deterministic sessions.
	const hugeCount = Math.max(1, Math.floor(options.bytes / (200 * 1024 * 1024)));
	const hugeBytes = Math.min(6 * 1024 * 1024, Math.max(256 * 1024, Math.floor(options.bytes / 40)));
	const hugeRng = master.fork("huge");
	const hugeAt = new Map<number, number>();
	for (let k = 0; k < hugeCount; k++) hugeAt.set(hugeRng.int(n), hugeRng.range(Math.floor(hugeBytes * 0.6), hugeBytes));
	const forkAlways = n >= 3 ? Math.floor(n / 2) : -1;
	const recent: SessionRecord[] = [];
	const files: string[] = [];
	const markers = emptyMarkerCounts();
	let written = 0;
	let forks = 0;
	for (let i = 0; i < n; i++) {
		const rng = master.fork(`session-${i}`);
		const remaining = Math.max(0, options.bytes - written);
		const budget = Math.max(2000, (remaining * weights[i]) / suffix[i]);
		const startMs = BASE_MS + Math.floor((SPAN_MS * i) / n) + rng.int(Math.max(1, Math.floor(SPAN_MS / n)));
		const id = uuidV7(startMs, rng);
		let parent: SessionRecord | undefined;
		if (recent.length > 0 && (i === forkAlways || rng.chance(0.02))) {
			parent = rng.pick(recent);
			if (parent.bytes > budget * 3 && i !== forkAlways) parent = undefined;
		}
		const cwd = parent && rng.chance(0.7) ? parent.cwd : cwds[Math.floor(cwds.length * rng.next() ** 2)];
		const stamp = new Date(startMs).toISOString().replace(/[:.]/g, "-");
		const file = join(sessionsDir, encodeCwd(cwd), `${stamp}_${id}.jsonl`);
		const w = new SessionWriter(file, cwd, rng, pool, shape, startMs);
		w.header(id, parent?.file);
		if (parent) {
			w.copyFrom(parent);
			forks++;
		} else startEntries(w, rng);
		const markerAll = i % 500 === Math.floor(n / 3) % 500;
		fillSession(w, parent ? w.bytes + Math.min(budget, 20_000) : budget, hugeAt.get(i) ?? 0, parent ? 3 : 0, markerAll);
		w.close();
		// As Pi leaves a session file: modified when its last entry was written (lifecycle.md, "Idle files between full
		// checks", tells recent files from idle ones by it).
		utimesSync(file, new Date(w.clockMs), new Date(w.clockMs));
		written += w.bytes;
		for (const k of Object.keys(markers) as MarkerName[]) markers[k] += w.markers[k];
		files.push(file);
		recent.push({ file, cwd, ids: [...w.ids], path: w.path, clockMs: w.clockMs, bytes: w.bytes, markers: w.markers });
		if (recent.length > 32) recent.shift();
		if (options.onProgress && ((i + 1) % 250 === 0 || i === n - 1)) options.onProgress(i + 1, written);
	}
	return {
		generatorVersion: GENERATOR_VERSION,
		seed,
		agentDir: options.agentDir,
		sessionsDir,
		sessions: n,
		workspaces: cwds.length,
		forks,
		files,
		totalBytes: written,
		markers,
		cwds: [...cwds].sort(),
		shape: shape.finish(),
		elapsedMs: Math.round(performance.now() - started),
	};
}

/** Options of a single generated session file. */
export interface OneOptions {
	bytes: number;
	seed?: number | string;
	cwd?: string;
	pool?: TextPool;
}

/** Result of `generateOne`: enough to append further valid entries. */
export interface OneResult {
	file: string;
	sessionId: string;
	bytes: number;
	/** Id of the last entry (the materialized leaf); the next appended entry's parentId. */
	leafId: string;
	/** Epoch ms of the last entry. */
	lastMs: number;
	shape: ShapeStats;
}

/** Write one Pi-shaped v3 session of about `bytes` bytes at `file` (no huge lines, no forks). */
export function generateOne(file: string, options: OneOptions): OneResult {
	const pool = options.pool ?? loadTextPool({ root: PROJECT_ROOT });
	const rng = createRng(options.seed ?? DEFAULT_SEED).fork("one");
	const shape = new ShapeCollector();
	const startMs = BASE_MS;
	const id = uuidV7(startMs, rng);
	const w = new SessionWriter(file, options.cwd ?? `${CORPUS_ROOT_CWD}/work/append-target`, rng, pool, shape, startMs);
	w.header(id);
	startEntries(w, rng);
	fillSession(w, options.bytes, 0, 0);
	w.close();
	return { file, sessionId: id, bytes: w.bytes, leafId: w.leaf as string, lastMs: w.clockMs, shape: shape.finish() };
}

/**
 * One more Pi-shaped line to append to a session: a user message child of `parentId`, with a fresh 8-hex id
 * derived from `n` (distinct per n). Returns the line (with its `\n`) and the new id.
 */
export function appendLine(parentId: string, n: number, timeMs: number, text?: string): { line: string; id: string } {
	const id = (0x10000000 + ((n * 2654435761) >>> 4)).toString(16).slice(-8);
	const entry = {
		type: "message",
		id,
		parentId,
		timestamp: new Date(timeMs).toISOString(),
		message: {
			role: "user",
			content: [{ type: "text", text: text ?? `appended line ${n}: check the retry logic again` }],
			timestamp: timeMs,
		},
	};
	return { line: `${JSON.stringify(entry)}\n`, id };
}

function argValue(args: string[], name: string): string | undefined {
	const i = args.indexOf(name);
	return i === -1 ? undefined : args[i + 1];
}

function main(argv: string[]): void {
	const bytes = parseBytes(argValue(argv, "--bytes") ?? "2MB");
	const seedArg = argValue(argv, "--seed");
	const seed = seedArg === undefined ? DEFAULT_SEED : Number.isNaN(Number(seedArg)) ? seedArg : Number(seedArg);
	const one = argValue(argv, "--one");
	if (one) {
		const r = generateOne(resolve(one), { bytes, seed });
		console.log(`wrote ${r.file}: ${formatBytes(r.bytes)}, session ${r.sessionId}, leaf ${r.leafId}`);
		console.log(renderShape(r.shape));
		return;
	}
	const out = argValue(argv, "--out");
	if (!out)
		throw new Error(
			"usage: generate.ts --out <agentDir> --sessions N --bytes SIZE [--seed S] | --one <file> --bytes SIZE",
		);
	const sessions = Number(argValue(argv, "--sessions") ?? "10");
	const m = generateCorpus({
		agentDir: resolve(out),
		sessions,
		bytes,
		seed,
		onProgress: (done, w) => process.stderr.write(`\r${done}/${sessions} sessions, ${formatBytes(w)}   `),
	});
	process.stderr.write("\n");
	console.log(
		`${m.sessionsDir}: ${m.sessions} sessions (${m.forks} forks) in ${m.workspaces} workspaces, ${formatBytes(m.totalBytes)}, ${m.shape.lines} lines, ${(m.elapsedMs / 1000).toFixed(1)} s`,
	);
	console.log(`markers (lines): ${JSON.stringify(m.markers)}`);
	console.log(renderShape(m.shape));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		main(process.argv.slice(2));
	} catch (err) {
		console.error(`generate: ${err instanceof Error ? err.message : String(err)}`);
		process.exitCode = 1;
	}
}
