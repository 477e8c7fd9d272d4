/**
 * One parsed entry → one public event with its searchable fragments (docs/data-model.md, "Fragment kinds").
 * Pure. Assistant reasoning (thinking blocks) and image data are never read into a fragment or attribute.
 */
import type { SemanticKind } from "../contract.js";
import { SYSTEM_ROLE } from "../parse/conversation.js";
import type { PiAssistantBlock, PiEntryLine, PiEntryType, PiMessageLine, PiRole } from "../parse/pi-lines.js";
import type { LongValues, ParsedEntry } from "../parse/types.js";
import { codePointLength } from "../text/code-points.js";
import { redactSecrets } from "../text/redact.js";
import { storedPart } from "../text/stored-head.js";
import { pathsFromCommand } from "./command-paths.js";
import { pathsFromArguments, pathsFromSummaryDetails, renderToolCall } from "./render-arguments.js";
import { PieceCursor, streamPieces, textPieces } from "./text-pieces.js";
import { boundString, contentText, isBlank, isRecord } from "./text-utils.js";
import type { ProjectedEvent, ProjectedFragment } from "./types.js";

type Attributes = ProjectedEvent["attributes"];

/** Entry types whose entry names another entry. */
type LinkingType = "compaction" | "branch_summary" | "label" | "context_edit";

/**
 * The field that names another entry: compaction → first kept entry, branch summary → the old leaf, label → target,
 * context edit → the entry whose content it omits or replaces.
 */
const LINK_FIELDS: { readonly [K in LinkingType]: keyof PiEntryLine<K> } = {
	compaction: "firstKeptEntryId",
	branch_summary: "fromId",
	label: "targetId",
	context_edit: "targetId",
};

/** The id an entry links to (`ProjectedEvent.linkId`), if its type has a link and the field is a string. */
export function linkIdOf(entry: Pick<ParsedEntry, "type" | "raw">): string | undefined {
	const field = Object.hasOwn(LINK_FIELDS, entry.type) ? LINK_FIELDS[entry.type as LinkingType] : undefined;
	const value = field === undefined ? undefined : entry.raw[field];
	return typeof value === "string" ? value : undefined;
}

/** Project one entry. Never throws on odd shapes: missing or mistyped fields just yield fewer fragments. */
export function projectEntry(entry: ParsedEntry): ProjectedEvent {
	const event: ProjectedEvent = {
		seq: entry.seq,
		entryId: entry.id,
		parentId: entry.parentId,
		entryType: entry.type,
		isError: false,
		timestamp: entry.timestamp,
		lineNo: entry.lineNo,
		byteStart: entry.byteStart,
		byteEnd: entry.byteEnd,
		attributes: {},
		files: [],
		fragments: [],
	};
	const linkId = linkIdOf(entry);
	if (linkId !== undefined) event.linkId = linkId;
	const b = new EventBuilder(event, entry.longValues);
	switch (entry.type) {
		case "message":
			projectMessage(b, lineOf(entry, "message").message);
			break;
		case "compaction": {
			const r = lineOf(entry, "compaction");
			b.fragment("compaction_summary", r.summary);
			b.attr("tokensBefore", r.tokensBefore);
			b.attr("fromHook", r.fromHook);
			b.files(pathsFromSummaryDetails(r.details));
			break;
		}
		case "branch_summary": {
			const r = lineOf(entry, "branch_summary");
			b.fragment("branch_summary", r.summary);
			b.attr("fromHook", r.fromHook);
			b.files(pathsFromSummaryDetails(r.details));
			break;
		}
		case "custom_message": {
			const r = lineOf(entry, "custom_message");
			b.fragment("custom_message", contentText(r.content));
			b.attr("customType", r.customType);
			b.attr("display", r.display);
			break;
		}
		case "custom":
			// Extension state, never in the model's context: metadata only, its data is not searchable.
			b.attr("customType", lineOf(entry, "custom").customType);
			break;
		case "label": {
			const raw = lineOf(entry, "label").label;
			const label = typeof raw === "string" ? redactSecrets(raw) : "";
			b.fragment("label", label);
			b.attr("label", label);
			break;
		}
		case "session_info": {
			// As Pi's session list: the name trimmed, empty or missing clears it.
			const raw = lineOf(entry, "session_info").name;
			const name = typeof raw === "string" ? redactSecrets(raw.trim()) : "";
			b.fragment("session_name", name);
			event.sessionName = name;
			break;
		}
		case "model_change": {
			const r = lineOf(entry, "model_change");
			b.attr("provider", r.provider);
			b.attr("modelId", r.modelId);
			break;
		}
		case "thinking_level_change":
			b.attr("thinkingLevel", lineOf(entry, "thinking_level_change").thinkingLevel);
			break;
		case "context_edit":
			// Its replacement content (if any) is what the model is sent instead of the target's: not indexed.
			b.attr("edit", lineOf(entry, "context_edit").replacement === null ? "omit" : "replace");
			break;
		case "usage": {
			// Model usage outside any message (a cache warm-up): numbers only, no text.
			const r = lineOf(entry, "usage");
			b.attr("usageKind", r.kind);
			b.attr("provider", r.provider);
			b.attr("model", r.model);
			break;
		}
		default:
			// Unknown (future) entry types stay events without fragments.
			break;
	}
	return event;
}

