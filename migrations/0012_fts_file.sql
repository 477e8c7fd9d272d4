-- Index format 10: the full-text index in a database file of its own (docs/store.md, "The full-text file"). Every
-- store connection attaches `<store file>-fts` as schema `fts` (src/store/db.ts), so unqualified names resolve there
-- and queries keep their text; a two-thread pass writes that file from a thread of its own. Stores of format 9 are
-- rebuilt as new generations, so this runs on an empty table and simply moves it. No delete trigger: a trigger may
-- not name a table of another schema, so src/ingest/source-rows.ts deletes a source's FTS rows itself.
-- `fts_meta` holds the full-text file's half of the commit ledger (src/store/fts-ledger.ts).
DROP TRIGGER IF EXISTS `fragments_fts_delete`;
--> statement-breakpoint
DROP TABLE IF EXISTS `fragments_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `fts`.`fragments_fts` USING fts5(body, tags, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TABLE `fts`.`fts_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
