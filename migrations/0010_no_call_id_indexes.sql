DROP INDEX `events_tool_call`;--> statement-breakpoint
DROP INDEX `fragments_tool_call`;