/**
 * The ranking evaluation set: six sessions that real Pi writes (faux model, real `read` and `bash` tools over real
 * files of node_modules: Pi's own docs and two libraries' sources), and the queries with the one event each should
 * find. Every statement query's words also occur, scattered, in long tool outputs of several sessions (the builder
 * checks it); the identifier queries' words occur only in one file read. Small and committed; the sessions are
 * generated at run time.
 */

/** A file under node_modules, read by a real tool. */
type ModulePath = string;

/** One prompt → one real tool call → one short answer. Keys name the entries queries target. */
interface EvalTurn {
	prompt: string;
	promptKey?: string;
	/** `read` of a file, or a `bash` command line whose `{nm}` is replaced by the node_modules path. */
	tool: { read: ModulePath } | { bash: string };
	resultKey?: string;
	answer: string;
	answerKey?: string;
}

/** One session of the set; the tree operations run after the turns, through Pi's SessionManager. */
export interface EvalSession {
	/** Workspace directory name (cwd is <root>/ws/<name>). */
	name: string;
	turns: EvalTurn[];
	/** A `/compact`-style compaction keeping the last turn, with this summary. */
	compaction?: { summary: string; key: string };
	/** A `/tree` branch summary from the first turn's answer. */
	branchSummary?: { summary: string; key: string };
	sessionName?: { name: string; key: string };
}

/** A query and the key of the event it should find first. */
export interface EvalQuery {
	query: string;
	target: string;
	/**
	 * statement: a short conversational event; tool-output: a tool result is the real answer (an identifier only
	 * one file read contains, or common words that only one file read holds side by side).
	 */
	shape: "statement" | "tool-output";
}

const DOCS = "@mariozechner/pi-coding-agent/docs";

export const EVAL_SESSIONS: readonly EvalSession[] = [
	{
		name: "providers",
		turns: [
			{
				prompt: "Register the custom provider and take the api key from the environment.",
				promptKey: "customProvider",
				tool: { read: `${DOCS}/custom-provider.md` },
				answer: "Done: the default model now uses thinking level high.",
				answerKey: "thinkingLevel",
			},
			{
				prompt: "Where does the session file record each branch?",
				promptKey: "sessionBranch",
				tool: { read: `${DOCS}/session-format.md` },
				answer: "Compaction keeps the summary under the tokens you allow.",
				answerKey: "compactionTokens",
			},
			{
				prompt: "check the sdk guide too",
				tool: { read: `${DOCS}/sdk.md` },
				answer: "Read it.",
			},
		],
		sessionName: { name: "Scoped model cycling", key: "sessionNameCycling" },
	},
	{
		name: "extensions",
		turns: [
			{
				prompt: "make sure the extension tool is registered before startup",
				promptKey: "extensionTool",
				tool: { read: `${DOCS}/extensions.md` },
				answer: "The theme colors look wrong in this terminal.",
				answerKey: "themeColors",
			},
			{
				prompt: "add a keybinding to open the editor",
				promptKey: "keybindingEditor",
				tool: { bash: `cat {nm}/${DOCS}/keybindings.md {nm}/${DOCS}/tui.md` },
				answer: "Use rpc mode with json lines on stdin.",
				answerKey: "rpcJson",
			},
			{
				prompt: "how does the lock file work?",
				tool: { read: "proper-lockfile/lib/lockfile.js" },
				resultKey: "lockfileSource",
				answer: "It writes a directory next to the file.",
			},
		],
	},
	{
		name: "packages",
		turns: [
			{
				prompt: "ship the skills and prompt templates in one package",
				promptKey: "skillsTemplates",
				tool: { read: `${DOCS}/packages.md` },
				answer: "You can install the package straight from git.",
				answerKey: "installGit",
			},
			{
				prompt: "fork the session from that point in the tree",
				promptKey: "forkTree",
				tool: { read: "@mariozechner/pi-coding-agent/README.md" },
				answer: "Project settings override the global ones.",
				answerKey: "settingsGlobal",
			},
			{
				prompt: "and the rpc docs",
				tool: { read: `${DOCS}/rpc.md` },
				answer: "Read them.",
			},
		],
		compaction: { summary: "## Goal\nExport the conversation as html for the review.", key: "compactionHtml" },
	},
	{
		name: "context",
		turns: [
			{
				prompt: "load the context files that agents read at startup",
				promptKey: "contextFiles",
				tool: { read: `${DOCS}/usage.md` },
				answer: "On a provider error it will retry three times.",
				answerKey: "retryError",
			},
			{
				prompt: "paste an image from the clipboard",
				promptKey: "imageClipboard",
				tool: { bash: `grep -rn -i -E "session|model|message|tool" {nm}/${DOCS} | head -600` },
				answer: "Escape will abort the streaming message.",
				answerKey: "abortStreaming",
			},
			{
				prompt: "what does the table helper do?",
				tool: { read: "better-sqlite3/lib/methods/table.js" },
				resultKey: "tableSource",
				answer: "It validates virtual table definitions.",
			},
		],
	},
	{
		name: "steering",
		turns: [
			{
				prompt: "queue steering messages while the agent works",
				promptKey: "steeringQueue",
				tool: { read: `${DOCS}/extensions.md` },
				answer: "Each label is its own entry in the file.",
				answerKey: "labelEntry",
			},
			{
				prompt: "look at the settings reference",
				tool: { bash: `cat {nm}/${DOCS}/settings.md {nm}/${DOCS}/compaction.md {nm}/${DOCS}/sessions.md` },
				answer: "Read it.",
			},
			{
				prompt: "how are aggregates defined?",
				tool: { read: "better-sqlite3/lib/methods/aggregate.js" },
				resultKey: "aggregateSource",
				answer: "Through a small wrapper.",
			},
		],
		sessionName: { name: "Fixing tmux terminal keys", key: "sessionNameTmux" },
	},
	{
		name: "terminal",
		turns: [
			{
				prompt: "show me the themes guide",
				tool: { read: `${DOCS}/themes.md` },
				answer: "Read it.",
			},
			{
				prompt: "now the models and providers docs",
				tool: { bash: `cat {nm}/${DOCS}/models.md {nm}/${DOCS}/providers.md {nm}/${DOCS}/terminal-setup.md` },
				answer: "Read them.",
			},
			{
				prompt: "and the fs adapter of the lock library",
				tool: { bash: "cat {nm}/proper-lockfile/lib/adapter.js {nm}/proper-lockfile/README.md" },
				resultKey: "adapterSource",
				answer: "Read it.",
			},
		],
		branchSummary: {
			summary: "Tried reading the bash output when it was truncated; abandoned that path.",
			key: "branchTruncated",
		},
	},
];

