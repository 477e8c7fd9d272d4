// Worker entry in plain JavaScript: loads the TypeScript worker through tsx on Node; Bun runs it natively.
const target = new URL("./catch-up-worker.ts", import.meta.url).href;
if (typeof globalThis.Bun !== "undefined") {
	await import(target);
} else {
	const { tsImport } = await import("tsx/esm/api");
	await tsImport(target, import.meta.url);
}
