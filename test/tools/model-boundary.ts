/** The model-boundary scan: text a model may receive carries no SQLite error text and no piece of a local path. */
import { sep } from "node:path";
import { expect } from "vitest";

/** SQLite's own wording (result codes and pieces of its messages) that must never reach the model. */
export const SQLITE_PHRASES = [
	"SQLITE_",
	"malformed",
	"disk image",
	"fts5",
	"no such table",
	"sqlite_master",
	"database is locked",
	"constraint failed",
	"disk I/O error",
	"database or disk is full",
	"unable to open database file",
	"readonly database",
] as const;

const SQLITE_TEXT = new RegExp(SQLITE_PHRASES.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "i");

/** Every directory segment of `paths` (spaces included), each of which must be absent from `text`. */
function segments(paths: string[]): string[] {
	const all = paths.flatMap((p) => p.split(sep)).filter((s) => s.length > 2);
	return [...new Set(all)];
}

/** Fails when `text` holds SQLite error text or any segment of `paths`. */
export function expectModelSafe(text: string, paths: string[]): void {
	expect(text).not.toMatch(SQLITE_TEXT);
	for (const s of segments(paths)) expect(text, `path segment "${s}" leaked`).not.toContain(s);
}
