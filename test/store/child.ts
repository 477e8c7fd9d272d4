/**
 * A real child process for store and lock tests (run with `node --import tsx/esm`):
 *   open <dir>                → opens the store, prints one JSON line describing it, exits
 *   lock <dir> <name> <stale> → takes the lock, prints "locked", then keeps running until killed
 */

import { tryLock } from "../../src/store/lock.js";
import { openStore } from "../../src/store/open-store.js";

const [mode, dir, name, stale] = process.argv.slice(2);

if (mode === "open") {
	const result = await openStore({ dir, lockStaleMs: 2000 });
	if (result.ok) {
		const { store } = result;
		const journal = store.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM __drizzle_migrations").get()?.n;
		let writeError: string | undefined;
		try {
			store.db.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('probe', 'x')");
		} catch (err) {
			writeError = (err as { code?: string }).code ?? String(err);
		}
		console.log(
			JSON.stringify({
				ok: true,
				file: store.file,
				readOnly: store.readOnly,
				readOnlyReason: store.readOnlyReason,
				fresh: store.fresh,
				journal,
				writeError,
			}),
		);
		store.close();
	} else {
		console.log(JSON.stringify(result));
	}
} else if (mode === "lock") {
	const handle = await tryLock(dir, name, { stale: Number(stale), wait: 5000 });
	console.log(handle ? "locked" : "busy");
	setInterval(() => {}, 1000);
}
