/**
 * Real Pi in a real terminal (tmux): `/event-index status` and `/event-index reindex` are typed with ONE Enter each
 * and their answers appear (a reindex of an up-to-date index says so); a tool call row shows the query as typed,
 * its filters and the top hits. The test waits for screen content, never for a fixed time.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTENSION, e2eDirs } from "../helpers/e2e.js";
import { HARNESS_CACHE_DIR, PI_HOSTS, piEnv, REPO_ROOT } from "../helpers/pi-cli.js";

describe.each(PI_HOSTS)("$name", (host) => {
	const dirs = e2eDirs("pei-terminal-");
	/** A private tmux server: nothing else's sessions are seen or touched. */
	const SOCKET = `pei-terminal-${process.pid}-${host.label}`;
	const SCRIPT = join(REPO_ROOT, "test", "e2e", "scripts", "tmux-search.mjs");

	function tmux(...args: string[]): string {
		return execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
	}

	/** The visible screen plus scrollback, wrapped lines joined. */
	function screen(): string {
		return tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", "pi")
			.split("\n")
			.map((line) => line.trimEnd())
			.join("\n");
	}

	/** The editor line: the text between the last two horizontal rules. */
	function editorText(text: string): string {
		const rules = text.split("\n").flatMap((line, i) => (/^─{20,}$/.test(line.trim()) ? [i] : []));
		if (rules.length < 2) return "";
		return text
			.split("\n")
			.slice((rules.at(-2) ?? -1) + 1, rules.at(-1))
			.join("\n")
			.trim();
	}

	/** Polls the screen until `ready` holds (a generous deadline; the failure shows the screen). */
	async function waitFor(ready: (text: string) => boolean, what: string, ms = 45_000): Promise<string> {
		const deadline = Date.now() + ms;
		let text = "";
		while (Date.now() < deadline) {
			text = screen();
			if (ready(text)) return text;
			await new Promise((r) => setTimeout(r, 100));
		}
		throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
	}

	/** Types `text` and presses Enter once. */
	function type(text: string): void {
		tmux("send-keys", "-t", "pi", "-l", text);
		tmux("send-keys", "-t", "pi", "Enter");
	}

	beforeAll(() => {
		const sessions = join(dirs.agentDir, "sessions", "--home-dev-project--");
		mkdirSync(sessions, { recursive: true });
		const fixtures = join(REPO_ROOT, "fixtures", "pi-0.73.1");
		for (const f of readdirSync(fixtures).filter((n) => n.endsWith(".jsonl")))
			copyFileSync(join(fixtures, f), join(sessions, f));
		// The fixtures ran in /home/dev/project: let this workspace read them.
		writeFileSync(join(dirs.agentDir, "event-index.json"), JSON.stringify({ authorization: { allRoots: true } }));
		const tmp = join(HARNESS_CACHE_DIR, `tmp-terminal-${host.label}`);
		mkdirSync(tmp, { recursive: true });
		const env = piEnv(dirs.agentDir, tmp, { PI_FAUX_SCRIPT: SCRIPT, TERM: "xterm-256color" });
		const vars = Object.entries(env).flatMap(([k, v]) => (v === undefined || k.includes("=") ? [] : [`${k}=${v}`]));
		tmux(
			"new-session",
			"-d",
			"-s",
			"pi",
			"-x",
			"120",
			"-y",
			"50",
			"-c",
			dirs.cwd,
			"env",
			"-i",
			...vars,
			...host.command,
			"--no-extensions",
			"-e",
			host.faux,
			"-e",
			EXTENSION,
			"--provider",
			"faux",
			"--model",
			"faux-1",
		);
	});

	afterAll(() => {
		try {
			tmux("kill-server");
		} catch {
			// Already gone.
		}
		rmSync(dirs.tmp, { recursive: true, force: true });
	});

	describe("Pi in a terminal", () => {
		it("/event-index status and /event-index reindex each submit with one Enter", { timeout: 120_000 }, async () => {
			await waitFor((t) => t.includes("faux-1") && t.includes("extension.js"), "Pi's editor");
			type("/event-index status");
			let text = await waitFor((t) => /^ *coverage: /m.test(t), "the status");
			expect(text).toMatch(/^ *event index: .*event-index$/m);
			expect(editorText(text)).toBe("");
			// Once the background catch-up is complete, a reindex has nothing to do and says so.
			// Pi replaces a status message by the next one: ask again until the answer says complete.
			const complete = /coverage: complete: 9 of 9 session files indexed/;
			const deadline = Date.now() + 60_000;
			while (!complete.test(text)) {
				if (Date.now() > deadline) throw new Error(`coverage never became complete; screen:\n${text}`);
				type("/event-index status");
				text = await waitFor((t) => complete.test(t), "a newer status", 5_000).catch(() => screen());
			}
			type("/event-index reindex");
			text = await waitFor((t) => t.includes("catch-up done"), "the reindex answer");
			expect(text).toContain(
				"event index: catch-up done: already up to date (no session file is new or changed since it was indexed)",
			);
			expect(text).not.toContain("rebuild");
			expect(editorText(text)).toBe("");
		});

		it("a tool row shows the query as typed with its filter, and the top hits", { timeout: 120_000 }, async () => {
			type("look it up");
			const text = await waitFor((t) => /^ *searched$/m.test(t), "the model's answer");
			expect(text).toContain('event_search "found 0" hello time=2020-01-01..');
			expect(text).not.toContain('\\"found 0\\"');
			expect(text).toMatch(/^ *\d+ hits?\b/m);
			expect(text).toMatch(/^ {2,}\d{4}-\d{2}-\d{2} \d{2}:\d{2} \w+.*found 0 for hello/m);
		});
	});
});
