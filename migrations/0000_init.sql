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
	PRIMARY KEY(`source_id`, `seq`),
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_entry` ON `events` (`source_id`,`entry_id`);--> statement-breakpoint
CREATE INDEX `events_parent` ON `events` (`source_id`,`parent_id`);--> statement-breakpoint
CREATE INDEX `events_link` ON `events` (`source_id`,`link_id`);--> statement-breakpoint
CREATE INDEX `events_tool_call` ON `events` (`source_id`,`tool_call_id`);--> statement-breakpoint
CREATE INDEX `events_time` ON `events` (`timestamp`);--> statement-breakpoint
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
CREATE UNIQUE INDEX `fragments_event_ord` ON `fragments` (`source_id`,`event_seq`,`ord`);--> statement-breakpoint
CREATE INDEX `fragments_tool_call` ON `fragments` (`tool_call_id`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`path` text NOT NULL,
	`dev` text NOT NULL,
	`ino` text NOT NULL,
	`size` integer NOT NULL,
	`mtime_ms` integer NOT NULL,
	`offset` integer DEFAULT 0 NOT NULL,
	`line_count` integer DEFAULT 0 NOT NULL,
	`parse_state` text DEFAULT '{}' NOT NULL,
	`head_hash` text DEFAULT '' NOT NULL,
	`head_len` integer DEFAULT 0 NOT NULL,
	`tail_hash` text DEFAULT '' NOT NULL,
	`tail_start` integer DEFAULT 0 NOT NULL,
	`session_id` text,
	`session_version` integer,
	`cwd` text,
	`header_timestamp` text,
	`parent_session` text,
	`parent_session_path` text,
	`session_name` text,
	`leaf_entry_id` text,
	`leaf_seq` integer,
	`entry_count` integer DEFAULT 0 NOT NULL,
	`skipped_count` integer DEFAULT 0 NOT NULL,
	`receipts` text DEFAULT '[]' NOT NULL,
	`last_error` text,
	`failures` integer DEFAULT 0 NOT NULL,
	`synced_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sources_path` ON `sources` (`path`);--> statement-breakpoint
CREATE INDEX `sources_identity` ON `sources` (`dev`,`ino`);--> statement-breakpoint
CREATE INDEX `sources_session` ON `sources` (`session_id`);--> statement-breakpoint
CREATE INDEX `sources_cwd` ON `sources` (`cwd`);--> statement-breakpoint
CREATE INDEX `sources_parent` ON `sources` (`parent_session_path`);