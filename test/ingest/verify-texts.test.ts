/**
 * `verify` checks every fragment's stored text against a fresh projection of its line, packed texts unpacked: a
 * stored text edited behind the index, or a packed one that can no longer be unpacked, is a difference (real store,
 * rows edited behind it).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyIndex } from "../../src/ingest/verify.js";
import { lineFactory } from "../helpers/session-lines.js";
import { storeWithSession, type TempStore } from "../helpers/temp-store.js";

let store: TempStore;
const roots = () => [{ path: join(store.dir, "sessions"), subfolders: false }];
const texts = () =>
	store.db.prepare("SELECT id, text FROM fragments ORDER BY id").all() as Array<{
		id: number;
		text: string | Uint8Array;
	}>;
const setText = (id: number, text: string | Uint8Array) =>
	store.db.prepare("UPDATE fragments SET text = ? WHERE id = ?").run(text, id);

beforeAll(async () => {
	const f = lineFactory({ cwd: "/work/app" });
	store = await storeWithSession([
		f.header(),
		f.user("why does the release build fail on the second run?"),
		f.toolResult("c1", "bash", "error: cannot find module './release-notes'\n".repeat(4)),
	]);
});
afterAll(() => store.cleanup());

describe("verify and stored texts", () => {
	it("reports a stored text that is not the file's, and one that cannot be unpacked", () => {
		expect(verifyIndex(store.db, roots()).differences).toEqual([]);
		const [question, output] = texts();
		expect(output?.text).toBeInstanceOf(Uint8Array);

		setText(question?.id as number, "why does the debug build fail on the second run?");
		const packed = output?.text as Uint8Array;
		setText(output?.id as number, packed.subarray(0, packed.length - 2));
		const found = verifyIndex(store.db, roots()).differences.filter((d) => d.kind === "fragments-differ");
		expect(found).toHaveLength(2);
		expect(found[0]?.detail).toMatch(/^entry \S+: fragment 0's stored text differs from the file$/);
		expect(found[1]?.detail).toMatch(/^entry \S+: fragment 0's stored text cannot be read \(packed text: .+\)$/);

		setText(question?.id as number, question?.text as string);
		setText(output?.id as number, packed);
		expect(verifyIndex(store.db, roots()).differences).toEqual([]);
	});
});
