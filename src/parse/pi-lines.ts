/**
 * What a session line holds, as Pi itself declares it: Pi 1.x's (`@earendil-works/pi-coding-agent`) header and entry
 * types (its session-manager.ts) and the messages a `message` entry carries. They include every entry and role Pi
 * 0.73 (`@mariozechner/pi-coding-agent`) wrote, and 1.x's `usage` and `context_edit` entries and `system` messages.
 * The parser and the projector read every field through these types, so a field Pi renames fails this project's
 * build instead of silently indexing nothing. A line is still untrusted (older versions, other writers, hand edits):
 * every field may be missing or of another type, and the readers check each value. Types only: nothing of Pi is
 * loaded at run time.
 */
import type { SessionEntry, SessionHeader, SessionMessageEntry } from "@earendil-works/pi-coding-agent";

/** `T` as read from a JSON line: every field optional and of unknown type. */
type Untrusted<T> = { readonly [K in keyof T]?: unknown };

/** A session file's first line, with v1's `branchedFrom` (Pi migrates it away; its types no longer name it). */
export type PiHeaderLine = Untrusted<SessionHeader> & { readonly branchedFrom?: unknown };

/** The entry types Pi writes. */
export type PiEntryType = SessionEntry["type"];

/** An entry of type `K` as read from a line. */
export type PiEntryLine<K extends PiEntryType> = Untrusted<Extract<SessionEntry, { type: K }>>;

/** Pi's message roles (`message` entries), its own custom ones included. */
export type PiRole = SessionMessageEntry["message"]["role"];

/** The message of role `R` a `message` entry carries, as read from a line. */
export type PiMessageLine<R extends PiRole> = Untrusted<Extract<SessionMessageEntry["message"], { role: R }>>;

type AssistantBlock = Extract<SessionMessageEntry["message"], { role: "assistant" }>["content"][number];

/** A content block of type `T` of an assistant message, as read from a line. */
export type PiAssistantBlock<T extends AssistantBlock["type"]> = Untrusted<Extract<AssistantBlock, { type: T }>>;
