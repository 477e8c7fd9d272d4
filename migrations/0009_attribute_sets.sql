CREATE TABLE `attribute_sets` (
	`id` integer PRIMARY KEY NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attribute_sets_json` ON `attribute_sets` (`json`);