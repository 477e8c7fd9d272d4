-- Full-text index over fragments. Contentless (the text lives in `fragments`), with contentless_delete so a
-- row can be removed by rowid alone. The body is `searchText(text)` (src/text/search-text.ts), written by the
-- ingest code in the same transaction as the fragment; the trigger keeps deletes (including FK cascades) exact.
CREATE VIRTUAL TABLE `fragments_fts` USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `fragments_fts_delete` AFTER DELETE ON `fragments` BEGIN DELETE FROM `fragments_fts` WHERE rowid = old.id; END;
