CREATE INDEX `sources_unsynced` ON `sources` (`id`) WHERE synced_at IS NULL;--> statement-breakpoint
CREATE INDEX `sources_failed` ON `sources` (`id`) WHERE last_error IS NOT NULL;