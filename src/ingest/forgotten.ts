/**
 * Forgotten sessions (docs/security-secrets-and-forget.md): tombstones in `<indexDir>/forgotten.json`, beside the
 * generations and outside every one of them, so neither a catch-up nor a rebuild (`reindex --full`, a new
 * generation) brings a forgotten session back while its file stays. A session is forgotten by the person (`forget`),
 * by a marker in one of its user messages, or because its workspace matches one of the person's `excludeWorkspaces`
 * globs. The file is only written inside a write transaction of the current generation, which serializes writers
 * across processes; it is replaced whole (temporary file and rename), so a reader sees the old list or the new one.
 */
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandTilde } from "../config/pi-paths.js";

/** File name of the tombstones, in the index directory. */
export const TOMBSTONE_FILE = "forgotten.json";

/** Typed in a user message, it keeps the whole session out of the index for good (until `unforget`). */
export const NO_INDEX_MARKER = "#no-event-index";

/** Why a session is forgotten. */
type ForgetReason = "forget" | "marker" | "excluded";

/** One forgotten session file. */
export interface Tombstone {
	/** The session id of its header, when it was known. */
	sessionId: string | null;
	/** The session file, absolute. */
	path: string;
	/** The session's workspace, when it was known. */
	cwd: string | null;
	/** ISO time it was forgotten. */
	forgottenAt: string;
	reason: ForgetReason;
	/** For `excluded`: the glob that matched (the tombstone lapses when the person's config no longer has it). */
	glob?: string;
}

/** The tombstones in `indexDir` (none when the file does not exist). Throws on a file that is not a tombstone list. */
export function readTombstones(indexDir: string): Tombstone[] {
	let text: string;
	try {
		text = readFileSync(join(indexDir, TOMBSTONE_FILE), "utf8");
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw err;
	}
	const parsed = JSON.parse(text) as { sessions?: unknown };
	if (!Array.isArray(parsed.sessions)) throw new Error(`${TOMBSTONE_FILE} holds no "sessions" list`);
	return parsed.sessions.filter(
		(t): t is Tombstone => typeof t === "object" && t !== null && typeof (t as Tombstone).path === "string",
	);
}

/** Replaces the tombstones of `indexDir` with `list` (a new file renamed over the old; the caller holds a write transaction). */
function writeTombstones(indexDir: string, list: readonly Tombstone[]): void {
	const file = join(indexDir, TOMBSTONE_FILE);
	const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
	// "wx": never through a file (or symlink) someone left at the temporary name.
	writeFileSync(temp, `${JSON.stringify({ version: 1, sessions: list }, null, 1)}\n`, { flag: "wx", mode: 0o600 });
	try {
		renameSync(temp, file);
	} catch (err) {
		unlinkSync(temp);
		throw err;
	}
}

/** `glob` as a regular expression over absolute paths: `**` any run of characters, `*` and `?` within one folder. */
function globPattern(glob: string): RegExp {
	let source = "";
	const g = expandTilde(glob.trim()).replace(/\/+$/, "");
	for (let i = 0; i < g.length; i++) {
		const c = g[i];
		if (c === "*" && g[i + 1] === "*") {
			source += ".*";
			i++;
		} else if (c === "*") source += "[^/]*";
		else if (c === "?") source += "[^/]";
		else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
	}
	return new RegExp(`^${source}$`);
}

/** The first of `globs` matching `cwd` or a folder it lies in (a glob names workspaces and everything inside them). */
export function excludingGlob(globs: readonly string[], cwd: string): string | undefined {
	if (cwd === "") return undefined;
	const folders: string[] = [];
	for (let at = cwd.length; at > 0; at = cwd.lastIndexOf("/", at - 1)) folders.push(cwd.slice(0, at));
	return globs.find((glob) => {
		const pattern = globPattern(glob);
		return folders.some((f) => pattern.test(f));
	});
}

/**
 * What sync and discovery ask: is this file or session forgotten? The tombstone file is read again whenever its
 * size or modification time changes (one stat per question), so a `forget` in another process takes effect at this
 * process's next sync of the file.
 */
export class Forgotten {
	private stamp = "";
	private paths = new Set<string>();
	private ids = new Set<string>();

	constructor(
		readonly indexDir: string,
		/** The person's `excludeWorkspaces` globs. */
		readonly excludeGlobs: readonly string[] = [],
	) {}

	/** True when the file at `path`, or the session `sessionId`, is forgotten. */
	has(path: string, sessionId?: string | null): boolean {
		this.load();
		return this.paths.has(path) || (sessionId != null && this.ids.has(sessionId));
	}

	/**
	 * The forgotten files' paths as of now, for asking about many files at once (discovery, verify): `has` stats the
	 * tombstone file on every question, which for 10,000 discovered files cost a catch-up more than discovery itself.
	 */
	forgottenPaths(): ReadonlySet<string> {
		this.load();
		return this.paths;
	}

	/** How many tombstones are in force. */
	count(): number {
		this.load();
		return this.paths.size;
	}

	/** Records that sessions are forgotten (inside the caller's write transaction); at once visible to `has`. */
	record(...tombstones: Tombstone[]): void {
		const paths = new Set(tombstones.map((t) => t.path));
		this.replace((list) => [...list.filter((t) => !paths.has(t.path)), ...tombstones]);
	}

	/** Removes the tombstones of `paths` (inside the caller's write transaction): `unforget`. */
	drop(paths: readonly string[]): void {
		const gone = new Set(paths);
		this.replace((list) => list.filter((t) => !gone.has(t.path)));
	}

	private replace(change: (list: Tombstone[]) => Tombstone[]): void {
		writeTombstones(this.indexDir, change(this.inForce(readTombstones(this.indexDir))));
		this.stamp = "";
	}

	/** The tombstones in force: all but those of a glob the person's config no longer has. */
	inForce(list: Tombstone[]): Tombstone[] {
		return list.filter((t) => t.reason !== "excluded" || (t.glob !== undefined && this.excludeGlobs.includes(t.glob)));
	}

	private load(): void {
		let stamp: string;
		try {
			// No tombstone file is the common case: answered without an exception.
			const s = statSync(join(this.indexDir, TOMBSTONE_FILE), { throwIfNoEntry: false });
			stamp = s === undefined ? "none" : `${s.ino}:${s.size}:${s.mtimeMs}`;
		} catch {
			stamp = "none";
		}
		if (stamp === this.stamp) return;
		// A damaged file forgets nothing new but is never taken for an empty one: the last list read stays in force.
		let list: Tombstone[];
		try {
			list = this.inForce(readTombstones(this.indexDir));
		} catch {
			return;
		}
		this.stamp = stamp;
		this.paths = new Set(list.map((t) => t.path));
		this.ids = new Set(list.flatMap((t) => (t.sessionId ? [t.sessionId] : [])));
	}
}
