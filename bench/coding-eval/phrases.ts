/**
 * How people name past work when they ask about it weeks later: a few salient words of the request rather than its
 * sentences, identifiers said as words (`getContextData` → "get context data", `api-types.ts` → "api types"), a
 * command by what it runs ("the pytest run"), an error by its name ("the module not found error").
 */
import { STOPWORDS } from "../natural/words.js";

/** Words that say what kind of request it was, not what it was about. */
const FILLER = new Set(
	(
		"please pls make sure want need like let lets help implement update fix fixed fixing error errors issue issues add " +
		"adding create change changes use using work working get getting code file files thing things way ok okay now also " +
		"see look check run running new just currently able try trying should would could think know going good great " +
		"thanks thank hi hey yes sure well still done time following below above give given etc todo read md following"
	).split(" "),
);

/** An identifier or path said as words: split at case changes, `_`, `-`, `.` and `/`, extensions and dirs dropped. */
export function spoken(token: string): string {
	const base = token.includes("/") ? (token.split("/").filter(Boolean).pop() ?? token) : token;
	const noExt = base.replace(/\.(ts|tsx|js|jsx|mjs|py|md|mdc|json|toml|ya?ml|rs|go|css|html|vue|sh|txt)$/i, "");
	return noExt
		.replace(/([a-z0-9])([A-Z])/g, "$1 $2")
		.replace(/([A-Z]{2,})([A-Z][a-z])/g, "$1 $2")
		.replace(/[^A-Za-z0-9]+/g, " ")
		.replace(/\s+/g, " ")
		.trim()
		.toLowerCase();
}

/** Words nobody repeats when recalling the work. */
const UNSAID = new Set("fuck fucking fucked shit damn wtf lol".split(" "));

