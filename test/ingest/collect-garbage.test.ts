/**
 * After a multi-MB line the sync asks for a full collection (src/runtime.ts): on Node through gc() exposed for a
 * moment, on Bun through Bun.gc. If neither works the call does nothing, silently, and the peak memory of a build
 * with such lines grows again; this pins that it really collects, on whichever runtime runs the tests.
 */
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/runtime.js";

function dropped(): WeakRef<object> {
	return new WeakRef({ text: "x".repeat(1 << 20).split("") });
}

describe("collectGarbage", () => {
	it("frees an unreachable object at once", async () => {
		const ref = dropped();
		// A WeakRef's target is kept until the current job ends.
		await new Promise((r) => setTimeout(r, 0));
		collectGarbage();
		expect(ref.deref()).toBeUndefined();
	});

	it("leaves gc unexposed to the contexts created afterwards", async () => {
		const { runInNewContext } = await import("node:vm");
		collectGarbage();
		expect(runInNewContext("typeof gc")).toBe("undefined");
	});
});
