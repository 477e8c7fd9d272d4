-- Index format 3: leaner rows for the same search (docs/store.md, "Lean rows"). Stores of format 2 are rebuilt as
-- new generations, so this runs on empty tables and simply replaces them:
-- - events and fragments are recreated unchanged (a WITHOUT ROWID events table was 5 MiB smaller on 1 GB but made
--   the cold build 12 % slower; not kept);
-- - fragments_fts puts the filter tags in column 0, whose postings carry no column number (two bytes less for each
--   of the dozen tags of every fragment), and the text columns after it (src/query/rank.ts FTS_COLUMNS).
DROP TRIGGER IF EXISTS `fragments_fts_delete`;
--> statement-breakpoint
DROP TABLE IF EXISTS `fragments_fts`;
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
	`entry_type` text NOT NULL,
	`role` text,
	`tool_name` text,
	`tool_call_id` text,
	`is_error` integer DEFAULT false NOT NULL,
	`timestamp` text NOT NULL,
	`line_no` integer NOT NULL,
	`byte_start` integer NOT NULL,
	`byte_end` integer NOT NULL,
	`link_id` text,
	`attributes` text DEFAULT '{}' NOT NULL,
	`files` text DEFAULT '[]' NOT NULL,
	`branch_state` text DEFAULT 'unknown' NOT NULL,
	`selection_state` text DEFAULT 'unknown' NOT NULL,
	`line_hash` blob,
	PRIMARY KEY(`source_id`, `seq`),
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_entry` ON `events` (`source_id`,`entry_id`);
--> statement-breakpoint
CREATE INDEX `events_parent` ON `events` (`source_id`,`parent_id`);
--> statement-breakpoint
CREATE INDEX `events_link` ON `events` (`source_id`,`link_id`) WHERE link_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `events_tool_call` ON `events` (`source_id`,`tool_call_id`) WHERE tool_call_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `fragments` (
	`id` integer PRIMARY KEY NOT NULL,
	`source_id` integer NOT NULL,
	`event_seq` integer NOT NULL,
	`ord` integer NOT NULL,
	`kind` text NOT NULL,
	`text` text NOT NULL,
	`char_count` integer NOT NULL,
	`tool_name` text,
	`tool_call_id` text,
	FOREIGN KEY (`source_id`,`event_seq`) REFERENCES `events`(`source_id`,`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fragments_event_ord` ON `fragments` (`source_id`,`event_seq`,`ord`);
--> statement-breakpoint
CREATE INDEX `fragments_tool_call` ON `fragments` (`source_id`,`tool_call_id`) WHERE tool_call_id IS NOT NULL;
--> statement-breakpoint
CREATE VIRTUAL TABLE `fragments_fts` USING fts5(tags, body, b0x1, b0x2, b0x3, b0x4, b0x5, b0x6, b0x7, b0x8, b0x9, b0x10, b0x11, b1x0, b1x1, b1x2, b1x3, b1x4, b1x5, b1x6, b1x7, b1x8, b1x9, b1x10, b1x11, b2x0, b2x1, b2x2, b2x3, b2x4, b2x5, b2x6, b2x7, b2x8, b2x9, b2x10, b2x11, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `fragments_fts_delete` AFTER DELETE ON `fragments` BEGIN DELETE FROM `fragments_fts` WHERE rowid = old.id; END;
