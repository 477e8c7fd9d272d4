/**
 * Runs the program script (dist/cli/program.cjs, one CommonJS file built by scripts/bundle-cli.mjs) with a V8 code
 * cache kept between runs. Node 20 has no compile cache of its own, and compiling the program was about a fifth of a
 * whole `search` process (docs/benchmarks.md, "Where the time goes"). The cache is written when a run ends, so it also
 * holds the functions that run compiled, not only the top level. Any trouble with the cache only costs the speed-up:
 * the program runs the same without it.
 */
import fs = require("node:fs");
import path = require("node:path");
import os = require("node:os");
import vm = require("node:vm");
import nodeModule = require("node:module");

/** The first line of the program script names its build: a cache made for another build is never offered to it. */
const BUILD_LINE = /^\/\/ pi-event-index program ([0-9a-f]{8,64})\n/;

/** At most this many cache files of one build (one per command word); more are not written. */
const MAX_CACHE_FILES = 16;

/** Where the caches live, and whether they may be used: a private folder of this user, or none. */
function codeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
	if (env.PI_EVENT_INDEX_CODE_CACHE === "0" || env.NODE_DISABLE_COMPILE_CACHE === "1") return undefined;
	try {
		// A relative XDG_CACHE_HOME is ignored, as the XDG base directory spec asks.
		const xdg = env.XDG_CACHE_HOME;
		const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), ".cache");
		return path.join(base, "pi-event-index");
	} catch {
		// No home to be found (os.homedir throws without HOME or a passwd entry): the program runs without a cache.
		return undefined;
	}
}

/**
 * True when `target` is a folder (or file) this user owns and nobody else may write: cached code runs as the program,
 * so a cache another user could have written is never read.
 */
function ownedAndPrivate(target: string, folder: boolean): boolean {
	try {
		const s = fs.lstatSync(target);
		const uid = process.getuid?.();
		return (folder ? s.isDirectory() : s.isFile()) && (uid === undefined || s.uid === uid) && (s.mode & 0o022) === 0;
	} catch {
		return false;
	}
}

/** The cache's file name for this build, runtime and command word. */
function cacheName(build: string, argv: readonly string[]): string {
	const command = argv.find((a) => /^[a-z]{3,10}$/.test(a)) ?? "none";
	return `${build}-${process.version}-${process.arch}-${command}.bin`;
}

function readCache(dir: string, name: string): Buffer | undefined {
	const file = path.join(dir, name);
	if (!ownedAndPrivate(dir, true) || !ownedAndPrivate(file, false)) return undefined;
	try {
		return fs.readFileSync(file);
	} catch {
		return undefined;
	}
}

/** The cache folder made if missing; false when it is not this user's private folder (nothing is written then). */
function privateFolder(dir: string): boolean {
	try {
		fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	} catch {
		return false;
	}
	return ownedAndPrivate(dir, true);
}

/** A temp file older than this was left by a run that died while writing. */
const LEFT_TEMP_MS = 60_000;

/** Writes the cache whole or not at all (a temp file renamed over it); drops the caches of other builds. */
function writeCache(dir: string, name: string, build: string, data: Buffer): void {
	try {
		const present = fs.readdirSync(dir);
		for (const other of present) {
			const file = path.join(dir, other);
			if (other.endsWith(".bin") && !other.startsWith(`${build}-`)) fs.rmSync(file, { force: true });
			else if (other.endsWith(".tmp") && fs.lstatSync(file).mtimeMs < Date.now() - LEFT_TEMP_MS)
				fs.rmSync(file, { force: true });
		}
		if (present.filter((f) => f.startsWith(`${build}-`)).length >= MAX_CACHE_FILES) return;
		const temp = path.join(dir, `.${name}.${process.pid}.tmp`);
		const fd = fs.openSync(temp, "wx", 0o600);
		try {
			fs.writeSync(fd, data);
		} finally {
			fs.closeSync(fd);
		}
		fs.renameSync(temp, path.join(dir, name));
	} catch {
		// A cache that cannot be written costs the next run its speed-up, nothing else.
	}
}

/**
 * Runs the program script as CommonJS module `file`, through a code cache when the runtime has one (Node; Bun
 * requires it plainly). Returns once the script's top level has run; the program exits the process itself.
 */
function runProgram(file: string, argv: readonly string[], env: NodeJS.ProcessEnv): void {
	const requireHere = nodeModule.createRequire(file);
	// ASCII (scripts/bundle-cli.mjs): latin1 reads it without decoding.
	const source = fs.readFileSync(file, "latin1");
	const build = BUILD_LINE.exec(source)?.[1];
	const dir = codeCacheDir(env);
	if (process.versions.bun !== undefined || build === undefined || dir === undefined) {
		requireHere(file);
		return;
	}
	const name = cacheName(build, argv);
	const cachedData = readCache(dir, name);
	const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
		filename: file,
		cachedData,
	});
	// Made at exit (a few ms, once), so only where it can be kept: not on every run of a read-only home.
	if ((cachedData === undefined || script.cachedDataRejected === true) && privateFolder(dir)) {
		process.once("exit", () => writeCache(dir, name, build, script.createCachedData()));
	}
	const program = { exports: {}, filename: file, id: file, loaded: false };
	script.runInThisContext()(program.exports, requireHere, program, file, path.dirname(file));
}

export = { runProgram };
