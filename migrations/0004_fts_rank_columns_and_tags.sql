-- Index format 2: fragments_fts gets one text column per (kind weight, length step) so bm25's column weights rank
-- inside the full-text index (src/query/rank.ts RANK_COLUMNS, same order), and a `tags` column of filter tokens
-- (src/text/fragment-tags.ts) so filters and authorization intersect inside it, before any cap on work.
-- Stores of format 1 are rebuilt, so the old table is simply replaced.
DROP TRIGGER IF EXISTS `fragments_fts_delete`;
--> statement-breakpoint
DROP TABLE IF EXISTS `fragments_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `fragments_fts` USING fts5(body, b0x1, b0x2, b0x3, b0x4, b0x5, b0x6, b0x7, b0x8, b0x9, b0x10, b0x11, b1x0, b1x1, b1x2, b1x3, b1x4, b1x5, b1x6, b1x7, b1x8, b1x9, b1x10, b1x11, b2x0, b2x1, b2x2, b2x3, b2x4, b2x5, b2x6, b2x7, b2x8, b2x9, b2x10, b2x11, tags, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `fragments_fts_delete` AFTER DELETE ON `fragments` BEGIN DELETE FROM `fragments_fts` WHERE rowid = old.id; END;
