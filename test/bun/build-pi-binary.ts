/**
 * Builds a real Pi release-style binary (run with Bun): `bun build --compile` of Pi's own Bun entry
 * (dist/bun/cli.js), as Pi's `build:binary` script does, plus the assets its `copy-binary-assets` script puts
 * next to the executable. Usage: bun test/bun/build-pi-binary.ts <outDir>
 *
 * One difference: @mistralai/mistralai imports @opentelemetry/api (an optional peer Pi's own monorepo installs);
 * when it cannot be resolved here, a no-op stand-in is bundled instead (the mistral provider is never used).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

declare const Bun: {
	build(options: unknown): Promise<{ success: boolean; logs: unknown[] }>;
};

const outDir = process.argv[2];
if (!outDir) throw new Error("usage: bun test/bun/build-pi-binary.ts <outDir>");
const root = join(import.meta.dirname, "..", "..");
const pi = join(root, "node_modules", "@mariozechner", "pi-coding-agent");
mkdirSync(outDir, { recursive: true });

const shim = join(outDir, "opentelemetry-api-stand-in.mjs");
writeFileSync(
	shim,
	`const span = { end() {}, setAttribute() { return span; }, setAttributes() { return span; }, setStatus() { return span; },
	recordException() {}, addEvent() { return span; }, isRecording: () => false, spanContext: () => ({}) };
const tracer = { startSpan: () => span, startActiveSpan: (...a) => a[a.length - 1](span) };
export const trace = { getTracer: () => tracer, getTracerProvider: () => ({ getTracer: () => tracer }),
	getActiveSpan: () => undefined, setSpan: (c) => c };
export const context = { active: () => ({}), with: (_c, fn, thisArg, ...args) => fn.apply(thisArg, args) };
export const propagation = { inject() {}, extract: (c) => c };
export const SpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 };
export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 };
`,
);
let haveOtel = true;
try {
	createRequire(join(root, "node_modules", "@mistralai", "mistralai", "package.json")).resolve("@opentelemetry/api");
} catch {
	haveOtel = false;
}

const result = await Bun.build({
	entrypoints: [join(pi, "dist", "bun", "cli.js")],
	compile: { outfile: join(outDir, "pi") },
	plugins: haveOtel
		? []
		: [
				{
					name: "opentelemetry-api-stand-in",
					setup(build: { onResolve(o: { filter: RegExp }, cb: () => { path: string }): void }) {
						build.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({ path: shim }));
					},
				},
			],
});
if (!result.success) {
	console.error(result.logs);
	process.exit(1);
}

// What Pi's copy-binary-assets script copies (the parts present in the npm package).
const copy = (from: string, to: string) => {
	if (existsSync(from)) cpSync(from, join(outDir, to), { recursive: true });
};
copy(join(pi, "package.json"), "package.json");
copy(join(pi, "README.md"), "README.md");
const themes = join(pi, "dist", "modes", "interactive", "theme");
for (const f of readdirSync(themes).filter((f) => f.endsWith(".json"))) copy(join(themes, f), join("theme", f));
copy(join(pi, "dist", "modes", "interactive", "assets"), "assets");
copy(join(pi, "dist", "core", "export-html"), "export-html");
copy(join(root, "node_modules", "@silvia-odwyer", "photon-node", "photon_rs_bg.wasm"), "photon_rs_bg.wasm");
console.log(join(outDir, "pi"));
