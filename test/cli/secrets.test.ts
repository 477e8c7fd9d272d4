/**
 * Issue 45, finding 6: secrets printed into a session never come back. The real program in real child processes
 * indexes a real session file holding an AWS key pair, a GitHub token, an OpenAI key and a PEM private key in a bash
 * tool result (and a GitHub token past the stored head of a long result, which a read serves from the JSONL):
 * searching for any of them finds nothing, every read and search shows the named mask, and no index file holds them.
 * The person's own config turns redaction off; a workspace's config cannot.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeSessionDirName } from "../../src/config/pi-paths.js";
import { FAKE } from "../helpers/fake-secrets.js";
import { lineFactory } from "../helpers/session-lines.js";
import { cli, hermeticEnv, json } from "./cli-harness.js";

const SESSION = "5ec5ec00-0000-4000-8000-00000000c0de";
const CWD = "/home/dev/secrets";
const SECRETS = [FAKE.awsKeyId, FAKE.awsSecret, FAKE.github, FAKE.openaiProject, ...FAKE.pemBody];
/** The long result's token lies past the 1,000 code points the index stores of a fragment. */
const LONG_OUTPUT = `${"build log line\n".repeat(120)}GITHUB_TOKEN ${FAKE.github} was used\n`;

let base: string;

/** A fresh agent dir with the secrets session, and a workspace dir; `userConfig` is the person's own config. */
function setUp(name: string, userConfig?: object) {
	const agentDir = join(base, name, "agent");
	const dir = join(agentDir, "sessions", encodeSessionDirName(CWD));
	mkdirSync(dir, { recursive: true });
	if (userConfig) writeFileSync(join(agentDir, "event-index.json"), JSON.stringify(userConfig));
	const f = lineFactory({ sessionId: SESSION, cwd: CWD, prefix: "s" });
	const output = [
		`AWS_ACCESS_KEY_ID=${FAKE.awsKeyId}`,
		`AWS_SECRET_ACCESS_KEY=${FAKE.awsSecret}`,
		`GH_TOKEN=${FAKE.github}`,
		`OPENAI_API_KEY=${FAKE.openaiProject}`,
		"-----BEGIN RSA PRIVATE KEY-----",
		...FAKE.pemBody,
		"-----END RSA PRIVATE KEY-----",
	].join("\n");
	writeFileSync(
		join(dir, "2026-01-01T00-00-00-000Z_secrets.jsonl"),
		f.header() +
			f.user("print the deploy credentials with cat .env") +
			f.toolResult("call_1", "bash", output) +
			f.toolResult("call_2", "bash", LONG_OUTPUT) +
			f.assistant("done: credentials printed"),
	);
	const env = hermeticEnv(join(base, name, "home"));
	mkdirSync(join(base, name, "home"), { recursive: true });
	const run = (...args: string[]) => cli(["--agent-dir", agentDir, "--workspace", CWD, ...args], { env });
	return { agentDir, run };
}

/** Every byte of every file in the index directory, as latin1 text (to look for a secret's characters). */
function indexBytes(agentDir: string): string {
	const dir = join(agentDir, "event-index");
	return readdirSync(dir)
		.map((n) => readFileSync(join(dir, n)).toString("latin1"))
		.join("\n");
}

beforeAll(() => {
	base = mkdtempSync(join(tmpdir(), "pei-secrets-"));
});

afterAll(() => {
	rmSync(base, { recursive: true, force: true });
});

describe("secrets are redacted at index time and on every output (on by default)", () => {
	it("search for a secret finds nothing; reads, windows past the stored head and the index files hold only masks", async () => {
		const { agentDir, run } = setUp("on");
		expect((await run("reindex")).code).toBe(0);
		for (const secret of [FAKE.github, FAKE.awsKeyId, FAKE.awsSecret.slice(0, 20), FAKE.pemBody[1].slice(0, 30)]) {
			const r = json<{ hits: unknown[] }>(await run("search", "--json", "--no-sync", "--", secret));
			expect(r.hits, secret).toEqual([]);
		}
		const masks = await run("search", "redacted github token", "--json", "--no-sync");
		expect(masks.stdout).toContain("[redacted: github token]");
		const read = await run("read", SESSION, "s0000001", "--json", "--no-sync");
		expect(read.code, read.stderr).toBe(0);
		for (const kind of ["aws access key id", "aws secret access key", "github token", "openai key", "private key"]) {
			expect(read.stdout).toContain(`[redacted: ${kind}]`);
		}
		// A window far into the long result: served from the JSONL, masked as it is read.
		const window = await run(
			"read",
			SESSION,
			"s0000002",
			"--fragment",
			"s0000002#0",
			"--offset",
			"1700",
			"--json",
			"--no-sync",
		);
		expect(window.code, window.stderr).toBe(0);
		expect(window.stdout).toContain("[redacted: github token]");
		const human = await run("read", SESSION, "s0000002", "--fragment", "s0000002#0", "--offset", "1700", "--no-sync");
		const bytes = indexBytes(agentDir);
		for (const secret of SECRETS) {
			for (const out of [masks.stdout, read.stdout, window.stdout, human.stdout]) expect(out).not.toContain(secret);
			expect(bytes).not.toContain(secret);
			expect(bytes).not.toContain(secret.toLowerCase());
		}
	});
});

