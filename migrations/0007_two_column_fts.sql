-- Index format 4: fragments_fts has two columns (docs/store.md, "Two FTS columns"). Stores of format 3 are rebuilt as
-- new generations, so this runs on an empty table and simply replaces it. All fragment text is in column 0, whose
-- postings carry no column number (most postings are text), the filter tags in column 1; docsize keeps two counts a
-- row instead of 37. A fragment's weight class is no longer the column its text is in but its id modulo ID_STRIDE
-- (src/query/rank.ts), and search passes the class's weight to bm25 row by row: the same scores as format 3.
DROP TRIGGER IF EXISTS `fragments_fts_delete`;
--> statement-breakpoint
DROP TABLE IF EXISTS `fragments_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `fragments_fts` USING fts5(body, tags, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `fragments_fts_delete` AFTER DELETE ON `fragments` BEGIN DELETE FROM `fragments_fts` WHERE rowid = old.id; END;
