/**
 * One parsed entry → one public event with its searchable fragments (docs/data-model.md, "Fragment kinds").
 * Pure. Assistant reasoning (thinking blocks) and image data are never read into a fragment or attribute.
 */
import type { SemanticKind } from "../contract.js";
import type { ParsedEntry } from "../parse/types.js";
import { codePointLength } from "../text/code-points.js";
import { pathsFromArguments, pathsFromSummaryDetails, renderToolCall } from "./render-arguments.js";
import { boundString, contentText, isBlank, isRecord } from "./text-utils.js";
import type { ProjectedEvent, ProjectedFragment } from "./types.js";

type Attributes = ProjectedEvent["attributes"];

/** The field that names another entry: compaction → first kept entry, branch summary → the old leaf, label → target. */
const LINK_FIELDS: Readonly<Record<string, string>> = {
	compaction: "firstKeptEntryId",
	branch_summary: "fromId",
	label: "targetId",
};

/** The id an entry links to (`ProjectedEvent.linkId`), if its type has a link and the field is a string. */
export function linkIdOf(entry: Pick<ParsedEntry, "type" | "raw">): string | undefined {
	const field = LINK_FIELDS[entry.type];
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
	const raw = entry.raw;
	const b = new EventBuilder(event);
	switch (entry.type) {
		case "message":
			projectMessage(b, raw.message);
			break;
		case "compaction":
			b.fragment("compaction_summary", raw.summary);
			b.attr("tokensBefore", raw.tokensBefore);
			b.attr("fromHook", raw.fromHook);
			b.files(pathsFromSummaryDetails(raw.details));
			break;
		case "branch_summary":
			b.fragment("branch_summary", raw.summary);
			b.attr("fromHook", raw.fromHook);
			b.files(pathsFromSummaryDetails(raw.details));
			break;
		case "custom_message":
			b.fragment("custom_message", contentText(raw.content));
			b.attr("customType", raw.customType);
			b.attr("display", raw.display);
			break;
		case "custom":
			// Extension state, never in the model's context: metadata only, its data is not searchable.
			b.attr("customType", raw.customType);
			break;
		case "label": {
			const label = typeof raw.label === "string" ? raw.label : "";
			b.fragment("label", label);
			b.attr("label", label);
			break;
		}
		case "session_info": {
			// As Pi's session list: the name trimmed, empty or missing clears it.
			const name = typeof raw.name === "string" ? raw.name.trim() : "";
			b.fragment("session_name", name);
			event.sessionName = name;
			break;
		}
		case "model_change":
			b.attr("provider", raw.provider);
			b.attr("modelId", raw.modelId);
			break;
		case "thinking_level_change":
			b.attr("thinkingLevel", raw.thinkingLevel);
			break;
		default:
			// Unknown (future) entry types stay events without fragments.
			break;
	}
	return event;
}

function projectMessage(b: EventBuilder, message: unknown): void {
	if (!isRecord(message)) return;
	const event = b.event;
	const role = typeof message.role === "string" ? message.role : undefined;
	// v2's "hookMessage" is Pi's "custom" (its v3 migration renames it); report the current name.
	if (role) event.role = role === "hookMessage" ? "custom" : role;
	switch (role) {
		case "user":
			b.fragment("user_text", contentText(message.content));
			break;
		case "assistant":
			projectAssistant(b, message);
			break;
		case "toolResult": {
			const toolName = typeof message.toolName === "string" ? message.toolName : undefined;
			const toolCallId = typeof message.toolCallId === "string" ? message.toolCallId : undefined;
			if (toolName !== undefined) event.toolName = toolName;
			if (toolCallId !== undefined) event.toolCallId = toolCallId;
			event.isError = message.isError === true;
			// The result's tool and call id are its event's: stored once, on the event row (read back by fragments.ts).
			b.fragment("tool_result", contentText(message.content));
			break;
		}
		case "bashExecution": {
			b.fragment("bash_command", message.command);
			b.fragment("bash_output", message.output);
			const exitCode = typeof message.exitCode === "number" ? message.exitCode : null;
			event.isError = (exitCode !== null && exitCode !== 0) || message.cancelled === true;
			event.attributes.exitCode = exitCode;
			b.attr("cancelled", message.cancelled);
			b.attr("truncated", message.truncated);
			if (message.excludeFromContext === true) event.attributes.excludeFromContext = true;
			break;
		}
		case "custom":
		case "hookMessage":
			b.fragment("custom_message", contentText(message.content));
			b.attr("customType", message.customType);
			b.attr("display", message.display);
			break;
		default:
			// An unknown role with text content is still someone's message: keep its text searchable.
			b.fragment("custom_message", contentText(message.content));
			break;
	}
}

function projectAssistant(b: EventBuilder, message: Record<string, unknown>): void {
	const event = b.event;
	// One fragment per text block and per tool call, in content order; thinking and anything else is skipped.
	if (Array.isArray(message.content)) {
		for (const block of message.content) {
			if (!isRecord(block)) continue;
			if (block.type === "text") {
				b.fragment("assistant_text", block.text);
			} else if (block.type === "toolCall") {
				const name = typeof block.name === "string" ? block.name : "";
				const callId = typeof block.id === "string" ? block.id : undefined;
				b.fragment("tool_call", renderToolCall(name, block.arguments), name || undefined, callId);
				if (name && event.toolName === undefined) event.toolName = name;
				b.files(pathsFromArguments(block.arguments));
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

/** Appends fragments, attributes and file paths to one event, dropping empties and bounding strings. */
class EventBuilder {
	private readonly seenFiles = new Set<string>();

	constructor(readonly event: ProjectedEvent) {}

	fragment(kind: SemanticKind, text: unknown, toolName?: string, toolCallId?: string): void {
		if (typeof text !== "string" || isBlank(text)) return;
		const f: ProjectedFragment = { ord: this.event.fragments.length, kind, text, charCount: codePointLength(text) };
		if (toolName !== undefined) f.toolName = toolName;
		if (toolCallId !== undefined) f.toolCallId = toolCallId;
		this.event.fragments.push(f);
	}

	attr(key: string, value: unknown): void {
		const attrs: Attributes = this.event.attributes;
		if (typeof value === "string") attrs[key] = boundString(value);
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