/** Long real files the background sessions read: most of the set's query words are scattered through them. */
const BACKGROUND_FILES: readonly ModulePath[] = [
	"@mariozechner/pi-coding-agent/README.md",
	`${DOCS}/extensions.md`,
	`${DOCS}/sdk.md`,
	`${DOCS}/rpc.md`,
	"@mariozechner/pi-coding-agent/CHANGELOG.md",
	`${DOCS}/tui.md`,
	`${DOCS}/usage.md`,
	`${DOCS}/compaction.md`,
	`${DOCS}/custom-provider.md`,
	`${DOCS}/settings.md`,
	`${DOCS}/models.md`,
	`${DOCS}/session-format.md`,
	`${DOCS}/keybindings.md`,
	`${DOCS}/packages.md`,
	`${DOCS}/skills.md`,
	`${DOCS}/themes.md`,
];

/** Words grepped across the docs by the background sessions (real `grep -rn` output, hundreds of lines). */
const BACKGROUND_GREPS: readonly string[] = ["provider|model", "session|branch", "tool|extension", "key|terminal"];

/**
 * History without any target: sessions that only read long files and grep the docs, the bulk of real Pi history.
 * Their prompts and answers share no query's words.
 */
export function backgroundSessions(count = 10, turns = 4): EvalSession[] {
	return Array.from({ length: count }, (_, i) => ({
		name: `background-${i}`,
		turns: Array.from({ length: turns }, (_, k): EvalTurn => {
			const n = i * turns + k;
			const tool =
				k === turns - 1
					? { bash: `grep -rn -i -E "${BACKGROUND_GREPS[i % BACKGROUND_GREPS.length]}" {nm}/${DOCS} | head -800` }
					: n % 2 === 0
						? { read: BACKGROUND_FILES[n % BACKGROUND_FILES.length] }
						: { bash: `cat {nm}/${BACKGROUND_FILES[n % BACKGROUND_FILES.length]}` };
			return { prompt: `next one (${i}.${k})`, tool, answer: "Read it." };
		}),
	}));
}

export const EVAL_QUERIES: readonly EvalQuery[] = [
	{ query: "custom provider api key", target: "customProvider", shape: "statement" },
	{ query: "default model thinking level", target: "thinkingLevel", shape: "statement" },
	{ query: "session file branch", target: "sessionBranch", shape: "statement" },
	{ query: "compaction summary tokens", target: "compactionTokens", shape: "statement" },
	{ query: "extension tool registered", target: "extensionTool", shape: "statement" },
	{ query: "theme colors terminal", target: "themeColors", shape: "statement" },
	{ query: "keybinding editor", target: "keybindingEditor", shape: "statement" },
	{ query: "rpc mode json", target: "rpcJson", shape: "statement" },
	{ query: "skills prompt templates", target: "skillsTemplates", shape: "statement" },
	{ query: "package install git", target: "installGit", shape: "statement" },
	{ query: "fork session tree", target: "forkTree", shape: "statement" },
	{ query: "settings project global", target: "settingsGlobal", shape: "statement" },
	{ query: "context files agents", target: "contextFiles", shape: "statement" },
	{ query: "retry error provider", target: "retryError", shape: "statement" },
	{ query: "image clipboard paste", target: "imageClipboard", shape: "statement" },
	{ query: "abort streaming message", target: "abortStreaming", shape: "statement" },
	{ query: "queue steering messages", target: "steeringQueue", shape: "statement" },
	{ query: "label entry", target: "labelEntry", shape: "statement" },
	{ query: "export html", target: "compactionHtml", shape: "statement" },
	{ query: "bash output truncated", target: "branchTruncated", shape: "statement" },
	{ query: "model cycling scoped", target: "sessionNameCycling", shape: "statement" },
	{ query: "tmux terminal keys", target: "sessionNameTmux", shape: "statement" },
	{ query: "setLockAsCompromised", target: "lockfileSource", shape: "tool-output" },
	{ query: "isLockStale", target: "lockfileSource", shape: "tool-output" },
	{ query: "parseTableDefinition", target: "tableSource", shape: "tool-output" },
	{ query: "defineAggregate", target: "aggregateSource", shape: "tool-output" },
	{ query: "createSyncFs", target: "adapterSource", shape: "tool-output" },
	// Common words, scattered through long docs, but adjacent (again and again) in one source file read.
	{ query: "table definition", target: "tableSource", shape: "tool-output" },
	{ query: "return callback", target: "lockfileSource", shape: "tool-output" },
];
