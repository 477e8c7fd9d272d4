import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// The compiled package (dist/) is what the e2e, install and CLI tests run: built first when stale.
		globalSetup: ["test/global-setup.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// Tests spawn real processes (indexers, Pi); two cores, so keep file parallelism modest.
		maxWorkers: 2,
	},
});
