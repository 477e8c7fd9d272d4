/**
 * A real Pi-like process holding the shared index open: the extension's IndexRuntime (no background catch-up),
 * driven line by line on stdin so a test decides exactly when it writes and reads.
 *   live-runtime.ts <cwd>            (PI_CODING_AGENT_DIR in the environment)
 * Commands: `sync <file>` → {"sync": status}; `search <query>` → {"hits": n} or {"error": public message};
 * `close` → closes the runtime and exits 0. Prints {"ready": true} once the index is open.
 */
import { createInterface } from "node:readline";
import { searchEvents } from "../../../src/query/index.js";
import { toPublicError } from "../../../src/tools/errors.js";
import { IndexRuntime } from "../../../src/tools/index-runtime.js";

const [cwd] = process.argv.slice(2) as [string];
const rt = IndexRuntime.start({ cwd, catchUp: false });
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
				(r) => say({ hits: r.hits.length }),
				(err: unknown) => say({ error: toPublicError(err).message }),
			);
	} else if (command === "close") {
		await rt.close();
		say({ closed: true });
		process.exit(0);
	}
}
