DROP INDEX `events_time`;--> statement-breakpoint
DROP INDEX `events_link`;--> statement-breakpoint
DROP INDEX `events_tool_call`;--> statement-breakpoint
CREATE INDEX `events_link` ON `events` (`source_id`,`link_id`) WHERE link_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `events_tool_call` ON `events` (`source_id`,`tool_call_id`) WHERE tool_call_id IS NOT NULL;--> statement-breakpoint
DROP INDEX `fragments_tool_call`;--> statement-breakpoint
CREATE INDEX `fragments_tool_call` ON `fragments` (`source_id`,`tool_call_id`) WHERE tool_call_id IS NOT NULL;