/** This package's name and version, read once from package.json (cheap to import: `--version` loads nothing else). */
import { readFileSync } from "node:fs";

let version: string | undefined;

/** This package's version as `name@version` (for `meta.created_by` and `--version`). */
export function packageVersion(): string {
	if (version === undefined) {
		try {
			// dist/ and src/ sit at the same depth below the package root.
			const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
				name?: string;
				version?: string;
			};
			version = `${pkg.name ?? "pi-event-index"}@${pkg.version ?? "unknown"}`;
		} catch {
			version = "pi-event-index@unknown";
		}
	}
	return version;
}
