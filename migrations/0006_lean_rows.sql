-- Index format 3: leaner rows for the same search (docs/store.md, "Lean rows"). Stores of format 2 are rebuilt as
-- new generations, so this runs on an empty table and simply replaces it: fragments_fts puts the filter tags in
-- column 0, whose postings carry no column number (two bytes less for each of the dozen tags of every fragment), and
-- the text columns after it (src/query/rank.ts FTS_COLUMNS). The other change of format 3 (a tool result's tool name
-- and call id stored on its event only) needs no schema change.
DROP TRIGGER IF EXISTS `fragments_fts_delete`;
--> statement-breakpoint
DROP TABLE IF EXISTS `fragments_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `fragments_fts` USING fts5(tags, body, b0x1, b0x2, b0x3, b0x4, b0x5, b0x6, b0x7, b0x8, b0x9, b0x10, b0x11, b1x0, b1x1, b1x2, b1x3, b1x4, b1x5, b1x6, b1x7, b1x8, b1x9, b1x10, b1x11, b2x0, b2x1, b2x2, b2x3, b2x4, b2x5, b2x6, b2x7, b2x8, b2x9, b2x10, b2x11, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `fragments_fts_delete` AFTER DELETE ON `fragments` BEGIN DELETE FROM `fragments_fts` WHERE rowid = old.id; END;
