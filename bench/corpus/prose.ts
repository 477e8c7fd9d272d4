/** Word banks and sentence builders for user, assistant, thinking and summary text (seeded, no real PII). */
import type { Rng } from "./prng.js";

const VERBS = [
	"fix",
	"refactor",
	"explain",
	"add tests for",
	"rename",
	"speed up",
	"document",
	"debug",
	"review",
	"split",
];
const THINGS = [
	"the parser",
	"the retry logic",
	"the cache layer",
	"the CLI flags",
	"the session loader",
	"the build script",
	"the migration",
	"the config resolver",
	"the websocket client",
	"the rate limiter",
	"the error handling",
	"the snapshot tests",
];
const OPENERS = ["Can you", "Please", "Could you", "I need you to", "Let's", "Help me", "Quick one: can you", "Next,"];
const REASONS = [
	"because CI keeps failing on it",
	"since the last release broke it",
	"so that the tests pass again",
	"before we cut the release",
	"the logs show a timeout there",
	"it allocates far too much memory",
	"users report a crash on startup",
	"the output is not deterministic",
];
const ASSISTANT_LEADS = [
	"I'll start by reading",
	"Let me look at",
	"First I'll check",
	"I found the problem in",
	"The failing case comes from",
	"I updated",
	"Here is what changed in",
	"Looking at",
];
const ASSISTANT_TAILS = [
	"The root cause is an off-by-one in the loop bound.",
	"The tests pass now and the linter is clean.",
	"I kept the public API unchanged.",
	"This avoids the extra allocation on the hot path.",
	"I also added a regression test for the empty input case.",
	"The remaining warning is unrelated to this change.",
	"Next I would suggest splitting this module in two.",
	"Let me know if you want me to commit this.",
];
const THOUGHTS = [
	"The user wants a minimal change, so I should not touch the public interface.",
	"I need to check whether this function is called from anywhere else before renaming it.",
	"The error suggests the file handle is closed early; maybe the promise is not awaited.",
	"Reading the whole directory would be slow; grep for the symbol first.",
	"There might be two code paths here, one for the legacy format and one for the new one.",
	"If I change the default, the snapshot tests will need updating as well.",
];
/** CJK sentences (Chinese, Japanese, Korean) used in a share of user and assistant messages. */
const CJK_SENTENCES = [
	"请帮我检查一下这个函数为什么会超时",
	"这个测试在本地通过了，但是在持续集成上失败了",
	"日志里有很多重复的警告信息，能不能去掉",
	"把配置文件的读取逻辑改成异步的",
	"データベースの接続がタイムアウトします",
	"このエラーメッセージの意味を教えてください",
	"ビルドスクリプトを簡単にしてほしい",
	"빌드가 실패하는 이유를 찾아 주세요",
	"이 함수의 테스트를 추가해 주세요",
	"内存占用太高了，帮我看看哪里有泄漏",
];
/** Emoji sprinkled into messages and session names. */
const EMOJI = ["🚀", "✅", "🐛", "🔥", "🤔", "📦", "⚠️", "🎉", "👀", "🦀", "🧪", "💾"];

/** A user request about a file or symbol. */
export function userRequest(rng: Rng, subject: string): string {
	let text = `${rng.pick(OPENERS)} ${rng.pick(VERBS)} ${rng.pick(THINGS)} in ${subject}, ${rng.pick(REASONS)}.`;
	if (rng.chance(0.3)) text += ` Also look at ${rng.pick(THINGS)}.`;
	if (rng.chance(0.08)) text += ` ${rng.pick(EMOJI)}`;
	if (rng.chance(0.15))
		text += `\n\n\`\`\`\n${subject}: error TS2345: Argument of type 'string' is not assignable\n\`\`\``;
	return text;
}

/** A CJK user request (optionally with extra words appended). */
export function cjkRequest(rng: Rng, extra = ""): string {
	const base = `${rng.pick(CJK_SENTENCES)}${extra}。${rng.chance(0.5) ? rng.pick(CJK_SENTENCES) : ""}`;
	return rng.chance(0.3) ? `${base} ${rng.pick(EMOJI)}` : base;
}

/** One to four sentences of assistant prose about a subject. */
export function assistantProse(rng: Rng, subject: string): string {
	const parts = [`${rng.pick(ASSISTANT_LEADS)} ${subject}.`];
	const n = rng.range(0, 3);
	for (let i = 0; i < n; i++) parts.push(rng.pick(ASSISTANT_TAILS));
	if (rng.chance(0.05)) parts.push(rng.pick(CJK_SENTENCES));
	if (rng.chance(0.05)) parts.push(rng.pick(EMOJI));
	return parts.join(" ");
}

/** A reasoning paragraph (thinking block text). */
export function thought(rng: Rng): string {
	const n = rng.range(1, 4);
	const parts: string[] = [];
	for (let i = 0; i < n; i++) parts.push(rng.pick(THOUGHTS));
	return parts.join(" ");
}

/** A compaction or branch summary in Pi's markdown layout. */
export function summary(rng: Rng, files: string[]): string {
	const lines = ["## Goal", `${rng.pick(VERBS)} ${rng.pick(THINGS)} ${rng.pick(REASONS)}.`, "", "## Progress"];
	const n = rng.range(2, 8);
	for (let i = 0; i < n; i++) lines.push(`- [${rng.chance(0.6) ? "x" : " "}] ${rng.pick(ASSISTANT_TAILS)}`);
	lines.push("", "## Key files");
	for (const f of files.slice(0, 6)) lines.push(`- ${f}`);
	lines.push("", "## Next steps", `- ${rng.pick(VERBS)} ${rng.pick(THINGS)}`);
	return lines.join("\n");
}

const ADJ = ["amber", "brisk", "cobalt", "dusty", "eager", "frosty", "gentle", "hollow", "ivory", "jolly", "keen"];
const NOUN = ["falcon", "harbor", "ledger", "meadow", "nimbus", "orchid", "pylon", "quarry", "ripple", "summit"];

/** A project-ish name such as `cobalt-ledger`. */
export function projectName(rng: Rng): string {
	return `${rng.pick(ADJ)}-${rng.pick(NOUN)}`;
}

/** A session name (sometimes with CJK or emoji). */
export function sessionName(rng: Rng): string {
	const base = `${rng.pick(VERBS)} ${rng.pick(THINGS)}`;
	if (rng.chance(0.1)) return `${base} ${rng.pick(EMOJI)}`;
	if (rng.chance(0.08)) return rng.pick(CJK_SENTENCES).slice(0, 10);
	return base;
}
