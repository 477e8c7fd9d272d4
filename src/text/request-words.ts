/**
 * Request words: what a question says about the asking, not about the work asked after. "remind me what the repro
 * printed", "pull up that task about X", "find the session where I asked about X": the answer holds X, never
 * "remind", "pull" or "session". Such words are optional, like function words (stopwords.ts): they must not
 * decide whether an event matches, nor be listed as missing from a hit. Pure, no I/O. docs/natural-phrasing.md.
 */

/** Words that only ever address the assistant or the asker's memory, wherever they stand. */
const ALWAYS = new Set([
	"remind",
	"recall",
	"forget",
	"forgot",
	"sorry",
	"hey",
	"please",
	"exactly",
	"again",
	"earlier",
	"regarding",
	"ask",
	"asked",
	"asking",
]);

/**
 * Verbs that ask the assistant to retrieve something when they open a clause ("find the edit …", "can you dig up
 * …", "…, find it"). Elsewhere they are content ("did the query find duplicated days").
 */
const RETRIEVE = new Set(["find", "show", "pull", "dig", "look", "tell", "fetch", "bring", "give"]);

/** Words after which a retrieval verb still opens the clause: "can you find", "please show". */
const CLAUSE_OPENERS = new Set(["you", "please", "and", "then", "so", "now", "just"]);

/** The conversation itself, when a clause says which one: "the session where …", "the chat in which …". */
const CONVERSATION = new Set(["session", "conversation", "chat", "thread"]);
const CONVERSATION_NEXT = new Set(["where", "when", "in", "that", "which", "about", "with"]);

/** Segments (as typed, e.g. "me,") whose punctuation ends a clause. */
const CLAUSE_END = /[,:;?!.]$/u;

/**
 * Which of the query's words are request words. `segments` are the query's whitespace-separated pieces as typed;
 * `words` the same pieces lowercased without surrounding punctuation (index for index).
 */
export function requestWords(segments: readonly string[], words: readonly string[]): Set<number> {
	const out = new Set<number>();
	words.forEach((word, i) => {
		if (ALWAYS.has(word)) out.add(i);
		else if (RETRIEVE.has(word) && opensClause(segments, words, i)) out.add(i);
		else if (CONVERSATION.has(word) && CONVERSATION_NEXT.has(words[i + 1] ?? "")) out.add(i);
	});
	return out;
}

/** True when word `i` opens the query or a clause (after `,` `:` `?`, or after "can you", "please" …). */
function opensClause(segments: readonly string[], words: readonly string[], i: number): boolean {
	return i === 0 || CLAUSE_END.test(segments[i - 1]) || CLAUSE_OPENERS.has(words[i - 1]);
}

/** The kind of event a question asks for, where its words say (the relaxed and full tiers favour it: intent.ts). */
export type AskedKind = "output" | "failure" | "edit" | "test" | "request" | "decision" | "abandon";

/** Words that say what kind of event is wanted; the first one in the question decides. */
const KIND_CUES: ReadonlyMap<string, AskedKind> = new Map([
	...["print", "printed", "output"].map((w) => [w, "output"] as const),
	...["error", "errors", "traceback", "trace", "failure"].map((w) => [w, "failure"] as const),
	...["fix", "fixed", "change", "changed", "changes", "edit", "edited", "edits", "diff", "patch", "file", "files"].map(
		(w) => [w, "edit"] as const,
	),
	...["test", "tests"].map((w) => [w, "test"] as const),
	...["task", "ask", "asked", "request", "requested"].map((w) => [w, "request"] as const),
	...["decide", "decided", "decision", "settle", "settled", "chose", "choose", "agree", "agreed", "conclude"].map(
		(w) => [w, "decision"] as const,
	),
	...["try", "tried", "abandon", "abandoned", "attempt", "approach", "dropped"].map((w) => [w, "abandon"] as const),
]);

/**
 * Words that make "test" ask for a test run ("which tests did we run", "did the tests pass", "what did the tests
 * say", "how did they come out"), not a test's code ("which test was flaky").
 */
const RUN_WORDS = new Set([
	"run",
	"ran",
	"pass",
	"passed",
	"passing",
	"green",
	"result",
	"results",
	"command",
	"output",
	"say",
	"said",
	"says",
	"show",
	"showed",
	"came",
	"report",
	"reported",
]);

/**
 * Word pairs that ask what we gave up ("what didn't work for …", "what did we back out of"), wherever they stand.
 * Not "give up": its subject is as often another's ("why did stripe give up waiting for our webhook").
 */
const GIVE_UP_PAIRS: ReadonlySet<string> = new Set([
	"didn't work",
	"not work",
	"back out",
	"backed out",
	"pan out",
	"changing tack",
	"changed tack",
]);

/**
 * True for a word that makes the cue word before it a name: a number ("task 27", "test 3", "step 2") names one task,
 * test or step, it does not ask for that kind of event ("after the conflicts in task 27, did the tests pass?" asks
 * for a test run).
 */
function namesOne(next: string | undefined): boolean {
	return next !== undefined && /^#?\d/u.test(next);
}

/**
 * The kind of event the question asks for: "abandon" when two of its words say so (GIVE_UP_PAIRS; `words`: all of
 * them, lowercased, in query order), else that of its first cue word (KIND_CUES; `content`: the words that are not
 * function words) that a number does not follow, if any. "test" asks for a run only with a run word beside it.
 */
export function askedKind(content: readonly string[], words: readonly string[] = content): AskedKind | undefined {
	if (words.some((w, i) => GIVE_UP_PAIRS.has(`${w} ${words[i + 1]}`))) return "abandon";
	for (const [i, w] of content.entries()) {
		if (namesOne(content[i + 1])) continue;
		const kind = KIND_CUES.get(w);
		if (kind === "test" && !content.some((x) => RUN_WORDS.has(x))) continue;
		if (kind !== undefined) return kind;
	}
	return undefined;
}

/**
 * Words that name the asking, not what was said: an output never says "printed", a log never says "say" ("what did
 * the error log say about …"). In a question with an intent ("what did the repro print for …") they are optional;
 * elsewhere ("print statement debug", "say hello command") content.
 */
const ACT_WORDS = new Set(["print", "printed", "say", "said", "says"]);

/** True for a word that is optional once the question states its intent (ACT_WORDS). */
export function namesTheAsking(word: string): boolean {
	return ACT_WORDS.has(word);
}
