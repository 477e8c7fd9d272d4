/** Entry point of the demo (`npm start`, `npm run demo`); `--keep` keeps the temporary directory. */
import { runAsProcess } from "./boundary.js";
import { runDemo } from "./demo-run.js";

await runAsProcess((io) => runDemo(io, { keep: process.argv.includes("--keep") }));
