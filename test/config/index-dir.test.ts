/** prepareIndexDir: creates missing folders one level at a time and returns every failure at once, as data. */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexDirError, prepareIndexDir, requireIndexDir } from "../../src/config/index-dir.js";

let tmp: string;

beforeAll(() => {
	tmp = mkdtempSync(join(tmpdir(), "pei-index-dir-"));
	writeFileSync(join(tmp, "a-file"), "x");
});

afterAll(() => {
	rmSync(tmp, { recursive: true, force: true });
});

describe("prepareIndexDir", () => {
	it("creates the missing folders and accepts an existing writable directory", () => {
		const dir = join(tmp, "a", "b", "c");
		expect(prepareIndexDir(dir)).toEqual({ ok: true, dir });
		expect(statSync(dir).isDirectory()).toBe(true);
		expect(prepareIndexDir(dir)).toEqual({ ok: true, dir });
	});

	// Regression: Node 20's recursive mkdir never returns on procfs; this must come back with a reason.
	it.skipIf(!existsSync("/proc/self"))("a procfs path fails with cannot_create instead of hanging", () => {
		for (const dir of ["/proc/nope", "/proc/nope/deeper/index"]) {
			const check = prepareIndexDir(dir);
			expect(check).toMatchObject({ ok: false, code: "cannot_create", field: "indexDir" });
			if (!check.ok) expect(check.reason).not.toContain("/proc");
		}
	});

	it("a file in the way (the path itself or a parent) is not_a_directory", () => {
		expect(prepareIndexDir(join(tmp, "a-file"))).toMatchObject({ ok: false, code: "not_a_directory" });
		expect(prepareIndexDir(join(tmp, "a-file", "index"))).toMatchObject({ ok: false, code: "not_a_directory" });
	});

	// Root ignores permission bits, so this only means something for an ordinary user.
	it.skipIf(process.getuid?.() === 0)("a read-only parent is cannot_create; a read-only index dir not_writable", () => {
		const parent = join(tmp, "read-only");
		mkdirSync(join(parent, "existing"), { recursive: true });
		chmodSync(join(parent, "existing"), 0o555);
		chmodSync(parent, 0o555);
		try {
			expect(prepareIndexDir(join(parent, "index"))).toMatchObject({ ok: false, code: "cannot_create" });
			expect(prepareIndexDir(join(parent, "existing"))).toMatchObject({ ok: false, code: "not_writable" });
		} finally {
			chmodSync(parent, 0o755);
			chmodSync(join(parent, "existing"), 0o755);
		}
	});

	it("requireIndexDir throws an IndexDirError carrying the code and the field", () => {
		const error = (() => {
			try {
				requireIndexDir(join(tmp, "a-file", "index"));
			} catch (e) {
				return e;
			}
		})();
		expect(error).toBeInstanceOf(IndexDirError);
		expect(error).toMatchObject({ code: "not_a_directory", field: "indexDir" });
	});
});
