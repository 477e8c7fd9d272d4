// Bundles the compiled program (dist/cli/main.js) into one CommonJS script, dist/cli/program.cjs, and the extension
// (dist/extension.js) into one file in its place: a process that loads a hundred small modules pays Node's resolution
// and loading of each (and Pi loads an extension's modules one by one through jiti), which was most of a whole
// `search` process and most of the extension's share of Pi's start (docs/benchmarks.md, "Where the time goes"). The
// program is one script so that the launcher (src/cli/launch.cts) can keep V8's compiled code of it between runs;
// esbuild still initialises a module reached by a dynamic import only when it is imported, so each command runs only
// its own part. The program carries every package it uses; the extension carries all but the driver's addon and a
// migration's reader (EXTENSION_EXTERNAL); better-sqlite3's JavaScript is also made one file of
// its own for the compiled modules. Each module's `import.meta.url` is rewritten to the URL of its own file in dist/,
// so paths found from it (migrations, package.json, worker entry points, the driver's require) are what they are
// unbundled. Each worker thread's entry (src/ingest/worker-bootstrap.mjs names them) is bundled in its place too, its
// packages left to Node: a thread loads its entry's whole module graph, and Pi's catch-up worker took 30–50 ms less
// CPU to start from one file. Run by ensure-built.mjs after tsc; without esbuild (a production install) nothing is
// bundled.
import { createHash } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/** The program script, under dist/. */
export const PROGRAM = join("cli", "program.cjs");

/**
 * The program carries every package it uses, so the script makes no `import()` of its own (Node 20 runs one from a
 * script with a code cache only behind an experimental flag) and loads no package file by file. better-sqlite3's
 * JavaScript too: its module (src/store/better-sqlite3-module.ts) is swapped for one that requires the package by
 * name, which esbuild then carries; its addon is still loaded by path.
 */
function carriedBetterSqlite3(root) {
	return {
		name: "carried-better-sqlite3",
		setup(build) {
			build.onResolve({ filter: /[\\/]better-sqlite3-module\.js$/ }, () => ({
				path: join(root, "scripts", "carried-better-sqlite3.cjs"),
			}));
		},
	};
}

/** Builds dist/cli/program.cjs and replaces dist/extension.js by its bundle; false when esbuild is not installed. */
export async function bundleCli(root) {
	let esbuild;
	try {
		esbuild = await import("esbuild");
	} catch {
		return false;
	}
	const dist = join(root, "dist");
	await oneFileBetterSqlite3(esbuild, root, dist);
	await buildProgram(esbuild, dist);
	await bundleInPlace(esbuild, join(dist, "extension.js"), dist, {
		external: EXTENSION_EXTERNAL,
		// pi-tui's width helpers alone (its utils.js and one package), not its 309 KB of components.
		alias: { "@earendil-works/pi-tui": join(root, "node_modules", "@earendil-works", "pi-tui", "dist", "utils.js") },
	});
	// After the program and the extension, which import none of these (types only).
	for (const entry of WORKER_ENTRIES)
		await bundleInPlace(esbuild, join(dist, "ingest", `${entry}.js`), join(dist, "ingest"));
	return true;
}

/**
 * better-sqlite3's JavaScript (and the `bindings` package it falls back on) as one CommonJS file beside the driver,
 * dist/store/better-sqlite3.cjs (src/store/better-sqlite3-module.ts requires it). Its addon stays where it is.
 */
async function oneFileBetterSqlite3(esbuild, root, dist) {
	await esbuild.build({
		entryPoints: [createRequire(join(root, "package.json")).resolve("better-sqlite3")],
		outfile: join(dist, "store", "better-sqlite3.cjs"),
		bundle: true,
		format: "cjs",
		platform: "node",
		target: "node20",
		logLevel: "error",
	});
}

/**
 * dist/cli/main.js and everything it imports as one CommonJS script. A script has no top-level await: the hasher's
 * (src/files/hash.ts) is dropped here, and main.ts awaits `hasherReady` itself. The first line names the build (a hash
 * of the rest), so the launcher never offers it another build's compiled code.
 */