/** The entry's line read as Pi's entry of `type` (the caller has matched `entry.type`; values are still unchecked). */
function lineOf<K extends PiEntryType>(entry: ParsedEntry, _type: K): PiEntryLine<K> {
	return entry.raw as PiEntryLine<K>;
}

function projectMessage(b: EventBuilder, message: unknown): void {
	if (!isRecord(message)) return;
	const event = b.event;
	const role = typeof message.role === "string" ? message.role : undefined;
	// v2's "hookMessage" is Pi's "custom" (its v3 migration renames it); report the current name.
	if (role) event.role = role === "hookMessage" ? "custom" : role;
	switch (role) {
		case "user":
			b.fragment("user_text", contentText(messageOf(message, "user").content));
			break;
		case "assistant":
			projectAssistant(b, messageOf(message, "assistant"));
			break;
		case "toolResult": {
			const m = messageOf(message, "toolResult");
			const toolName = typeof m.toolName === "string" ? m.toolName : undefined;
			const toolCallId = typeof m.toolCallId === "string" ? m.toolCallId : undefined;
			if (toolName !== undefined) event.toolName = toolName;
			if (toolCallId !== undefined) event.toolCallId = toolCallId;
			event.isError = m.isError === true;
			// The result's tool and call id are its event's: stored once, on the event row (read back by fragments.ts).
			b.fragment("tool_result", contentText(m.content));
			break;
		}
		case "bashExecution": {
			const m = messageOf(message, "bashExecution");
			b.fragment("bash_command", m.command);
			b.fragment("bash_output", m.output);
			b.files(pathsFromCommand(m.command));
			const exitCode = typeof m.exitCode === "number" ? m.exitCode : null;
			event.isError = (exitCode !== null && exitCode !== 0) || m.cancelled === true;
			event.attributes.exitCode = exitCode;
			b.attr("cancelled", m.cancelled);
			b.attr("truncated", m.truncated);
			if (m.excludeFromContext === true) event.attributes.excludeFromContext = true;
			break;
		}
		case SYSTEM_ROLE:
			// The prompt and tool loadout, repeated in every session: no part of the conversation (conversation.ts).
			break;
		case "custom":
		case "hookMessage": {
			const m = messageOf(message, "custom");
			b.fragment("custom_message", contentText(m.content));
			b.attr("customType", m.customType);
			b.attr("display", m.display);
			break;
		}
		default:
			// An unknown role with text content is still someone's message: keep its text searchable.
			b.fragment("custom_message", contentText(message.content));
			break;
	}
}

/** The message read as Pi's message of `role` (the caller has matched its role; values are still unchecked). */
function messageOf<R extends PiRole>(message: Record<string, unknown>, _role: R): PiMessageLine<R> {
	return message as PiMessageLine<R>;
}

