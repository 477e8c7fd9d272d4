import { describe, expect, it } from "vitest";
import { runChild } from "../../bench/lib/child.js";

describe("bench task processes", () => {
	it("regression: run the shipped JavaScript in plain Node (under tsx every thread carried its loader, 35–58 MiB that hid figure 6's growth)", async () => {
		const r = await runChild<{ execArgv: string[]; projectModule: string }>("runtime", {});
		expect(r.execArgv.join(" ")).not.toMatch(/tsx/);
		expect(r.projectModule).toMatch(/\/dist\/ingest\/index-manager\.js$/);
	});
});
