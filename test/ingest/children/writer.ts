/**
 * A real writer process appending Pi-shaped lines the way Pi does (one append per entry), except that some lines
 * are written in two parts with a pause between, so a partial last line sits on disk for a while.
 *   writer.ts <dir> <fileNamePrefix> <files> <linesPerFile> <seed>
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lineFactory } from "../../helpers/session-lines.js";

const [dir, prefix, filesArg, linesArg, seedArg] = process.argv.slice(2);
const files = Number(filesArg);
const lines = Number(linesArg);
let seed = Number(seedArg) >>> 0;
const rand = () => {
	seed = (seed * 1664525 + 1013904223) >>> 0;
	return seed / 2 ** 32;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const writers = Array.from({ length: files }, (_, i) => {
	const path = join(dir, `${prefix}-${i}.jsonl`);
	const f = lineFactory({ prefix: `${prefix}${i}`.slice(0, 3) });
	writeFileSync(path, f.header());
	return { path, f };
});
for (let n = 0; n < lines; n++) {
	for (const w of writers) {
		const text = `line ${n} of ${w.path.slice(-12)} ${"word ".repeat(Math.floor(rand() * 60))}`;
		const line = n % 3 === 0 ? w.f.assistant(text) : w.f.user(text);
		if (rand() < 0.3) {
			const cut = 1 + Math.floor(rand() * (line.length - 2));
			appendFileSync(w.path, line.slice(0, cut));
			await sleep(Math.floor(rand() * 4));
			appendFileSync(w.path, line.slice(cut));
		} else {
			appendFileSync(w.path, line);
		}
	}
	if (n % 10 === 0) await sleep(1);
}
