/**
 * A real process that opens the index and holds its write lock: BEGIN IMMEDIATE, one write, then nothing (no
 * COMMIT), printing "holding". A test freezes it (SIGTSTP, as Ctrl-Z does) to play a stopped `reindex`.
 *   hold-write.ts <sqlite file>
 */
import { openDatabase } from "../../../src/store/db.js";

const [file] = process.argv.slice(2);
const db = await openDatabase(file as string, { fileMustExist: true });
db.exec("BEGIN IMMEDIATE");
db.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('held-by-test', 'x')");
console.log("holding");
// The timer keeps `db` reachable: under Bun an unreachable Database is collected and closed, releasing the lock.
setInterval(() => db, 1000);
