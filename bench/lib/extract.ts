/**
 * Fragment text of session files, for the raw FTS5 baseline. Uses the project's own parser-free path
 * (`projectEntry` + `searchText`) when those modules load, so the baseline inserts exactly what the index
 * would; otherwise a simple JSON walk that mirrors the projection rules (no thinking, no images).
 */
import { readFileSync } from "node:fs";

/** Turns one session file into the strings that go into the FTS5 body column. */
export interface Extractor {
	/** "project" (projectEntry + searchText) or "json-walk". */
	name: string;
	extract(file: string): string[];
}

const PROJECT_ENTRY = "../../dist/project/project-entry.js";
const SEARCH_TEXT = "../../dist/text/search-text.js";

function blocksText(content: unknown, out: string[]): void {
	if (typeof content === "string") {
		if (content) out.push(content);
		return;
	}
	if (!Array.isArray(content)) return;
	for (const b of content as Array<Record<string, unknown>>) {
		if (b?.type === "text" && typeof b.text === "string" && b.text) out.push(b.text);
		else if (b?.type === "toolCall") out.push(`${String(b.name)} ${JSON.stringify(b.arguments ?? {})}`);
	}
}

/** The JSON-walk fallback for one parsed entry. */
export function walkEntry(e: Record<string, unknown>, out: string[]): void {
	switch (e.type) {
		case "message": {
			const m = (e.message ?? {}) as Record<string, unknown>;
			if (m.role === "bashExecution") {
				if (typeof m.command === "string") out.push(m.command);
				if (typeof m.output === "string" && m.output) out.push(m.output);
			} else blocksText(m.content, out);
			break;
		}
		case "compaction":
		case "branch_summary":
			if (typeof e.summary === "string") out.push(e.summary);
			break;
		case "custom_message":
			blocksText(e.content, out);
			break;
		case "label":
			if (typeof e.label === "string" && e.label) out.push(e.label);
			break;
		case "session_info":
			if (typeof e.name === "string" && e.name) out.push(e.name);
			break;
		case "custom":
			if (e.data !== undefined) out.push(JSON.stringify(e.data));
			break;
	}
}

function lines(file: string): string[] {
	const text = readFileSync(file, "utf8");
	return text.split("\n").filter((l) => l.length > 0);
}

/** Load the best available extractor. */
export async function loadExtractor(): Promise<Extractor> {
	try {
		const { projectEntry } = await import(PROJECT_ENTRY);
		const { searchText } = await import(SEARCH_TEXT);
		if (typeof projectEntry === "function" && typeof searchText === "function") {
			return {
				name: "project",
				extract(file) {
					const out: string[] = [];
					let seq = 0;
					for (const line of lines(file)) {
						let raw: Record<string, unknown>;
						try {
							raw = JSON.parse(line);
						} catch {
							continue;
						}
						if (raw.type === "session") continue;
						const ev = projectEntry({
							seq: seq++,
							lineNo: seq + 1,
							byteStart: 0,
							byteEnd: 0,
							id: String(raw.id),
							parentId: (raw.parentId as string | null) ?? null,
							type: String(raw.type),
							timestamp: String(raw.timestamp),
							raw,
						});
						for (const f of ev.fragments as Array<{ text: string; kind: string }>) out.push(searchText(f.text, f.kind));
					}
					return out;
				},
			};
		}
	} catch {
		// Projection not available yet: fall back to the JSON walk.
	}
	return {
		name: "json-walk",
		extract(file) {
			const out: string[] = [];
			for (const line of lines(file)) {
				try {
					const e = JSON.parse(line);
					if (e.type !== "session") walkEntry(e, out);
				} catch {
					// Skipped, as Pi skips it.
				}
			}
			return out;
		},
	};
}
