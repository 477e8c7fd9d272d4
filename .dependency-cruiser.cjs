/**
 * The architecture, as rules (docs/architecture.md draws the same picture). Each layer may import only the layers
 * listed for it; anything else fails `npm run check` with the rule's name. Layers, lowest first:
 *
 *   leaves       contract.ts (public shapes), runtime.ts (Node or Bun), package-version.ts
 *   files/       byte ranges, hashing, small files written safely, the log          (no session knowledge)
 *   text/        text helpers and the query compiler                                 (pure)
 *   parse/       bytes of a session file → entries                                   (pure)
 *   project/     entries → events and fragments, tree states                         (pure)
 *   store/       the SQLite store: driver, schema, migrations, generations, locks, fragment ids
 *   session-file/ an indexed line read back from its session file, checked by its hash
 *   config/      settings and Pi's paths
 *   ingest/      session files → store (sync, catch-up, discovery, the index manager)
 *   query/       store → answers (search, read, trace, sessions)
 *   facade       workspace-index.ts (open an index for a workspace) and index-admin.ts (status, verify, locks)
 *   extension/   the extension's runtime in Pi: the index it keeps, agent runs, /event-index, errors the model sees
 *   tools/       the three Pi tools: schemas, prompts, rendering (over the runtime); extension.ts wires both to Pi
 *   cli/         the pi-event-index program
 */
const LEAVES = "^src/(contract|runtime|package-version)\\.ts$";
const layer = (name) => `^src/${name}/`;

/** Each layer and the layers it may import (its own folder is always allowed). */
const ALLOWED = {
	files: [],
	text: [],
	parse: ["text"],
	project: ["parse", "text"],
	store: ["files", "text"],
	"session-file": ["files", "text", "parse", "project", "store"],
	config: ["files", "text"],
	ingest: ["files", "text", "parse", "project", "store", "session-file", "config"],
	query: ["files", "text", "parse", "project", "store", "session-file", "config"],
	extension: ["text", "config", "query", "facade", "files"],
	tools: ["text", "config", "query", "facade", "files", "extension"],
	cli: ["text", "config", "query", "facade", "files"],
};
const FACADE = "^src/(workspace-index|workspace-setup|index-admin)\\.ts$";
const pathOf = (name) => (name === "facade" ? FACADE : layer(name));

module.exports = {
	forbidden: [
		{
			name: "no-cycles",
			comment: "No import cycles, type-only imports included.",
			severity: "error",
			from: { path: "^src/" },
			to: { circular: true },
		},
		...Object.entries(ALLOWED).map(([name, may]) => ({
			name: `${name}-imports-only-${may.length ? may.join("-") : "leaves"}`,
			comment: `${name}/ may import only ${[...may, "leaves"].join(", ")} (and itself).`,
			severity: "error",
			from: { path: layer(name) },
			to: { path: "^src/", pathNot: [layer(name), LEAVES, ...may.map(pathOf)] },
		})),
		{
			name: "leaves-import-nothing",
			comment: "contract.ts, runtime.ts and package-version.ts import no other module of src/.",
			severity: "error",
			from: { path: LEAVES },
			to: { path: "^src/", pathNot: LEAVES },
		},
		{
			name: "facade-below-tools-and-cli",
			comment: "workspace-index.ts and index-admin.ts never import the tools, the extension or the CLI.",
			severity: "error",
			from: { path: FACADE },
			to: { path: "^src/(tools|extension|cli)/|^src/extension\\.ts$" },
		},
		{
			name: "extension-entry-wiring-only",
			comment: "extension.ts wires Pi to extension/ and tools/ only.",
			severity: "error",
			from: { path: "^src/extension\\.ts$" },
			to: { path: "^src/", pathNot: ["^src/(extension|tools)/", LEAVES] },
		},
		{
			name: "src-never-imports-tests-or-bench",
			severity: "error",
			from: { path: "^src/" },
			to: { path: "^(test|bench|scripts)/" },
		},
	],
	options: {
		doNotFollow: { path: "node_modules" },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: "tsconfig.json" },
		enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs"] },
	},
};
