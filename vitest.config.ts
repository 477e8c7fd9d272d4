import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// Tests spawn real processes (indexers, Pi); two cores, so keep file parallelism modest.
		maxWorkers: 2,
	},
});