async function buildProgram(esbuild, dist) {
	const outfile = join(dist, PROGRAM);
	const outdir = dirname(outfile);
	const built = await esbuild.build({
		entryPoints: [join(dist, "cli", "main.js")],
		write: false,
		outfile,
		bundle: true,
		format: "cjs",
		platform: "node",
		target: "node20",
		logLevel: "error",
		define: { "import.meta.url": "__importMetaUrl" },
		// Strict, as the ES modules it is made of were (a directive only counts before any other statement).
		banner: { js: '"use strict";\nvar __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
		plugins: [ownUrls(outdir), withoutHasherAwait(), carriedBetterSqlite3(dirname(dist))],
	});
	// ASCII only, so the launcher reads it as latin1 (a copy, not a UTF-8 decode of 600 KB). esbuild escapes strings
	// but keeps a few characters in comments and regular expressions, where an escape means the same character.
	const text = built.outputFiles[0].text.replace(
		/[^\0-\x7f]/g,
		(unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
	const build = createHash("sha256").update(text).digest("hex").slice(0, 16);
	await rm(join(dist, "cli", "bundle"), { recursive: true, force: true });
	await writeFile(outfile, `// pi-event-index program ${build}\n${text}`);
}

/** The esbuild plugin that drops src/files/hash.ts's top-level `await hasherReady;` (and fails if it is gone). */
function withoutHasherAwait() {
	return {
		name: "without-hasher-await",
		setup(build) {
			build.onLoad({ filter: /[\\/]files[\\/]hash\.js$/ }, async (args) => {
				const text = await readFile(args.path, "utf8");
				const statement = "await hasherReady;";
				if (!text.includes(statement)) throw new Error(`${args.path}: no "${statement}" to drop`);
				return { contents: text.replace(statement, ""), loader: "js" };
			});
		},
	};
}

/**
 * Packages the extension leaves to Node: the driver's addon and a migration's reader, loaded only on demand (Pi 0.73's
 * names are types, erased). It carries the rest (docs/extension.md): TypeBox, which Pi 1.x's native import of the
 * extension otherwise loaded as a second copy of ~370 modules at every start; pi-tui's width helpers (its utils.js
 * alone: all of pi-tui is 309 KB), which `pi install` does not put beside the extension; proper-lockfile and its three
 * packages, 10 ms of Pi's start on Node 22 resolved and compiled file by file.
 */
const EXTENSION_EXTERNAL = ["@mariozechner/*", "better-sqlite3", "drizzle-orm", "drizzle-orm/*"];

/**
 * A carried CommonJS package requires Node's built-in modules; an ES module has no `require` (esbuild's shim throws
 * without one). `var`: no error where a host runs the file as CommonJS, with `require` already a parameter.
 */
const CARRIED_REQUIRE = `import { createRequire as __carriedCreateRequire } from "node:module";
var require = __carriedCreateRequire(import.meta.url);`;

/** Bundles one compiled entry over itself: one file to load, its packages (or only `external`) left to Node. */
async function bundleInPlace(esbuild, file, dir, { external, alias } = {}) {
	await esbuild.build({
		entryPoints: [file],
		outfile: file,
		allowOverwrite: true,
		bundle: true,
		format: "esm",
		platform: "node",
		target: "node20",
		...(external ? { external, banner: { js: CARRIED_REQUIRE } } : { packages: "external" }),
		...(alias ? { alias } : {}),
		logLevel: "error",
		plugins: [ownUrls(dir)],
	});
}

/** The compiled entries of the index's worker threads (worker-bootstrap.mjs imports one of them per thread). */
const WORKER_ENTRIES = ["catch-up-worker", "prefetch-worker", "fts-worker"];

/** The esbuild plugin that gives each bundled module its own file's `import.meta.url`. */
function ownUrls(outdir) {
	return {
		name: "own-import-meta-url",
		setup(build) {
			build.onLoad({ filter: /\.js$/ }, async (args) => {
				const text = await readFile(args.path, "utf8");
				if (!text.includes("import.meta.url")) return undefined;
				// Every output file lands in outdir itself, so one relative URL serves wherever the module ends up.
				const own = relative(outdir, dirname(args.path)).split("\\").join("/");
				const name = pathToFileURL(args.path).pathname.split("/").pop();
				const url = `new URL(${JSON.stringify(`${own === "" ? "." : own}/${name}`)}, import.meta.url).href`;
				return { contents: text.replaceAll("import.meta.url", url), loader: "js" };
			});
		},
	};
}
