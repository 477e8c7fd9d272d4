/**
 * Entry point of the `pi-event-index` program (bin/pi-event-index.cjs, `npm run cli`, `npm run reindex`). No top-level
 * await: the build also makes this the one script the launcher loads with a code cache (scripts/bundle-cli.mjs), and
 * a script has none. The hasher is awaited here for that build; everywhere else importing it already did.
 */
import { hasherReady } from "../files/hash.js";
import { runAsProcess } from "./boundary.js";
import { runCli } from "./run.js";

void hasherReady.then(() => runAsProcess((io) => runCli(process.argv.slice(2), io)));
