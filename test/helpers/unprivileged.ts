/**
 * Running a real child process as an unprivileged user. Tests run as root, where chmod does not stop reads or
 * writes, so permission faults (a read-only index directory, an unreadable session file) need another user.
 */
import { chmodSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** True when this process runs as root (and can start children as another user). */
export const IS_ROOT = process.getuid?.() === 0;

/** uid/gid of `nobody` when running as root; empty (this user) otherwise. */
export const UNPRIVILEGED: { uid?: number; gid?: number } = IS_ROOT ? { uid: 65534, gid: 65534 } : {};

/**
 * Lets the unprivileged user reach the project's files while a test file runs: a checkout in or under a mode-700
 * folder (CI clones into a mktemp dir) would stop it. Grants traverse (o+x) on the ancestors and, because Bun's
 * resolver lists the directory it resolves from, read + traverse (o+rx) on the checkout root, where missing.
 * Returns the function that restores the modes.
 */
export function grantCheckoutAccess(): () => void {
	const granted: Array<{ dir: string; mode: number }> = [];
	if (IS_ROOT) {
		const checkout = resolve(import.meta.dirname, "../..");
		for (let d = checkout; d !== dirname(d); d = dirname(d)) {
			const mode = statSync(d).mode & 0o7777;
			const need = d === checkout ? 0o005 : 0o001;
			if ((mode & need) !== need) {
				chmodSync(d, mode | need);
				granted.push({ dir: d, mode });
			}
		}
	}
	return () => {
		for (const g of granted.splice(0)) chmodSync(g.dir, g.mode);
	};
}
