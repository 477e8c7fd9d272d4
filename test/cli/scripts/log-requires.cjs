// Preloaded with `node --require` by module-load.test.ts: when the process exits, writes every CommonJS module it
// loaded (require.cache) and every public builtin (process.moduleLoadList) to $MODULE_LOG, one a line. The launcher
// and the program script are CommonJS, which Node 20's module hooks (log-modules.mjs) do not see.
"use strict";
const { writeFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");

process.once("exit", () => {
	const files = Object.keys(require.cache).map((f) => pathToFileURL(f).href);
	const builtins = process.moduleLoadList
		.filter((m) => m.startsWith("NativeModule ") && !m.startsWith("NativeModule internal/"))
		.map((m) => `node:${m.slice("NativeModule ".length)}`);
	writeFileSync(process.env.MODULE_LOG, `${[...files, ...builtins].join("\n")}\n`);
});
