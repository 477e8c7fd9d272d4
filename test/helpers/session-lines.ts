/**
 * Writes Pi-shaped v3 session lines for ingestion tests (same shapes Pi 0.73.1 writes: see fixtures/pi-0.73.1).
 * Deterministic: ids and timestamps derive from a counter, so tests can assert exact contents.
 */
import { randomUUID } from "node:crypto";

export interface LineFactory {
	header(): string;
	/** A user message line chained to the previous entry. */
	user(text: string): string;
	assistant(text: string): string;
	toolResult(callId: string, toolName: string, text: string, isError?: boolean): string;
	/** Any other entry chained to the previous one; `body` holds its type and fields. */
	other(body: Record<string, unknown>): string;
	/** The id the next entry will get. */
	readonly nextId: string;
	/** The id of the last entry written (the leaf). */
	readonly leafId: string | null;
	/** Re-parent the next entry (a /tree branch). */
	branchFrom(id: string | null): void;
}

export function lineFactory(opts: { sessionId?: string; cwd?: string; prefix?: string } = {}): LineFactory {
	const sessionId = opts.sessionId ?? randomUUID();
	const cwd = opts.cwd ?? "/home/dev/project";
	const prefix = opts.prefix ?? "e";
	let n = 0;
	let leaf: string | null = null;
	const idOf = (k: number) => `${prefix}${k.toString(16).padStart(7, "0")}`.slice(-8);
	const ts = (k: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, k)).toISOString();
	const entry = (body: Record<string, unknown>): string => {
		const id = idOf(n);
		const line = JSON.stringify({ type: "message", id, parentId: leaf, timestamp: ts(n), ...body });
		leaf = id;
		n++;
		return `${line}\n`;
	};
	return {
		header: () => `${JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: ts(0), cwd })}\n`,
		user: (text) => entry({ message: { role: "user", content: [{ type: "text", text }], timestamp: n } }),
		assistant: (text) =>
			entry({
				message: {
					role: "assistant",
					content: [{ type: "text", text }],
					provider: "faux",
					model: "faux-1",
					stopReason: "stop",
					timestamp: n,
				},
			}),
		toolResult: (callId, toolName, text, isError = false) =>
			entry({
				message: {
					role: "toolResult",
					toolCallId: callId,
					toolName,
					content: [{ type: "text", text }],
					isError,
					timestamp: n,
				},
			}),
		other: (body) => entry(body),
		get nextId() {
			return idOf(n);
		},
		get leafId() {
			return leaf;
		},
		branchFrom(id) {
			leaf = id;
		},
	};
}