/** Whether a token is worth naming a topic by. */
function salient(token: string): boolean {
	const w = token.toLowerCase();
	if (w.length < 3 || STOPWORDS.has(w) || FILLER.has(w) || UNSAID.has(w) || /['’<>\\]/.test(w)) return false;
	if (/^https?/.test(w) || /^\d/.test(w) || /^[0-9a-f]{7,}$/.test(w) || /\d{3,}|@/.test(w)) return false;
	return spoken(token).split(" ").length <= 3;
}

/** Document frequencies of spoken words over a list of texts (one count per text). */
export function documentFrequencies(texts: readonly string[]): Map<string, number> {
	const df = new Map<string, number>();
	for (const t of texts) for (const w of new Set(spoken(t).split(" "))) df.set(w, (df.get(w) ?? 0) + 1);
	return df;
}

/** Runs of consecutive salient tokens in a text (a function word or punctuation ends a run): noun-phrase-like chunks. */
function runsOf(text: string, known: (word: string) => boolean): string[][] {
	const runs: string[][] = [];
	let run: string[] = [];
	for (const piece of text.split(/([\s,;:!?()"]+|\.\s)/)) {
		const token = piece.replace(/^[`'*]+|[`'*.]+$/g, "");
		const usable = token !== "" && /[A-Za-z]/.test(token) && !/\s/.test(token) && !/[a-z]\d|\d[a-z]/i.test(token);
		if (usable && salient(token) && spoken(token).split(" ").every(known)) run.push(token);
		else if (piece.trim() !== "" || /[,;:!?()".]/.test(piece)) {
			if (run.length > 0) runs.push(run);
			run = [];
		}
	}
	if (run.length > 0) runs.push(run);
	return runs;
}

/**
 * A short topic for a text, as people recall it: its most distinctive run of content words (rarer words by `df`
 * count more, and words of the work that followed, `worked`, more still; a word the corpus does not repeat, `known`
 * false, is a typo or a one-off and ends a run), cut to `max` words, said as words, and sometimes a second run joined
 * by "and". Only the opening of the text is read: people
 * recall what a request was about, not its details.
 */
export function topicOf(
	text: string,
	df: ReadonlyMap<string, number>,
	known: (word: string) => boolean,
	max: number,
	second = false,
	worked: ReadonlySet<string> = new Set(),
): string {
	// The first paragraph, without pasted code or logs: what the request was about.
	const opening = (text.replace(/```[\s\S]*?```/g, " ").split(/\n\s*\n/)[0] ?? "").slice(0, 260);
	// What the work was about (words the agent's prose and calls repeat) is what people remember a request by.
	const weight = (t: string) => {
		const words = spoken(t).split(" ");
		const rarity = Math.max(...words.map((w) => 1 / Math.log(2 + (df.get(w) ?? 1))));
		return rarity * (words.some((w) => worked.has(w)) ? 1.5 : 0.6);
	};
	const scored = runsOf(opening, known)
		.map((run) => {
			let best = run.slice(0, max);
			for (let i = 0; i + max <= run.length; i++) {
				const cut = run.slice(i, i + max);
				if (cut.reduce((s, t) => s + weight(t), 0) > best.reduce((s, t) => s + weight(t), 0)) best = cut;
			}
			return { words: best, score: best.reduce((s, t) => s + weight(t), 0) };
		})
		.sort((a, b) => b.score - a.score);
	const say = (words: string[]) => words.map(spoken).join(" ").trim();
	// A run of common words only ("went wrong", "main") names nothing; the caller falls back to the title.
	if (!scored[0] || scored[0].score < 0.8) return "";
	const first = say(scored[0].words);
	// Mostly numbers and letters ("z 10 top 0 left 0") is markup or data, not a topic.
	const words = first.split(" ");
	if (words.filter((w) => w.length <= 2).length * 2 >= words.length) return "";
	const next = scored.find((r, i) => i > 0 && r.words.length >= 2 && r.score > 0.5 * scored[0].score);
	return second && next && first.split(" ").length < 3 ? `${first} and ${say(next.words)}` : first;
}

/** A session title as a topic: "Fixing Changelog Duplicates and References" → "changelog duplicates and references". */
export function titleTopic(title: string): string {
	return title
		.replace(
			/^(fixing|fix|implementing|implement|adding|add|creating|create|updating|update|improving|improve|enhancing|enhance|debugging|debug|refactoring|refactor|resolving|resolve|troubleshooting|setting up|understanding|reviewing|review|integrating|exploring|investigating|analyzing|addressing|handling|checking|running|testing)\s+/i,
			"",
		)
		.replace(/[`'"]/g, "")
		.trim()
		.toLowerCase();
}

/** The name of the error in a command's output or a pasted trace ("type error", "ts2345", "3 failed"), if any. */
export function errorName(output: string): string | undefined {
	const named = output.match(/\b([A-Z][A-Za-z]*(Error|Exception))\b/);
	if (named) return spoken(named[1]);
	const code = output.match(/\b(error TS\d+|E\d{4}|[A-Z]{2,4}\d{3})\b/);
	if (code) return code[1].toLowerCase();
	const failed = output.match(/\b(\d+) (failed|failing)\b/);
	if (failed) return `${failed[1]} failing tests`;
	if (/command not found/.test(output)) return "command not found";
	if (/No such file or directory/.test(output)) return "no such file";
	return undefined;
}

/** A command as people recall it: its program and subcommand, paths said by their base names. */
export function commandPhrase(command: string): string {
	const first = command.split(/&&|\|\||;|\|/)[0].trim();
	const words = first
		.split(/\s+/)
		.filter(
			(w) =>
				/^[\w./:-]+$/.test(w) && !w.startsWith("-") && !/^(cd|sudo|npx|bunx|uv|poetry|python3?|run|exec|echo)$/.test(w),
		);
	return words
		.slice(0, 2)
		.map((w) => spoken(w))
		.filter((w) => w !== "")
		.join(" ")
		.split(" ")
		.slice(0, 3)
		.join(" ");
}
