/**
 * Paths a shell command names (file evidence of a bash call or a `!` command, docs/data-model.md): the words of the
 * command, split the way a shell splits them (quotes, backslashes, operators), that look like a file: they hold a
 * `/` or end in an extension (`retry.ts`, `tests/test_x.py`). Heuristic and pure: a word with spaces, globs,
 * variables or parentheses is not a path, a heredoc's body is skipped, `file:line` and pytest's `file::test` keep
 * the file, and `--out=dist/x.js` or `VAR=path` keep the value.
 */

/** Words longer than this are not paths (a pasted blob, a base64 argument). */
const MAX_WORD = 1024;

/** Paths kept per command at most. */
const MAX_PATHS = 64;

/** Characters a shell treats as operators between words. */
const OPERATORS = new Set([";", "|", "&", "<", ">", "(", ")", "`"]);

/** A word holding one of these is code, a glob, a variable or a quoted blob, not a file. */
const NOT_A_PATH = /[\s$*?[\]{}()`'"<>|;&=,~!#^%\\]/;

/** A base name with an extension (the extension starts with a letter, so `1.5` and `v1.2.3` are not files). */
const WITH_EXTENSION = /^[^.]+(\.[^.]+)*\.[A-Za-z][A-Za-z0-9_-]{0,9}$|^\.[A-Za-z][^/]*$/;

/** The shell words of `command`, with each heredoc's body left out. */
function shellWords(command: string): string[] {
	const words: string[] = [];
	let word = "";
	let quoted = false;
	let heredoc: string | undefined;
	const end = () => {
		if (word !== "" || quoted) words.push(word);
		word = "";
		quoted = false;
	};
	for (let i = 0; i < command.length; i++) {
		const c = command[i] as string;
		if (c === "'") {
			const close = command.indexOf("'", i + 1);
			const stop = close < 0 ? command.length : close;
			word += command.slice(i + 1, stop);
			quoted = true;
			i = stop;
		} else if (c === '"') {
			let j = i + 1;
			for (; j < command.length && command[j] !== '"'; j++) {
				if (command[j] === "\\" && j + 1 < command.length) j++;
				word += command[j];
			}
			quoted = true;
			i = j;
		} else if (c === "\\" && i + 1 < command.length) {
			word += command[++i];
		} else if (c === " " || c === "\t" || c === "\n" || c === "\r") {
			end();
			if (c === "\n" && heredoc !== undefined) {
				i = skipHeredoc(command, i + 1, heredoc) - 1;
				heredoc = undefined;
			}
		} else if (OPERATORS.has(c)) {
			end();
			if (c === "<" && command[i + 1] === "<" && command[i + 2] !== "<") {
				const tag = /^<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/.exec(command.slice(i));
				if (tag) {
					heredoc = tag[2];
					i += tag[0].length - 1;
				}
			}
		} else word += c;
	}
	end();
	return words;
}

/** The offset just past the line that closes a heredoc started at `from` (the end of the command when none does). */
function skipHeredoc(command: string, from: number, tag: string): number {
	let at = from;
	while (at < command.length) {
		const newline = command.indexOf("\n", at);
		const line = command.slice(at, newline < 0 ? command.length : newline);
		if (line.trim() === tag) return newline < 0 ? command.length : newline + 1;
		if (newline < 0) break;
		at = newline + 1;
	}
	return command.length;
}

/** The file a shell word names, if it names one. */
function wordPaths(word: string): string[] {
	let w = word;
	const eq = w.indexOf("=");
	if (eq >= 0) w = w.slice(eq + 1);
	else if (w.startsWith("-")) return [];
	if (w === "" || w.length > MAX_WORD || w.includes("://")) return [];
	// `file:line:col`, pytest's `file::Class::test`, `rev:file`: each part on its own.
	return w.split(":").filter(isFileLike);
}

function isFileLike(part: string): boolean {
	if (part === "" || NOT_A_PATH.test(part) || /^\.{1,2}$/.test(part) || /^\/+$/.test(part)) return false;
	if (part.includes("/")) return !/^[./]+$/.test(part);
	return WITH_EXTENSION.test(part);
}

/** Paths named by a shell command, in order, without repeats. */
export function pathsFromCommand(command: unknown): string[] {
	if (typeof command !== "string" || command === "") return [];
	const out = new Set<string>();
	for (const word of shellWords(command)) {
		for (const p of wordPaths(word)) {
			if (out.size >= MAX_PATHS) return [...out];
			out.add(p);
		}
	}
	return [...out];
}
