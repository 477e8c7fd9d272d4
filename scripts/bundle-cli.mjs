// Bundles the compiled program (dist/cli/main.js) into dist/cli/bundle/, and the extension (dist/extension.js) into
// one file in its place: a process that loads a hundred small modules pays Node's resolution and loading of each (and
// Pi loads an extension's modules one by one through jiti), which was most of a whole `search` process and most of
// the extension's share of Pi's start (docs/benchmarks.md, "Where the time goes"). The program is split at every
// dynamic import, so each command still loads only its own part. Packages stay outside (Pi gives the extension its own
// pi-tui and typebox). Each module's `import.meta.url` is rewritten to the URL of its own file in dist/, so paths
// found from it (migrations, package.json, worker entry points, the driver's require) are what they are unbundled.
// Each worker thread's entry (src/ingest/worker-bootstrap.mjs names them) is bundled in its place too: a thread loads
// its entry's whole module graph, and Pi's catch-up worker took 30–50 ms less CPU to start from one file. Run by
// ensure-built.mjs after tsc; without esbuild (a production install) nothing is bundled.
import { readFile, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/** Where the bundle goes, under dist/. */
export const BUNDLE_DIR = join("cli", "bundle");

/** Builds dist/cli/bundle/main.js and replaces dist/extension.js by its bundle; false when esbuild is not installed. */
export async function bundleCli(root) {
	let esbuild;
	try {
		esbuild = await import("esbuild");
	} catch {
		return false;
	}
	const dist = join(root, "dist");
	const outdir = join(dist, BUNDLE_DIR);
	await rm(outdir, { recursive: true, force: true });
	await esbuild.build({
		entryPoints: [join(dist, "cli", "main.js")],
		outdir,
		bundle: true,
		splitting: true,
		format: "esm",
		platform: "node",
		target: "node20",
		packages: "external",
		logLevel: "error",
		plugins: [ownUrls(outdir)],
	});
	await bundleInPlace(esbuild, join(dist, "extension.js"), dist);
	// After the program and the extension, which import none of these (types only).
	for (const entry of WORKER_ENTRIES)
		await bundleInPlace(esbuild, join(dist, "ingest", `${entry}.js`), join(dist, "ingest"));
	return true;
}

/** Bundles one compiled entry over itself: one file to load, its packages left to Node. */
async function bundleInPlace(esbuild, file, dir) {
	await esbuild.build({
		entryPoints: [file],
		outfile: file,
		allowOverwrite: true,
		bundle: true,
		format: "esm",
		platform: "node",
		target: "node20",
		packages: "external",
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
