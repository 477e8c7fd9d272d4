-- Index format 5: coded columns and events without rowid (docs/store.md, "Coded columns"). Stores of format 4 are
-- rebuilt as new generations, so this runs on empty tables and simply replaces them.
-- - entry_type, role, branch_state, selection_state and fragments.kind hold small integer codes
--   (src/store/column-codes.ts), INTEGER affinity; a value without a code is kept as its text.
-- - timestamp holds epoch milliseconds when the text is exactly Date#toISOString's (what Pi writes), else the text.
-- - events is a WITHOUT ROWID table clustered on its primary key (source_id, seq): every lookup is by that key or by
--   an index, and the rowid table's separate primary-key index (10 MiB on 1 GB of sessions) goes away. drizzle's
--   schema cannot say WITHOUT ROWID; src/store/schema.ts notes it, and a generated migration that rebuilds `events`
--   must keep it.
DROP TRIGGER IF EXISTS `fragments_fts_delete`;
--> statement-breakpoint
DROP TABLE `fragments`;
--> statement-breakpoint
DROP TABLE `events`;
--> statement-breakpoint
CREATE TABLE `events` (
	`source_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`entry_id` text NOT NULL,
	`parent_id` text,
	`entry_type` integer NOT NULL,
	`role` integer,
	`tool_name` text,
	`tool_call_id` text,
	`is_error` integer DEFAULT false NOT NULL,
	`timestamp` integer NOT NULL,
	`line_no` integer NOT NULL,
	`byte_start` integer NOT NULL,
	`byte_end` integer NOT NULL,
	`line_hash` blob,
	`link_id` text,
	`attributes` text DEFAULT '{}' NOT NULL,
	`files` text DEFAULT '[]' NOT NULL,
	`branch_state` integer NOT NULL,
	`selection_state` integer NOT NULL,
	PRIMARY KEY(`source_id`, `seq`),
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `events_entry` ON `events` (`source_id`,`entry_id`);--> statement-breakpoint
CREATE INDEX `events_parent` ON `events` (`source_id`,`parent_id`);--> statement-breakpoint
CREATE INDEX `events_link` ON `events` (`source_id`,`link_id`) WHERE link_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `events_tool_call` ON `events` (`source_id`,`tool_call_id`) WHERE tool_call_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `fragments` (
	`id` integer PRIMARY KEY NOT NULL,
	`source_id` integer NOT NULL,
	`event_seq` integer NOT NULL,
	`ord` integer NOT NULL,
	`kind` integer NOT NULL,
	`text` text NOT NULL,
	`char_count` integer NOT NULL,
	`tool_name` text,
	`tool_call_id` text,
	FOREIGN KEY (`source_id`,`event_seq`) REFERENCES `events`(`source_id`,`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fragments_event_ord` ON `fragments` (`source_id`,`event_seq`,`ord`);--> statement-breakpoint
CREATE INDEX `fragments_tool_call` ON `fragments` (`source_id`,`tool_call_id`) WHERE tool_call_id IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER `fragments_fts_delete` AFTER DELETE ON `fragments` BEGIN DELETE FROM `fragments_fts` WHERE rowid = old.id; END;
