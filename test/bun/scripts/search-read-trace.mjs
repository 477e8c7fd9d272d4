// Faux model script for the Bun end-to-end tests: event_search for $E2E_MARKER, event_read and event_trace on the
// first hit (ids parsed from the tool's text, as a model would), then a final answer naming the runtime Pi itself
// runs on. With $BARRIER_DIR/$BARRIER_ME/$BARRIER_OTHER set, it first waits until the other pi process reached the
// same point, which proves the two ran at once.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const marker = process.env.E2E_MARKER ?? "missing-marker";
const runtime = typeof process.versions.bun === "string" ? "bun" : "node";
let hit;
let barrier = "none";

async function meet() {
	const dir = process.env.BARRIER_DIR;
	if (!dir) return "none";
	writeFileSync(join(dir, process.env.BARRIER_ME), "");
	const other = join(dir, process.env.BARRIER_OTHER);
	const deadline = Date.now() + 30000;
	while (!existsSync(other) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
	return existsSync(other) ? "met" : "alone";
}

export const responses = [
	async () => {
		barrier = await meet();
		return { toolCalls: [{ name: "event_search", arguments: { query: marker } }] };
	},
	(_context, h) => {
		const m = /sessionId=(\S+) entryId=(\S+)/.exec(h.lastToolResultText());
		if (!m) return `no hit in: ${h.lastToolResultText()}`;
		hit = { sessionId: m[1], entryId: m[2] };
		return { toolCalls: [{ name: "event_read", arguments: hit }] };
	},
	() => ({ toolCalls: [{ name: "event_trace", arguments: hit }] }),
	() => `finished ${hit.sessionId} ${hit.entryId} runtime=${runtime} barrier=${barrier}`,
];
