/** Entry point of the `pi-event-index` program (bin/pi-event-index.js, `npm run cli`, `npm run reindex`). */
import { runAsProcess } from "./boundary.js";
import { runCli } from "./run.js";

await runAsProcess((io) => runCli(process.argv.slice(2), io));
