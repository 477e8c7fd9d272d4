/**
 * A real Pi-like process holding the shared index open: the extension's IndexRuntime (no background catch-up),
 * driven line by line on stdin so a test decides exactly when it writes and reads.
 *   live-runtime.ts <cwd> [catch-up]   (PI_CODING_AGENT_DIR, PI_EVENT_INDEX_DIR in the environment)
 * With `catch-up` the runtime starts its background catch-up as Pi does; without, it only holds the index open.
 * Commands: `sync <file>` → {"sync": status}; `search <query>` → {"hits": n, "note": coverage note} or
 * {"error": public message}; `close` → closes the runtime and exits 0. Prints {"ready": true} once it is open.
 */
import { createInterface } from "node:readline";
import { IndexRuntime } from "../../../src/extension/index-runtime.js";
import { toPublicError } from "../../../src/extension/public-errors.js";
import { searchEvents } from "../../../src/query/index.js";

const [cwd, mode] = process.argv.slice(2) as [string, string | undefined];
const rt = IndexRuntime.start({ cwd, catchUp: mode === "catch-up" });
const say = (o: Record<string, unknown>) => console.log(JSON.stringify(o));

await rt.ready();
say({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
	const [command, ...rest] = line.split(" ");
	const arg = rest.join(" ");
	if (command === "sync") say({ sync: await rt.syncSessionFile(cwd, arg) });
	else if (command === "search") {
		await rt
			.query({ cwd }, (s) => searchEvents(s.index.manager.store.db, { query: arg }, s.caller, s.options))
			.then(
				(r) => say({ hits: r.hits.length, note: r.coverage.note }),
				(err: unknown) => say({ error: toPublicError(err).message }),
			);
	} else if (command === "close") {
		await rt.close();
		say({ closed: true });
		process.exit(0);
	}
}