function projectAssistant(b: EventBuilder, message: PiMessageLine<"assistant">): void {
	const event = b.event;
	// One fragment per text block and per tool call, in content order; thinking and anything else is skipped.
	if (Array.isArray(message.content)) {
		for (const item of message.content as unknown[]) {
			if (!isRecord(item)) continue;
			if (item.type === "text") {
				b.fragment("assistant_text", (item as PiAssistantBlock<"text">).text);
			} else if (item.type === "toolCall") {
				const block = item as PiAssistantBlock<"toolCall">;
				const name = typeof block.name === "string" ? block.name : "";
				const callId = typeof block.id === "string" ? block.id : undefined;
				const paths = pathsFromArguments(block.arguments);
				b.fragment("tool_call", renderToolCall(name, block.arguments), name || undefined, callId, paths);
				if (name && event.toolName === undefined) event.toolName = name;
				b.files(paths);
			}
		}
	} else if (typeof message.content === "string") {
		b.fragment("assistant_text", message.content);
	}
	// The error text is what a user searches for after a failed turn; it is a fragment, and bounded as an attribute.
	b.fragment("assistant_text", message.errorMessage);
	b.attr("provider", message.provider);
	b.attr("model", message.model);
	b.attr("stopReason", message.stopReason);
	b.attr("errorMessage", message.errorMessage);
	event.isError = message.stopReason === "error";
}

/**
 * A copy of `s` that keeps no larger string alive: V8 slices share their parent's characters, so a long line's piece
 * heads, sliced from the text being cut, held each ~128 KiB window they came from (18 MiB for a 6 MB line).
 */
function detached(s: string): string {
	return Buffer.from(s, "utf16le").toString("utf16le");
}

/** Appends fragments, attributes and file paths to one event, dropping empties and bounding strings. */
class EventBuilder {
	private readonly seenFiles = new Set<string>();

	constructor(
		readonly event: ProjectedEvent,
		private readonly longValues?: LongValues,
	) {}

	/**
	 * One fragment of `kind` per piece of `text` (textPieces: one unless the text is long), blank pieces left out. A
	 * text holding a long line's values (LongValues) is cut as it is read, and each piece keeps only its head.
	 */
	fragment(kind: SemanticKind, text: unknown, toolName?: string, toolCallId?: string, files?: string[]): void {
		if (typeof text !== "string") return;
		const long = this.longValues?.holds(text) ? this.longValues : undefined;
		const cursor = long && new PieceCursor(() => streamPieces(long.parts(text)));
		let index = 0;
		for (const raw of long ? streamPieces(long.parts(text)) : textPieces(text)) {
			const at = index++;
			if (isBlank(raw)) continue;
			// Each piece is redacted after the cut, the same whether the text is read whole or part by part, so a piece
			// read again from the file (event-line.ts, long-values.ts) is the piece that was indexed.
			const piece = redactSecrets(raw);
			const f: ProjectedFragment = {
				ord: this.event.fragments.length,
				kind,
				text: cursor ? detached(storedPart(piece)) : piece,
				charCount: codePointLength(piece),
			};
			if (toolName !== undefined) f.toolName = toolName;
			if (toolCallId !== undefined) f.toolCallId = toolCallId;
			if (files !== undefined && files.length > 0) f.files = files;
			if (cursor) f.piece = { read: () => redactSecrets(cursor.at(at)) };
			this.event.fragments.push(f);
		}
	}

	attr(key: string, value: unknown): void {
		const attrs: Attributes = this.event.attributes;
		if (typeof value === "string") attrs[key] = boundString(redactSecrets(value));
		else if (typeof value === "boolean") attrs[key] = value;
		else if (typeof value === "number" && Number.isFinite(value)) attrs[key] = value;
	}

	files(paths: string[]): void {
		for (const p of paths) {
			if (this.seenFiles.has(p)) continue;
			this.seenFiles.add(p);
			this.event.files.push(p);
		}
	}
}