describe("the setting is the person's", () => {
	it("the person's own config turns redaction off: the token is then found and shown", async () => {
		const { agentDir, run } = setUp("off", { redactSecrets: false });
		expect((await run("reindex")).code).toBe(0);
		const r = await run("search", "--json", "--no-sync", "--", FAKE.github);
		expect(json<{ hits: unknown[] }>(r).hits).not.toEqual([]);
		expect(r.stdout).toContain(FAKE.github);
		// Turned back on: what was indexed meanwhile is masked on every way out until `reindex --full`; a window past
		// its stored head cannot be read (the file's text, masked now, is no longer the text that was indexed).
		writeFileSync(join(agentDir, "event-index.json"), "{}");
		const again = await run("search", "--json", "--no-sync", "--", FAKE.github);
		const read = await run("read", SESSION, "s0000001", "--json", "--no-sync");
		for (const out of [again.stdout, read.stdout]) {
			expect(out).not.toContain(FAKE.github);
			expect(out).toContain("[redacted: github token]");
		}
		const window = await run("read", SESSION, "s0000002", "--fragment", "s0000002#0", "--json", "--no-sync");
		expect(window.stdout).toContain("can no longer be read whole");
		expect(window.stdout).not.toContain(FAKE.github);
	});

	it("regression: the setting reaches the prefetch thread of a two-thread reindex, both ways", async () => {
		for (const [name, config, found] of [
			["thread-on", undefined, false],
			["thread-off", { redactSecrets: false }, true],
		] as const) {
			const { agentDir, run } = setUp(name, config);
			// Over PREFETCH_MIN_BYTES (8 MiB) of new files, so the pass parses and projects them in its second thread.
			const dir = join(agentDir, "sessions", encodeSessionDirName(CWD));
			const filler = "padding line of a long build log\n".repeat(8_000);
			for (let i = 0; i < 40; i++) {
				const f = lineFactory({ sessionId: `5ec5ec00-0000-4000-8000-${String(i).padStart(12, "0")}`, cwd: CWD });
				writeFileSync(
					join(dir, `big-${i}.jsonl`),
					f.header() + f.toolResult("c", "bash", `${filler}NPM=${FAKE.npm}\n`),
				);
			}
			const r = json<{ result: { prefetchedBytes: number } }>(await run("reindex", "--json"));
			expect(r.result.prefetchedBytes).toBeGreaterThan(0);
			const hits = json<{ hits: unknown[] }>(await run("search", "--json", "--no-sync", "--", FAKE.npm)).hits;
			expect(hits.length > 0, name).toBe(found);
		}
	});

	it("a workspace's config cannot turn it off, and status says why", async () => {
		const { run } = setUp("workspace");
		mkdirSync(join(base, "workspace", "ws", ".pi"), { recursive: true });
		const ws = join(base, "workspace", "ws");
		writeFileSync(join(ws, ".pi", "event-index.json"), JSON.stringify({ redactSecrets: false }));
		const agentDir = join(base, "workspace", "agent");
		const env = hermeticEnv(join(base, "workspace", "home"));
		const inWs = (...args: string[]) => cli(["--agent-dir", agentDir, "--workspace", ws, ...args], { env });
		expect((await inWs("reindex")).code).toBe(0);
		const status = await inWs("status");
		expect(status.stdout).toMatch(/"redactSecrets" false may be set only in your own event-index\.json/);
		expect((await run("search", "--json", "--no-sync", "--", FAKE.github)).stdout).not.toContain(FAKE.github);
	});
});
